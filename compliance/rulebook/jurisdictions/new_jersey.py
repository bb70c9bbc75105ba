"""New Jersey, N.J.A.C. 19:47-5: Roulette wagers, payout odds and their options, its irregularities,
the layout areas it asks for, and Big Six.

The wheel inspection procedure, the equipment standards and the opening gate are Pennsylvania's,
applied by policy (rulebooks.NewJersey): this subchapter sets none, and every such answer says so.
"""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.facts import Facts
from compliance.rulebook.games.roulette import double_zero_loss_chosen
from compliance.rulebook.violations import Violation, gettext_noop
from compliance.rulebook.wagers import DOUBLE, SINGLE, Choice, Option, Wager, big_six_wagers, standard_wagers

NAME = "New Jersey (N.J.A.C. 19:47-5)"
WAGERS_CITATION = "N.J.A.C. 19:47-5.1(e)"
PAYOUT_ODDS = "N.J.A.C. 19:47-5.2(a)"
EXCLUSIVITY = "N.J.A.C. 19:47-5.1(g)"
COLOR_WAGERS = frozenset({"six_numbers_color", "seven_numbers_color", "eight_numbers_color"})

WAGERS = {
    **standard_wagers(payout_citation=PAYOUT_ODDS, first_five_citation="N.J.A.C. 19:47-5.1(e)5"),
    # 19:47-5.1(f): 10, 11, 12, 13, 14, 15 and 33.
    "seven_numbers": Wager("seven_numbers", gettext_noop("Seven Numbers"), 7, (4, 1), PAYOUT_ODDS, optional=True),
    # 19:47-5.1(e)6.ii, 7 and 8: the colour wagers (the 7 and 8 include 0, and 0 and 00).
    "six_numbers_color": Wager(
        "six_numbers_color", gettext_noop("Six Numbers colour wager"), 6, (5, 1), PAYOUT_ODDS, optional=True
    ),
    "seven_numbers_color": Wager(
        "seven_numbers_color",
        gettext_noop("Seven Numbers colour wager"),
        7,
        (4, 1),
        PAYOUT_ODDS,
        wheels=frozenset({SINGLE}),
        wheels_citation="N.J.A.C. 19:47-5.1(e)7",
        optional=True,
    ),
    "eight_numbers_color": Wager(
        "eight_numbers_color",
        gettext_noop("Eight Numbers colour wager"),
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


# No option of another text is refused here by a paragraph of its own: WAGERS_CITATION says what is allowed.
OPTIONS_REFUSED: dict[str, str] = {}


def required_options(*, wheel_types: list[str], options: dict[str, object]) -> list[Violation]:
    return double_zero_loss_chosen(wheel_types=wheel_types, options=options, citation="N.J.A.C. 19:47-5.2(b)")


# ---- 19:47-5.4: irregularities, three kinds (a ball leaving the wheel is not one of them) ----

IRREGULARITIES = "N.J.A.C. 19:47-5.4"
IRREGULARITY_KINDS = (
    ("same_direction", gettext_noop("ball spun in the same direction as the wheel (N.J.A.C. 19:47-5.4(a))")),
    ("under_four_revolutions", gettext_noop("ball did not complete four revolutions (N.J.A.C. 19:47-5.4(b))")),
    ("foreign_object", gettext_noop("a foreign object entered the wheel (N.J.A.C. 19:47-5.4(c))")),
)

# ---- Where this text has its own paragraph for what Pennsylvania's rules check ----

OWN = {
    "58 Pa. Code § 617a.6": IRREGULARITIES,
    # The five adjacent numbers: a layout with a replica of the wheel.
    "58 Pa. Code § 617a.1(f)(4)": "N.J.A.C. 19:47-5.1(e)1.i(1)",
    # A double-zero wheel used as single zero: the notice at the table.
    "58 Pa. Code § 617a.1(e)(2)": "N.J.A.C. 19:47-5.2(d)1",
}

# ---- The layout areas and notices this text asks for ----

LAYOUT_FOR_WAGER: dict[str, tuple[tuple[str, str], ...]] = {
    "seven_numbers": (("seven_numbers_area", "N.J.A.C. 19:47-5.1(f)"),),
    "six_numbers_color": (("color_wager_area", "N.J.A.C. 19:47-5.1(e)6.ii"),),
    "seven_numbers_color": (("color_wager_area", "N.J.A.C. 19:47-5.1(e)7"),),
    "eight_numbers_color": (("color_wager_area", "N.J.A.C. 19:47-5.1(e)8"),),
}
# 19:47-5.2(b): notice at the table of the option in effect (half or all lost on 0 and 00).
LAYOUT_FOR_DOUBLE_ZERO = (("double_zero_option_notice", "N.J.A.C. 19:47-5.2(b)"),)
# 19:47-5.6(d): a sign at each table stating the clapper option in effect.
LAYOUT_FOR_BIG_SIX = (("clapper_option_sign", "N.J.A.C. 19:47-5.6(d)"),)

# ---- Big Six ----

BIG_SIX_CITATION = "N.J.A.C. 19:47-5.5(a)"
BIG_SIX_WAGERS = big_six_wagers(payout_citation=BIG_SIX_CITATION)
# Between two sections: the number passed, or void and respin, as the casino chooses and posts.
BIG_SIX_CLAPPER: Choice = (("previous_number", "void_and_respin"), "N.J.A.C. 19:47-5.6(c)")
# 19:47-5.5(b): odds printed on the wheel, layout or publications say "to" or "win", never "for".
BIG_SIX_ODDS_WORDING: Choice | None = (("to", "win"), "N.J.A.C. 19:47-5.5(b)")

# ---- Casino War: not in this text ----

CASINO_WAR_PAYOUTS: dict[str, tuple[tuple[int, int], str]] | None = None
# Subchapter 5 is "Roulette and Big Six Wheels": it says nothing of Casino War, neither allowing nor
# forbidding it. Refusing the game is the product's policy: it holds no rules to keep one by.
NO_CASINO_WAR: str | None = gettext_noop(
    "Product policy: the text held for this jurisdiction, N.J.A.C. 19:47-5 (Roulette and Big Six wheels), "
    "has no Casino War"
)


# ---- This text's facts, as its rulebook applies them (rulebooks.py) ----

FACTS = Facts(
    name=NAME,
    text="N.J.A.C. 19:47-5",
    wagers_citation=WAGERS_CITATION,
    payout_odds=PAYOUT_ODDS,
    wagers=WAGERS,
    options=OPTIONS,
    exclusivity=exclusivity,
    required_options=required_options,
    options_refused=OPTIONS_REFUSED,
    big_six_citation=BIG_SIX_CITATION,
    big_six_wagers=BIG_SIX_WAGERS,
    big_six_clapper=BIG_SIX_CLAPPER,
    big_six_odds_wording=BIG_SIX_ODDS_WORDING,
    casino_war_payouts=CASINO_WAR_PAYOUTS,
    no_casino_war=NO_CASINO_WAR,
    irregularities=IRREGULARITIES,
    irregularity_kinds=IRREGULARITY_KINDS,
    own=OWN,
    layout_for_wager=LAYOUT_FOR_WAGER,
    layout_for_double_zero=LAYOUT_FOR_DOUBLE_ZERO,
    layout_for_big_six=LAYOUT_FOR_BIG_SIX,
)
