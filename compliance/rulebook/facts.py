"""The shapes a jurisdiction's facts take: a checklist item, a kind of flag, the facts of its text
(wagers: wagers.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compliance.rulebook.violations import Violation
    from compliance.rulebook.wagers import Choice, Option, Wager


@dataclass(frozen=True)
class ChecklistItem:
    """An item of the inspection before opening, with the paragraph that asks for it."""

    code: str
    label: str
    citation: str


@dataclass(frozen=True)
class FlagKind:
    """A problem the overdue scan flags: its code, its label, its citation, and the column of the
    table (compliance.casinos.models.GamingTable) holding the deadline it watches. `ahead`: the
    deadline is a moment to come (counted in the table's next due, shown on the floor); otherwise
    it is when a problem of the open table happened, flagged at once. `by_game`: the citation of a
    game whose own paragraph says it (game → citation), in place of `citation`."""

    code: str
    label: str
    citation: str
    deadline: str
    ahead: bool = True
    by_game: tuple[tuple[str, str], ...] = ()

    def citation_for(self, game: str) -> str:
        """The citation of this kind of flag at a table of `game`."""
        return dict(self.by_game).get(game, self.citation)


@dataclass(frozen=True)
class Facts:
    """What one jurisdiction's own text sets, which the shared rules apply (rulebooks.py): its name,
    its wagers, odds and options (and its rules of them), Big Six, Casino War, its irregularities
    and, where it borrows Pennsylvania's procedure, its own paragraphs for what those rules check
    (`own`: Pennsylvania's paragraph → its own) and the layout areas it asks for. `text` names the
    text where a borrowed answer says it is silent ("N.J.A.C. 19:47-5 sets no procedure")."""

    name: str
    text: str
    wagers_citation: str
    payout_odds: str
    wagers: dict[str, Wager]
    options: dict[str, Option]
    exclusivity: Callable[..., list[Violation]]
    required_options: Callable[..., list[Violation]]
    options_refused: dict[str, str]
    big_six_citation: str
    big_six_wagers: dict[str, Wager]
    big_six_clapper: Choice
    big_six_odds_wording: Choice | None
    casino_war_payouts: dict[str, tuple[tuple[int, int], str]] | None
    no_casino_war: str | None
    irregularities: str
    irregularity_kinds: tuple[tuple[str, str], ...]
    own: dict[str, str] = field(default_factory=dict)
    layout_for_wager: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    layout_for_double_zero: tuple[tuple[str, str], ...] = ()
    layout_for_big_six: tuple[tuple[str, str], ...] = ()
