"""Roulette's wagers and payout odds in a Rules Submission (58 Pa. Code § 617a.3, § 617a.4;
N.J.A.C. 19:47-5.1, 5.2; Section 4(a), (b)), checked against a jurisdiction's wagers and options."""

from __future__ import annotations

import json
from fractions import Fraction

from compliance.rulebook.catalogue import violation
from compliance.rulebook.games.side_wagers import check_paytable, straight_as_fixed, straight_fixed
from compliance.rulebook.jurisdiction import GameRules
from compliance.rulebook.violations import Odds, Violation, gettext_noop
from compliance.rulebook.wagers import DOUBLE, Option, Paytable, Wager, house_edge, odds_given, wheels_listed

# An option left out: not chosen.
NOT_CHOSEN: tuple[object, ...] = (None, False, [], "")


def offer(
    *, wagers: dict[str, Wager], code: str, value: object, game: str, rules: GameRules, citation: str
) -> tuple[Wager | None, tuple[int, int] | None, Violation | None]:
    """(wager, odds, None), or the violation that stops the wager being checked further."""
    wager = wagers.get(code)
    field = f"payout_odds.{code}"
    if wager is None:
        return (
            None,
            None,
            violation(
                "wager_not_in_jurisdiction",
                field=field,
                citation=citation,
                wager=code,
                game=game,
                jurisdiction=rules.NAME,
            ),
        )
    odds = odds_given(value)
    if odds is None:
        return wager, None, violation("odds_format", field=field, wager=wager.label)
    return wager, odds, None


def below_minimum(
    *, wager: Wager, odds: tuple[int, int], minimum: tuple[int, int], citation: str, code: str
) -> Violation | None:
    if Fraction(*odds) < Fraction(*minimum):
        return violation(
            "odds_below_minimum",
            field=f"payout_odds.{code}",
            citation=citation,
            wager=wager.label,
            minimum=Odds(*minimum),
            given=Odds(*odds),
        )
    return None


def check_roulette_submission(
    rules: GameRules, *, wheel_types: list[str], payout_odds: dict[str, object], options: dict[str, object]
) -> list[Violation]:
    """Every violation of a Roulette Rules Submission at once, each with its citation."""
    violations: list[Violation | None] = []
    fixed = straight_fixed(rules.OPTIONS, options)
    for code, value in payout_odds.items():
        wager, odds, problem = offer(
            wagers=rules.WAGERS,
            code=code,
            value=value,
            game=gettext_noop("Roulette"),
            rules=rules,
            citation=rules.WAGERS_CITATION,
        )
        if problem or wager is None or odds is None:
            violations.append(problem)
            continue
        if code == "straight" and fixed is not None:
            violations.append(
                straight_as_fixed(odds=odds, fixed=fixed[0], citation=fixed[1], field=f"payout_odds.{code}")
            )
            continue
        violations.append(
            below_minimum(wager=wager, odds=odds, minimum=wager.minimum, citation=wager.citation, code=code)
        )
        wrong_wheels = sorted(set(wheel_types) - wager.wheels)
        if wrong_wheels:
            violations.append(
                violation(
                    "wager_wheel_type",
                    field=f"payout_odds.{code}",
                    citation=wager.wheels_citation or wager.citation,
                    wager=wager.label,
                    wheels=wheels_listed(wrong_wheels),
                )
            )
    violations.append(lightning_needs_straight(known=rules.OPTIONS, payout_odds=payout_odds, options=options))
    violations.extend(rules.exclusivity(offered=set(payout_odds)))
    violations.extend(check_options(rules, wheel_types=wheel_types, options=options))
    return [v for v in violations if v is not None]


