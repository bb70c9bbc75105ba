"""Roulette wagers, their minimum odds and house edge, and the Rules Submission check.

The facts (which wagers, which minimums, which options, with their citations) are each
jurisdiction's module's (pa.py, nj.py, s4.py); this module only knows how to apply them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction

from compliance.casinos.models import WheelType
from compliance.rulebook.base import Violation

SINGLE, DOUBLE, AS_SINGLE = WheelType.SINGLE_ZERO, WheelType.DOUBLE_ZERO, WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO
ALL_WHEELS = frozenset({SINGLE, DOUBLE, AS_SINGLE})


@dataclass(frozen=True)
class Wager:
    code: str
    label: str
    numbers: int  # how many pockets win
    minimum: tuple[int, int]  # "X to Y"
    citation: str  # where the minimum odds are
    wheels: frozenset[str] = ALL_WHEELS
    wheels_citation: str | None = None
    even_money: bool = False  # red, black, odd, even, 1–18, 19–36: lost (or half lost) on 0 and 00
    optional: bool = False  # offered only when the Rules Submission says so


@dataclass(frozen=True)
class Paytable:
    """A side wager's published choices: pick one (paytables) or include all (payout lists)."""

    citation: str
    choices: tuple = ()
    include_all: frozenset[int] = field(default_factory=frozenset)
    wheels: frozenset[str] = ALL_WHEELS
    wheels_citation: str | None = None


def standard_wagers(*, payout_citation: str, first_five_citation: str) -> dict[str, Wager]:
    """The table the three texts share, word for word in its odds (58 Pa. Code § 617a.4(a);
    N.J.A.C. 19:47-5.2(a); Section 4(b)(1)), cited to the jurisdiction's own section."""
    wagers = (
        Wager("straight", "Straight", 1, (35, 1), payout_citation),
        Wager("split", "Split", 2, (17, 1), payout_citation),
        Wager("three_numbers", "Three Numbers", 3, (11, 1), payout_citation),
        Wager("four_numbers", "Four Numbers", 4, (8, 1), payout_citation),
        # 0, 00, 1, 2 and 3: only a double-zero layout has it.
        Wager(
            "first_five",
            "First Five Numbers",
            5,
            (6, 1),
            payout_citation,
            wheels=frozenset({DOUBLE}),
            wheels_citation=first_five_citation,
        ),
        Wager("six_numbers", "Six Numbers", 6, (5, 1), payout_citation),
        Wager("column", "Column", 12, (2, 1), payout_citation),
        Wager("dozen", "Dozen", 12, (2, 1), payout_citation),
        *(
            Wager(code, label, 18, (1, 1), payout_citation, even_money=True)
            for code, label in (
                ("red", "Red"),
                ("black", "Black"),
                ("odd", "Odd"),
                ("even", "Even"),
                ("low", "1 to 18"),
                ("high", "19 to 36"),
            )
        ),
    )
    return {w.code: w for w in wagers}


def double_zero_loss_chosen(*, wheel_types: list[str], options: dict, citation: str) -> list[Violation]:
    """Where the text lets the casino choose half or all lost on 0 and 00, the submission says which."""
    if DOUBLE in wheel_types and options.get("double_zero_loss") not in ("half", "all"):
        return [
            Violation(
                "double_zero_loss_required",
                "On a double-zero wheel, say whether even-money wagers lose half or all on 0 and 00.",
                citation,
                "options.double_zero_loss",
            )
        ]
    return []


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


# No published payout comes near these: anything larger is a typing mistake (and would overflow).
MAX_ODDS_TO, MAX_ODDS_PER = 100_000, 1_000


def _odds(value) -> tuple[int, int] | None:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
        and 0 < value[0] <= MAX_ODDS_TO
        and 0 < value[1] <= MAX_ODDS_PER
    ):
        return int(value[0]), int(value[1])
    return None


def _offer(*, wagers: dict, code: str, value, game: str, rules, citation: str):
    """(wager, odds, None), or the violation that stops the wager being checked further."""
    wager = wagers.get(code)
    if wager is None:
        return (
            None,
            None,
            Violation(
                "wager_not_in_jurisdiction",
                f"“{code}” is not a {game} wager of {rules.NAME}.",
                citation,
                f"payout_odds.{code}",
            ),
        )
    odds = _odds(value)
    if odds is None:
        return (
            wager,
            None,
            Violation(
                "odds_format", f"Give the odds of {wager.label} as [X, Y] for “X to Y”.", None, f"payout_odds.{code}"
            ),
        )
    return wager, odds, None


