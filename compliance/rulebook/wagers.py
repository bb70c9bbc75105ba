"""Roulette and Big Six wagers as data: what a wager is, the options a Rules Submission chooses,
the table of wagers the texts share, the odds as typed, and the house edge.

Which wagers and options a jurisdiction has, with their citations, is its own module's
(jurisdictions/); the checks of a Rules Submission are the games' (games/).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from compliance.rulebook.violations import Listed, gettext_noop
from compliance.rulebook.vocabulary import WheelType

SINGLE, DOUBLE, AS_SINGLE = WheelType.SINGLE_ZERO, WheelType.DOUBLE_ZERO, WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO
ALL_WHEELS: frozenset[str] = frozenset({SINGLE, DOUBLE, AS_SINGLE})


def wheels_listed(wheels: list[str]) -> Listed:
    """Wheel types in a sentence by their labels ("double zero, double zero used as single zero"),
    each said in the reader's language; never their codes."""
    known = WheelType.values()
    return Listed([WheelType.label_of(w) if w in known else w.replace("_", " ") for w in wheels])


@dataclass(frozen=True)
class Wager:
    code: str
    label: str
    numbers: int  # how many pockets (or Big Six sections) win
    minimum: tuple[int, int]  # "X to Y"
    citation: str  # where the minimum odds are
    wheels: frozenset[str] = ALL_WHEELS
    wheels_citation: str | None = None
    even_money: bool = False  # red, black, odd, even, 1–18, 19–36: lost (or half lost) on 0 and 00
    optional: bool = False  # offered only when the Rules Submission says so


@dataclass(frozen=True)
class Paytable:
    """A side wager's published choices: pick one (paytables) or include all (payout lists).

    `straight`: with this option chosen the straight wager is paid exactly these odds (Lightning
    Roulette's 29 to 1, § 617c.3(f)), cited to `straight_citation`.
    """

    citation: str
    choices: tuple[object, ...] = ()
    include_all: frozenset[int] = field(default_factory=frozenset)
    wheels: frozenset[str] = ALL_WHEELS
    wheels_citation: str | None = None
    straight: tuple[int, int] | None = None
    straight_citation: str | None = None


# An option of a Rules Submission: a side wager's paytable, or (the values allowed, the citation).
Option = Paytable | tuple[tuple[object, ...], str]
# The Big Six clapper between two sections: (the choices allowed, the citation).
Choice = tuple[tuple[str, ...], str]


def standard_wagers(*, payout_citation: str, first_five_citation: str) -> dict[str, Wager]:
    """The table the three texts share, word for word in its odds (58 Pa. Code § 617a.4(a);
    N.J.A.C. 19:47-5.2(a); Section 4(b)(1)), cited to the jurisdiction's own section."""
    wagers = (
        Wager("straight", gettext_noop("Straight"), 1, (35, 1), payout_citation),
        Wager("split", gettext_noop("Split"), 2, (17, 1), payout_citation),
        Wager("three_numbers", gettext_noop("Three Numbers"), 3, (11, 1), payout_citation),
        Wager("four_numbers", gettext_noop("Four Numbers"), 4, (8, 1), payout_citation),
        # 0, 00, 1, 2 and 3: only a double-zero layout has it.
        Wager(
            "first_five",
            gettext_noop("First Five Numbers"),
            5,
            (6, 1),
            payout_citation,
            wheels=frozenset({DOUBLE}),
            wheels_citation=first_five_citation,
        ),
        Wager("six_numbers", gettext_noop("Six Numbers"), 6, (5, 1), payout_citation),
        Wager("column", gettext_noop("Column"), 12, (2, 1), payout_citation),
        Wager("dozen", gettext_noop("Dozen"), 12, (2, 1), payout_citation),
        *(
            Wager(code, label, 18, (1, 1), payout_citation, even_money=True)
            for code, label in (
                ("red", gettext_noop("Red")),
                ("black", gettext_noop("Black")),
                ("odd", gettext_noop("Odd")),
                ("even", gettext_noop("Even")),
                ("low", gettext_noop("1 to 18")),
                ("high", gettext_noop("19 to 36")),
            )
        ),
    )
    return {w.code: w for w in wagers}


BIG_SIX_SECTIONS = 54


def big_six_wagers(*, payout_citation: str, flag_label: str = gettext_noop("Flag")) -> dict[str, Wager]:
    """The symbols, how many of the 54 sections carry each (58 Pa. Code § 619a.1(a)), and the
    minimum odds the three texts share (§ 619a.3; N.J.A.C. 19:47-5.5(a); Section 4(e)(1))."""
    wagers = (
        Wager("big_six_1", gettext_noop("$1 symbol"), 23, (1, 1), payout_citation),
        Wager("big_six_2", gettext_noop("$2 symbol"), 15, (2, 1), payout_citation),
        Wager("big_six_5", gettext_noop("$5 symbol"), 8, (5, 1), payout_citation),
        Wager("big_six_10", gettext_noop("$10 symbol"), 4, (10, 1), payout_citation),
        Wager("big_six_20", gettext_noop("$20 symbol"), 2, (20, 1), payout_citation),
        Wager("joker", gettext_noop("Joker"), 1, (45, 1), payout_citation),
        Wager("flag", flag_label, 1, (45, 1), payout_citation),
    )
    return {w.code: w for w in wagers}


def pockets(wheel_type: str) -> tuple[int, int]:
    """(pockets that count, zero pockets that count): 00 on a wheel used as single-zero is void and respun."""
    return (38, 2) if wheel_type == DOUBLE else (37, 1)


def house_edge(*, wager: Wager, odds: tuple[int, int], wheel_type: str, double_zero_loss: str = "all") -> Fraction:
    """The casino's expected gain per unit wagered: 1 − E[return], exactly."""
    total, zeros = pockets(wheel_type)
    to, per = odds
    returned = Fraction(wager.numbers) * (Fraction(to, per) + 1)
    if wager.even_money and wheel_type == DOUBLE and double_zero_loss == "half":
        returned += Fraction(zeros, 2)  # half of the wager comes back on 0 and 00
    return 1 - returned / total


def big_six_house_edge(*, wager: Wager, odds: tuple[int, int]) -> Fraction:
    """A void spin is respun and a between-sections stop takes the section passed: either way each
    section is equally likely, so the edge is the sections' count against the payout."""
    return 1 - Fraction(wager.numbers) * (Fraction(*odds) + 1) / BIG_SIX_SECTIONS


# No published payout comes near these: anything larger is a typing mistake (and would overflow).
MAX_ODDS_TO, MAX_ODDS_PER = 100_000, 1_000


def odds_given(value: object) -> tuple[int, int] | None:
    """Odds typed as [X, Y] for "X to Y", or None when they are not."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
        and 0 < value[0] <= MAX_ODDS_TO
        and 0 < value[1] <= MAX_ODDS_PER
    ):
        return int(value[0]), int(value[1])
    return None
