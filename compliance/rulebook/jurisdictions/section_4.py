"""The "Section 4 — Roulette and Big Six Wheels Rules" text: Roulette wagers and payout odds.

The wheel inspection procedure is Pennsylvania's (compliance.rulebook.LOGBOOK_PROCEDURE):
this text sets none.
"""

from __future__ import annotations

from compliance.rulebook.games.roulette import double_zero_loss_chosen
from compliance.rulebook.violations import Violation
from compliance.rulebook.wagers import Choice, Option, Wager, big_six_wagers, standard_wagers

NAME = "the Section 4 rules"
WAGERS_CITATION = "Section 4(a)(5)"
PAYOUT_ODDS = "Section 4(b)(1)"

WAGERS = {
    **standard_wagers(payout_citation=PAYOUT_ODDS, first_five_citation="Section 4(a)(5)(v)"),
    # Section 4(a)(6): 10, 11, 12, 13, 14, 15 and 33.
    "seven_numbers": Wager("seven_numbers", "Seven Numbers", 7, (4, 1), PAYOUT_ODDS, optional=True),
}

OPTIONS: dict[str, Option] = {
    "five_adjacent": ((True, False), "Section 4(a)(5)(i)(A)"),
    "double_zero_loss": (("half", "all"), "Section 4(b)(2)"),
}


def exclusivity(*, offered: set[str]) -> list[Violation]:
    """The Section 4 text has no wagers that exclude one another."""
    return []


def required_options(*, wheel_types: list[str], options: dict[str, object]) -> list[Violation]:
    return double_zero_loss_chosen(wheel_types=wheel_types, options=options, citation="Section 4(b)(2)")


# ---- Big Six ----

BIG_SIX_CITATION = "Section 4(e)(1)"
BIG_SIX_WAGERS = big_six_wagers(payout_citation=BIG_SIX_CITATION)
# Between two sections: the number passed, or void and respin, as the casino chooses and posts.
BIG_SIX_CLAPPER: Choice = (("previous_number", "void_and_respin"), "Section 4(f)(3)")

# ---- Casino War: not in this text ----

CASINO_WAR_PAYOUTS: dict[str, tuple[tuple[int, int], str]] | None = None