def _below_minimum(*, wager: Wager, odds: tuple[int, int], minimum: tuple[int, int], citation: str, code: str):
    if Fraction(*odds) < Fraction(*minimum):
        return Violation(
            "odds_below_minimum",
            f"{wager.label} pays at least {minimum[0]} to {minimum[1]}; {odds[0]} to {odds[1]} was given.",
            citation,
            f"payout_odds.{code}",
        )
    return None


def check_roulette_submission(rules, *, wheel_types: list[str], payout_odds: dict, options: dict) -> list[Violation]:
    """Every violation of a Roulette Rules Submission at once, each with its citation."""
    violations: list[Violation] = []
    wagers = rules.WAGERS
    lightning = "lightning_payouts" in rules.OPTIONS and bool(options.get("lightning_payouts"))
    for code, value in payout_odds.items():
        wager, odds, problem = _offer(
            wagers=wagers, code=code, value=value, game="Roulette", rules=rules, citation=rules.WAGERS_CITATION
        )
        if problem:
            violations.append(problem)
            continue
        minimum, citation = wager.minimum, wager.citation
        if code == "straight" and lightning:
            minimum, citation = rules.LIGHTNING_STRAIGHT, rules.LIGHTNING_STRAIGHT_CITATION
            if Fraction(*odds) != Fraction(*minimum):
                violations.append(
                    Violation(
                        "lightning_straight_odds",
                        f"With Lightning Roulette a straight wager not on a Lucky Number is paid {minimum[0]} to {minimum[1]}.",
                        citation,
                        f"payout_odds.{code}",
                    )
                )
            continue
        violations.append(_below_minimum(wager=wager, odds=odds, minimum=minimum, citation=citation, code=code))
        wrong_wheels = sorted(set(wheel_types) - wager.wheels)
        if wrong_wheels:
            violations.append(
                Violation(
                    "wager_wheel_type",
                    f"{wager.label} is not offered on a {', '.join(w.replace('_', ' ') for w in wrong_wheels)} wheel.",
                    wager.wheels_citation or wager.citation,
                    f"payout_odds.{code}",
                )
            )
    violations.extend(rules.exclusivity(offered=set(payout_odds)))
    violations.extend(_check_options(rules, wheel_types=wheel_types, options=options))
    return [v for v in violations if v is not None]


def _check_options(rules, *, wheel_types: list[str], options: dict) -> list[Violation]:
    violations: list[Violation] = []
    known = rules.OPTIONS
    for name, value in options.items():
        if value in (None, False, [], ""):
            continue
        if name not in known:
            violations.append(
                Violation(
                    "option_not_in_jurisdiction",
                    f"“{name}” is not an option {rules.NAME} allows.",
                    rules.WAGERS_CITATION,
                    f"options.{name}",
                )
            )
            continue
        rule = known[name]
        if isinstance(rule, Paytable):
            if rule.include_all:
                given = set(value) if isinstance(value, list) and all(isinstance(v, int) for v in value) else None
                if given != set(rule.include_all):
                    listed = ", ".join(f"{v} to 1" for v in sorted(rule.include_all, reverse=True))
                    missing = sorted(set(rule.include_all) - (given or set()), reverse=True)
                    violations.append(
                        Violation(
                            "payouts_incomplete",
                            f"All of the possible payouts are included, and no others: {listed}"
                            + (f" (missing: {', '.join(f'{v} to 1' for v in missing)})." if missing else "."),
                            rule.citation,
                            f"options.{name}",
                        )
                    )
            elif value not in rule.choices:
                violations.append(
                    Violation(
                        "paytable_not_listed",
                        f"Choose one of the paytables the rule lists: {', '.join(map(str, rule.choices))}.",
                        rule.citation,
                        f"options.{name}",
                    )
                )
            wrong_wheels = sorted(set(wheel_types) - rule.wheels)
            if wrong_wheels:
                violations.append(
                    Violation(
                        "option_wheel_type",
                        f"“{name}” is not played on a {', '.join(w.replace('_', ' ') for w in wrong_wheels)} wheel.",
                        rule.wheels_citation or rule.citation,
                        f"options.{name}",
                    )
                )
        elif isinstance(rule, tuple):  # (allowed values, citation)
            allowed, citation = rule
            if value not in allowed:
                violations.append(
                    Violation(
                        "option_value",
                        f"“{name}” is one of {', '.join(json.dumps(v) for v in allowed)}.",
                        citation,
                        f"options.{name}",
                    )
                )
    violations.extend(rules.required_options(wheel_types=wheel_types, options=options))
    return violations


