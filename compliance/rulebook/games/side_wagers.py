"""Roulette's side wagers chosen in a Rules Submission by paytable: Touchdown Roulette (58 Pa. Code
§ 617a.4(d)), and Chapter 617c: B2B Roulette (§ 617c.1(e)), Blazing 7's (§ 617c.2(j)) and
Lightning Roulette (§ 617c.3)."""

from __future__ import annotations

from fractions import Fraction

from compliance.rulebook.catalogue import violation
from compliance.rulebook.violations import Odds, Violation
from compliance.rulebook.wagers import Option, Paytable, wheels_listed
from compliance.rulebook.words import option_label


def check_paytable(rule: Paytable, *, name: str, value: object, wheel_types: list[str]) -> list[Violation]:
    """One of the listed paytables, or every listed payout and no other; on the wheels it is played on."""
    violations = []
    field = f"options.{name}"
    if rule.include_all:
        given = set(value) if isinstance(value, list) and all(isinstance(v, int) for v in value) else None
        if given != set(rule.include_all):
            listed = ", ".join(f"{v} to 1" for v in sorted(rule.include_all, reverse=True))
            missing = sorted(set(rule.include_all) - (given or set()), reverse=True)
            if missing:
                violations.append(
                    violation(
                        "payouts_incomplete/missing",
                        field=field,
                        citation=rule.citation,
                        listed=listed,
                        missing=", ".join(f"{v} to 1" for v in missing),
                    )
                )
            else:
                violations.append(violation("payouts_incomplete", field=field, citation=rule.citation, listed=listed))
    elif value not in rule.choices:
        violations.append(
            violation(
                "paytable_not_listed",
                field=field,
                citation=rule.citation,
                choices=", ".join(map(str, rule.choices)),
            )
        )
    wrong_wheels = sorted(set(wheel_types) - rule.wheels)
    if wrong_wheels:
        violations.append(
            violation(
                "option_wheel_type",
                field=field,
                citation=rule.wheels_citation or rule.citation,
                option=option_label(name),
                wheels=wheels_listed(wrong_wheels),
            )
        )
    return violations


def straight_fixed(known: dict[str, Option], options: dict[str, object]) -> tuple[tuple[int, int], str] | None:
    """§ 617c.3(f): with Lightning Roulette chosen, a straight wager not on a Lucky Number is paid
    exactly its paytable's odds: (the odds, the citation), or None when no chosen option fixes them."""
    for name, rule in known.items():
        if isinstance(rule, Paytable) and rule.straight is not None and bool(options.get(name)):
            return rule.straight, rule.straight_citation or rule.citation
    return None


def straight_as_fixed(*, odds: tuple[int, int], fixed: tuple[int, int], citation: str, field: str) -> Violation | None:
    if Fraction(*odds) != Fraction(*fixed):
        return violation("lightning_straight_odds", field=field, citation=citation, odds=Odds(*fixed))
    return None
