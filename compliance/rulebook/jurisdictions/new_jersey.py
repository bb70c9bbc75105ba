"""New Jersey, N.J.A.C. 19:47-5: Roulette wagers, payout odds and their options.

The wheel inspection procedure is Pennsylvania's (compliance.rulebook.LOGBOOK_PROCEDURE):
this subchapter sets none.
"""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.games.roulette import double_zero_loss_chosen
from compliance.rulebook.violations import Violation
from compliance.rulebook.wagers import DOUBLE, SINGLE, Choice, Option, Wager, big_six_wagers, standard_wagers

NAME = "New Jersey (N.J.A.C. 19:47-5)"
WAGERS_CITATION = "N.J.A.C. 19:47-5.1(e)"
PAYOUT_ODDS = "N.J.A.C. 19:47-5.2(a)"
EXCLUSIVITY = "N.J.A.C. 19:47-5.1(g)"
COLOR_WAGERS = frozenset({"six_numbers_color", "seven_numbers_color", "eight_numbers_color"})

WAGERS = {
    **standard_wagers(payout_citation=PAYOUT_ODDS, first_five_citation="N.J.A.C. 19:47-5.1(e)5"),
    # 19:47-5.1(f): 10, 11, 12, 13, 14, 15 and 33.
    "seven_numbers": Wager("seven_numbers", "Seven Numbers", 7, (4, 1), PAYOUT_ODDS, optional=True),
    # 19:47-5.1(e)6.ii, 7 and 8: the colour wagers (the 7 and 8 include 0, and 0 and 00).
    "six_numbers_color": Wager("six_numbers_color", "Six Numbers colour wager", 6, (5, 1), PAYOUT_ODDS, optional=True),
    "seven_numbers_color": Wager(
        "seven_numbers_color",
        "Seven Numbers colour wager",
        7,
        (4, 1),
        PAYOUT_ODDS,
        wheels=frozenset({SINGLE}),
        wheels_citation="N.J.A.C. 19:47-5.1(e)7",
        optional=True,
    ),
    "eight_numbers_color": Wager(
        "eight_numbers_color",
        "Eight Numbers colour wager",
        8,
        (3, 1),
        PAYOUT_ODDS,
        wheels=frozenset({DOUBLE}),
        wheels_citation="N.J.A.C. 19:47-5.1(e)8",
        optional=True,
    ),
}

OPTIONS: dict[str, Option] = {
    "five_adjacent": ((True, False), "N.J.A.C. 19:47-5.1(e)1.i"),
    "double_zero_loss": (("half", "all"), "N.J.A.C. 19:47-5.2(b)"),
}


def exclusivity(*, offered: set[str]) -> list[Violation]:
    """19:47-5.1(g): colour wagers exclude red and black; the seven and eight exclude the dozen."""
    violations = []
    colors = sorted(offered & COLOR_WAGERS)
    if colors and offered & {"red", "black"}:
        violations.append(
            violation(
                "color_wager_with_red_black",
                field="payout_odds.red" if "red" in offered else "payout_odds.black",
                citation=EXCLUSIVITY,
            )
        )
    if offered & {"seven_numbers_color", "eight_numbers_color"} and "dozen" in offered:
        violations.append(violation("color_wager_with_dozen", field="payout_odds.dozen", citation=EXCLUSIVITY))
    return violations


def required_options(*, wheel_types: list[str], options: dict[str, object]) -> list[Violation]:
    return double_zero_loss_chosen(wheel_types=wheel_types, options=options, citation="N.J.A.C. 19:47-5.2(b)")


# ---- Big Six ----

BIG_SIX_CITATION = "N.J.A.C. 19:47-5.5(a)"
BIG_SIX_WAGERS = big_six_wagers(payout_citation=BIG_SIX_CITATION)
# Between two sections: the number passed, or void and respin, as the casino chooses and posts.
BIG_SIX_CLAPPER: Choice = (("previous_number", "void_and_respin"), "N.J.A.C. 19:47-5.6(c)")

# ---- Casino War: not in this text ----

CASINO_WAR_PAYOUTS: dict[str, tuple[tuple[int, int], str]] | None = None