def house_edges(*, game_rules, wheel_types: list[str], payout_odds: dict, options: dict) -> dict[str, dict[str, float]]:
    """Wager code → wheel type → house edge in percent (4 decimals), for what is well formed."""
    loss = options.get("double_zero_loss") or "all"
    edges: dict[str, dict[str, float]] = {}
    for code, value in payout_odds.items():
        wager, odds = game_rules.WAGERS.get(code), _odds(value)
        if wager is None or odds is None:
            continue
        edges[code] = {
            wheel: round(float(house_edge(wager=wager, odds=odds, wheel_type=wheel, double_zero_loss=loss)) * 100, 4)
            for wheel in wheel_types
            if wheel in wager.wheels
        }
    return edges


# ---- Big Six ----

BIG_SIX_SECTIONS = 54


def big_six_wagers(*, payout_citation: str, flag_label: str = "Flag") -> dict[str, Wager]:
    """The symbols, how many of the 54 sections carry each (58 Pa. Code § 619a.1(a)), and the
    minimum odds the three texts share (§ 619a.3; N.J.A.C. 19:47-5.5(a); Section 4(e)(1))."""
    wagers = (
        Wager("big_six_1", "$1 symbol", 23, (1, 1), payout_citation),
        Wager("big_six_2", "$2 symbol", 15, (2, 1), payout_citation),
        Wager("big_six_5", "$5 symbol", 8, (5, 1), payout_citation),
        Wager("big_six_10", "$10 symbol", 4, (10, 1), payout_citation),
        Wager("big_six_20", "$20 symbol", 2, (20, 1), payout_citation),
        Wager("joker", "Joker", 1, (45, 1), payout_citation),
        Wager("flag", flag_label, 1, (45, 1), payout_citation),
    )
    return {w.code: w for w in wagers}


def big_six_house_edge(*, wager: Wager, odds: tuple[int, int]) -> Fraction:
    """A void spin is respun and a between-sections stop takes the section passed: either way each
    section is equally likely, so the edge is the sections' count against the payout."""
    return 1 - Fraction(wager.numbers) * (Fraction(*odds) + 1) / BIG_SIX_SECTIONS


def big_six_house_edges(*, game_rules, payout_odds: dict) -> dict[str, dict[str, float]]:
    edges = {}
    for code, value in payout_odds.items():
        wager, odds = game_rules.BIG_SIX_WAGERS.get(code), _odds(value)
        if wager is not None and odds is not None:
            edges[code] = {"big_six": round(float(big_six_house_edge(wager=wager, odds=odds)) * 100, 4)}
    return edges


def check_big_six_submission(rules, *, payout_odds: dict, options: dict) -> list[Violation]:
    violations: list[Violation] = []
    for code, value in payout_odds.items():
        wager, odds, problem = _offer(
            wagers=rules.BIG_SIX_WAGERS,
            code=code,
            value=value,
            game="Big Six",
            rules=rules,
            citation=rules.BIG_SIX_CITATION,
        )
        violations.append(
            problem or _below_minimum(wager=wager, odds=odds, minimum=wager.minimum, citation=wager.citation, code=code)
        )
    allowed, citation = rules.BIG_SIX_CLAPPER
    chosen = options.get("big_six_clapper_between")
    if chosen not in allowed and not (chosen is None and len(allowed) == 1):
        violations.append(
            Violation(
                "clapper_option",
                "When the clapper stops between two sections, big_six_clapper_between is "
                + " or ".join(json.dumps(v) for v in allowed)
                + " here.",
                citation,
                "options.big_six_clapper_between",
            )
        )
    for name in options:
        if name != "big_six_clapper_between" and options[name] not in (None, False, [], ""):
            violations.append(
                Violation(
                    "option_not_in_jurisdiction",
                    f"“{name}” is not a Big Six option.",
                    rules.BIG_SIX_CITATION,
                    f"options.{name}",
                )
            )
    return [v for v in violations if v is not None]
