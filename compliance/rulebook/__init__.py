"""The law as code, pure Python: every rule carrying its citation, laid out as the Code is.

procedure.py (§ 617a.2), equipment.py (§ 617a.1), approvals.py (§ 601a.2 and the layouts),
games/ (Roulette, side wagers, Big Six, Casino War), each jurisdiction's facts in jurisdictions/,
every violation's message and citation in catalogue.py. No other module of the project holds a
citation, a role list or a minimum; this package imports nothing of the project or of Django.
"""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.games.casino_war import OPTIONS as CASINO_WAR_OPTIONS
from compliance.rulebook.jurisdiction import GameRules
from compliance.rulebook.jurisdictions import new_jersey as nj
from compliance.rulebook.jurisdictions import section_4 as s4
from compliance.rulebook.rulebooks import (
    NewJersey,
    NewJerseyWithoutProcedure,
    Pennsylvania,
    Section4,
    Section4WithoutProcedure,
)
from compliance.rulebook.violations import LimitReached, RuleViolation, Violation, raise_if_any
from compliance.rulebook.vocabulary import Jurisdiction as Code
from compliance.rulebook.vocabulary import Procedure

# A jurisdiction's rulebook: Pennsylvania's class is the interface every rulebook has.
Jurisdiction = Pennsylvania

pa = Pennsylvania()

# The New Jersey (N.J.A.C. 19:47-5) and Section 4 texts set no wheel inspection procedure, so
# their properties keep the logbook by Pennsylvania's § 617a.2, applied by policy: each refusal
# cites the jurisdiction's own paragraph where it has one, else Pennsylvania's "(applied by
# policy: … sets no procedure)" (rulebooks.Borrowing.borrowed; docs/readings.md).
LOGBOOK_PROCEDURE: dict[str, Jurisdiction] = {
    Code.PA: pa,
    Code.NJ: NewJersey(),
    Code.S4: Section4(),
}

# The wagers, payout odds and Rules Submission options: each jurisdiction's own text.
GAME_RULES: dict[str, GameRules] = {
    Code.PA: pa,
    Code.NJ: nj,
    Code.S4: s4,
}


# A New Jersey or Section 4 property may keep no inspection procedure (Property.procedure):
# its rulebook then requires no inspection before opening and runs no § 617a.2 deadline.
WITHOUT_PROCEDURE: dict[str, Jurisdiction] = {
    Code.NJ: NewJerseyWithoutProcedure(),
    Code.S4: Section4WithoutProcedure(),
}


def rulebook_for(jurisdiction: str, procedure: str = Procedure.KEPT) -> Jurisdiction:
    """The jurisdiction's rulebook, for a property that keeps the § 617a.2 procedure (`kept`) or,
    where its text sets none, not (`none`): Pennsylvania's property always keeps it."""
    if procedure == Procedure.NONE and jurisdiction in WITHOUT_PROCEDURE:
        return WITHOUT_PROCEDURE[jurisdiction]
    return LOGBOOK_PROCEDURE[jurisdiction]


def game_rules_for(jurisdiction: str) -> GameRules:
    return GAME_RULES[jurisdiction]


__all__ = [
    "GameRules",
    "Jurisdiction",
    "LimitReached",
    "RuleViolation",
    "Violation",
    "game_rules_for",
    "malformed",
    "nj",
    "pa",
    "raise_if_any",
    "rulebook_for",
    "s4",
]


# Every wager code and option name any jurisdiction of the rulebook knows (the API's vocabulary).
KNOWN_WAGERS = frozenset(
    code
    for rules in GAME_RULES.values()
    for code in (*rules.WAGERS, *rules.BIG_SIX_WAGERS, *(rules.CASINO_WAR_PAYOUTS or {}))
)
KNOWN_OPTIONS = frozenset(
    {name for rules in GAME_RULES.values() for name in rules.OPTIONS}
    | {"big_six_clapper_between", "big_six_odds_wording"}
    | CASINO_WAR_OPTIONS
)
# Answers that mean the request itself is malformed rather than the rules broken.
MALFORMED = frozenset(
    {
        "odds_format",
        "wheel_type_unknown",
        "paytable_not_listed",
        "option_value",
        "configurations_format",
        "configurations_too_many",
        "configuration_key",
        "configuration_key_taken",
        "configuration_name",
        "configuration_field_unknown",
        "configuration_missing",
    }
)


def malformed(violations: list[Violation]) -> list[Violation]:
    """The violations a draft is not saved with: a 400, because no Rules Submission could mean them.

    A wager or option the jurisdiction lacks but another has stays a violation of the saved draft;
    one that no jurisdiction has is a typing mistake.
    """
    found = []
    for v in violations:
        name = (v.field or "").split(".", 1)[-1]
        if v.code in MALFORMED:
            found.append(v)
        elif v.code == "wager_not_in_jurisdiction" and name not in KNOWN_WAGERS:
            found.append(violation("wager_unknown", field=v.field, citation=v.citation, wager=name))
        elif v.code == "option_not_in_jurisdiction" and name not in KNOWN_OPTIONS:
            found.append(violation("option_unknown", field=v.field, citation=v.citation, option=name))
    return found
