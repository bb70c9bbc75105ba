"""The "Section 4 — Roulette and Big Six Wheels Rules" text: Roulette wagers and payout odds, its
irregularities, the layout areas it asks for, and Big Six.

The wheel inspection procedure, the equipment standards and the opening gate are Pennsylvania's,
applied by policy (rulebooks.Section4): this text sets none, and every such answer says so.
"""

from __future__ import annotations

from compliance.rulebook.facts import Facts
from compliance.rulebook.games.roulette import double_zero_loss_chosen
from compliance.rulebook.violations import Violation, gettext_noop
from compliance.rulebook.wagers import Choice, Option, Wager, big_six_wagers, standard_wagers

NAME = "the Section 4 rules"
WAGERS_CITATION = "Section 4(a)(5)"
PAYOUT_ODDS = "Section 4(b)(1)"

WAGERS = {
    **standard_wagers(payout_citation=PAYOUT_ODDS, first_five_citation="Section 4(a)(5)(v)"),
    # Section 4(a)(6): 10, 11, 12, 13, 14, 15 and 33.
    "seven_numbers": Wager("seven_numbers", gettext_noop("Seven Numbers"), 7, (4, 1), PAYOUT_ODDS, optional=True),
}

OPTIONS: dict[str, Option] = {
    "five_adjacent": ((True, False), "Section 4(a)(5)(i)(A)"),
    "double_zero_loss": (("half", "all"), "Section 4(b)(2)"),
}


def exclusivity(*, offered: set[str]) -> list[Violation]:
    """The Section 4 text has no wagers that exclude one another."""
    return []


# No option of another text is refused here by a paragraph of its own: WAGERS_CITATION says what is allowed.
OPTIONS_REFUSED: dict[str, str] = {}


def required_options(*, wheel_types: list[str], options: dict[str, object]) -> list[Violation]:
    return double_zero_loss_chosen(wheel_types=wheel_types, options=options, citation="Section 4(b)(2)")


# ---- Section 4(d): irregularities, three kinds (a ball leaving the wheel is not one of them) ----

IRREGULARITIES = "Section 4(d)"
IRREGULARITY_KINDS = (
    ("same_direction", gettext_noop("ball spun in the same direction as the wheel (Section 4(d)(1))")),
    ("under_four_revolutions", gettext_noop("ball did not complete four revolutions (Section 4(d)(2))")),
    ("foreign_object", gettext_noop("a foreign object entered the wheel (Section 4(d)(3))")),
)

# ---- Where this text has its own paragraph for what Pennsylvania's rules check ----

OWN = {
    "58 Pa. Code § 617a.6": IRREGULARITIES,
    # The five adjacent numbers: a layout with a replica of the wheel.
    "58 Pa. Code § 617a.1(f)(4)": "Section 4(a)(5)(i)(A)(1)",
    # A double-zero wheel used as single zero: the notice at the table.
    "58 Pa. Code § 617a.1(e)(2)": "Section 4(b)(4)(i)",
}

# ---- The layout areas and notices this text asks for ----

LAYOUT_FOR_WAGER: dict[str, tuple[tuple[str, str], ...]] = {
    "seven_numbers": (("seven_numbers_area", "Section 4(a)(6)(ii)"),),
}
# Section 4(b)(2): notice at the table of the option in effect (half or all lost on 0 and 00).
LAYOUT_FOR_DOUBLE_ZERO = (("double_zero_option_notice", "Section 4(b)(2)"),)
# Section 4(f)(4): a sign at each table stating the clapper option in effect.
LAYOUT_FOR_BIG_SIX = (("clapper_option_sign", "Section 4(f)(4)"),)

# ---- Big Six ----

BIG_SIX_CITATION = "Section 4(e)(1)"
BIG_SIX_WAGERS = big_six_wagers(payout_citation=BIG_SIX_CITATION)
# Between two sections: the number passed, or void and respin, as the casino chooses and posts.
BIG_SIX_CLAPPER: Choice = (("previous_number", "void_and_respin"), "Section 4(f)(3)")
# Section 4(e)(2): odds printed on the wheel, layout or publications say "to" or "win", never "for".
BIG_SIX_ODDS_WORDING: Choice | None = (("to", "win"), "Section 4(e)(2)")

# ---- Casino War: not in this text ----

CASINO_WAR_PAYOUTS: dict[str, tuple[tuple[int, int], str]] | None = None
# The text is "Roulette and Big Six Wheels Rules": it says nothing of Casino War, neither allowing nor
# forbidding it. Refusing the game is the product's policy: it holds no rules to keep one by.
NO_CASINO_WAR: str | None = gettext_noop(
    "Product policy: the text held for this jurisdiction, Section 4 (Roulette and Big Six Wheels Rules), "
    "has no Casino War"
)


# ---- This text's facts, as its rulebook applies them (rulebooks.py) ----

FACTS = Facts(
    name=NAME,
    text="Section 4",
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
