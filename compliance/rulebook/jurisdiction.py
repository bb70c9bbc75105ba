"""What a jurisdiction's game rules provide, as a type an editor and mypy follow.

`GameRules` is what the wagers of a Rules Submission are checked against (game_rules_for): each
jurisdiction's facts module meets it (jurisdictions/), and so does each rulebook. A jurisdiction's
whole rulebook is the class rulebooks.Pennsylvania (or a subclass of it): the class is its own
interface, named `Jurisdiction` for the callers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from compliance.rulebook.violations import Violation
from compliance.rulebook.wagers import Choice, Option, Wager

if TYPE_CHECKING:
    from compliance.rulebook.rulebooks import Pennsylvania as Jurisdiction

__all__ = ["GameRules", "Jurisdiction"]


@runtime_checkable
class GameRules(Protocol):
    """A jurisdiction's wagers, their minimum odds and the options of its Rules Submissions."""

    NAME: str
    WAGERS_CITATION: str
    PAYOUT_ODDS: str
    WAGERS: dict[str, Wager]
    OPTIONS: dict[str, Option]
    BIG_SIX_CITATION: str
    BIG_SIX_WAGERS: dict[str, Wager]
    BIG_SIX_CLAPPER: Choice
    # The words Big Six odds may be stated with, and the paragraph; None: the text says nothing.
    BIG_SIX_ODDS_WORDING: Choice | None
    # None: the jurisdiction's texts have no Casino War.
    CASINO_WAR_PAYOUTS: dict[str, tuple[tuple[int, int], str]] | None
    # Why the game is refused where the texts have no Casino War (a product policy); None where they have it.
    NO_CASINO_WAR: str | None
    # An option another text has, refused here by a paragraph of this text's own (else WAGERS_CITATION).
    OPTIONS_REFUSED: dict[str, str]

    def exclusivity(self, *, offered: set[str]) -> list[Violation]: ...

    def required_options(self, *, wheel_types: list[str], options: dict[str, object]) -> list[Violation]: ...