def check_options(rules: GameRules, *, wheel_types: list[str], options: dict[str, object]) -> list[Violation]:
    """The options chosen: each one the jurisdiction has, with a value it allows."""
    violations: list[Violation] = []
    for name, value in options.items():
        if value in NOT_CHOSEN:
            continue
        field = f"options.{name}"
        rule = rules.OPTIONS.get(name)
        if rule is None:
            violations.append(
                violation(
                    "option_not_in_jurisdiction",
                    field=field,
                    # The paragraph that says there is no such option, where the text has one (§ 617a.4(b)).
                    citation=rules.OPTIONS_REFUSED.get(name, rules.WAGERS_CITATION),
                    option=name,
                    jurisdiction=rules.NAME,
                )
            )
        elif isinstance(rule, Paytable):
            violations.extend(check_paytable(rule, name=name, value=value, wheel_types=wheel_types))
        else:  # (allowed values, citation)
            allowed, citation = rule
            if value not in allowed:
                violations.append(
                    violation(
                        "option_value",
                        field=field,
                        citation=citation,
                        option=name,
                        values=", ".join(json.dumps(v) for v in allowed),
                    )
                )
    violations.extend(rules.required_options(wheel_types=wheel_types, options=options))
    return violations


def double_zero_loss_chosen(*, wheel_types: list[str], options: dict[str, object], citation: str) -> list[Violation]:
    """Where the text lets the casino choose half or all lost on 0 and 00, the submission says which."""
    if DOUBLE in wheel_types and options.get("double_zero_loss") not in ("half", "all"):
        return [violation("double_zero_loss_required", field="options.double_zero_loss", citation=citation)]
    return []


LIGHTNING_EDGE_NOTE = (
    "Not determinable from the text: with Lightning Roulette a winning straight wager is paid 29 to 1, "
    "or the payout the random number generator draws when its number is a Lucky Number (58 Pa. Code "
    "§ 617c.3(b), (f), (g)); the text sets neither how many Lucky Numbers are drawn nor how often each "
    "payout is."
)


def house_edge_notes(
    *, game_rules: GameRules, payout_odds: dict[str, object], options: dict[str, object]
) -> dict[str, str]:
    """Wager code → why its house edge is not shown (house_edges answers None for it).

    § 617c.3(f): under Lightning Roulette a straight wager not on a Lucky Number is paid 29 to 1, and
    one on a Lucky Number the random number generator's payout (§ 617c.3(b), (g)). The edge depends on
    the generator's draws, which the text does not state, so it is not computed from a flat 29 to 1."""
    if "straight" in payout_odds and straight_fixed(game_rules.OPTIONS, options) is not None:
        return {"straight": LIGHTNING_EDGE_NOTE}
    return {}


def house_edges(
    *, game_rules: GameRules, wheel_types: list[str], payout_odds: dict[str, object], options: dict[str, object]
) -> dict[str, dict[str, float | None]]:
    """Wager code → wheel type → house edge in percent (4 decimals), for what is well formed; None
    where the text does not determine it (house_edge_notes says why)."""
    loss = str(options.get("double_zero_loss") or "all")
    undetermined = house_edge_notes(game_rules=game_rules, payout_odds=payout_odds, options=options)
    edges: dict[str, dict[str, float | None]] = {}
    for code, value in payout_odds.items():
        wager, odds = game_rules.WAGERS.get(code), odds_given(value)
        if wager is None or odds is None:
            continue
        edges[code] = {
            wheel: None
            if code in undetermined
            else round(float(house_edge(wager=wager, odds=odds, wheel_type=wheel, double_zero_loss=loss)) * 100, 4)
            for wheel in wheel_types
            if wheel in wager.wheels
        }
    return edges


def lightning_needs_straight(
    *, known: dict[str, Option], payout_odds: dict[str, object], options: dict[str, object]
) -> Violation | None:
    """§ 617c.3(a), (f): Lightning Roulette is a variation of the straight wager (a player "who placed
    and wins a straight wager" may win more): a Rules Submission that offers it offers the straight."""
    if "straight" not in payout_odds and straight_fixed(known, options) is not None:
        return violation("lightning_without_straight", field="payout_odds.straight")
    return None
