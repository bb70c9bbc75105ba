"""The Big Six Wheel in a Rules Submission (58 Pa. Code Chapter 619a, from the 2011 text;
N.J.A.C. 19:47-5.5, 5.6; Section 4(e), (f)): the symbols' odds and the clapper's choice."""

from __future__ import annotations

import json

from compliance.rulebook.catalogue import violation
from compliance.rulebook.games.roulette import NOT_CHOSEN, below_minimum, offer
from compliance.rulebook.jurisdiction import GameRules
from compliance.rulebook.violations import Violation, gettext_noop
from compliance.rulebook.wagers import big_six_house_edge, odds_given

__all__ = ["big_six_house_edge", "big_six_house_edges", "check_big_six_submission"]


def big_six_house_edges(*, game_rules: GameRules, payout_odds: dict[str, object]) -> dict[str, dict[str, float]]:
    edges = {}
    for code, value in payout_odds.items():
        wager, odds = game_rules.BIG_SIX_WAGERS.get(code), odds_given(value)
        if wager is not None and odds is not None:
            edges[code] = {"big_six": round(float(big_six_house_edge(wager=wager, odds=odds)) * 100, 4)}
    return edges


def check_big_six_submission(
    rules: GameRules, *, payout_odds: dict[str, object], options: dict[str, object]
) -> list[Violation]:
    violations: list[Violation | None] = []
    for code, value in payout_odds.items():
        wager, odds, problem = offer(
            wagers=rules.BIG_SIX_WAGERS,
            code=code,
            value=value,
            game=gettext_noop("Big Six"),
            rules=rules,
            citation=rules.BIG_SIX_CITATION,
        )
        if problem or wager is None or odds is None:
            violations.append(problem)
        else:
            violations.append(
                below_minimum(wager=wager, odds=odds, minimum=wager.minimum, citation=wager.citation, code=code)
            )
    allowed, citation = rules.BIG_SIX_CLAPPER
    chosen = options.get("big_six_clapper_between")
    if chosen not in allowed and not (chosen is None and len(allowed) == 1):
        violations.append(
            violation(
                "clapper_option",
                field="options.big_six_clapper_between",
                citation=citation,
                choices=" or ".join(json.dumps(v) for v in allowed),
            )
        )
    # N.J.A.C. 19:47-5.5(b), Section 4(e)(2): the odds are stated with "to" or "win", never "for".
    wording = rules.BIG_SIX_ODDS_WORDING
    if wording is not None and options.get("big_six_odds_wording") not in (*wording[0], *NOT_CHOSEN):
        violations.append(
            violation(
                "big_six_odds_wording",
                field="options.big_six_odds_wording",
                citation=wording[1],
                choices=" or ".join(json.dumps(v) for v in wording[0]),
            )
        )
    own = {"big_six_clapper_between", *(("big_six_odds_wording",) if wording is not None else ())}
    for name in options:
        if name not in own and options[name] not in NOT_CHOSEN:
            violations.append(
                violation(
                    "option_not_in_jurisdiction/big_six",
                    field=f"options.{name}",
                    citation=rules.BIG_SIX_CITATION,
                    option=name,
                )
            )
    return [v for v in violations if v is not None]
