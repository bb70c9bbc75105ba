"""The law as code: one module per jurisdiction, every rule carrying its citation.

No other module of the project holds a citation, a role list or a minimum.
"""

from types import ModuleType

from compliance.casinos.models import Jurisdiction
from compliance.rulebook import nj, pa, s4
from compliance.rulebook.base import RuleViolation, Violation, raise_if_any

# The New Jersey (N.J.A.C. 19:47-5) and Section 4 texts set no wheel inspection procedure, so
# their properties keep the logbook by Pennsylvania's § 617a.2, and refusals cite it as such.
LOGBOOK_PROCEDURE: dict[str, ModuleType] = {
    Jurisdiction.PA: pa,
    Jurisdiction.NJ: pa,
    Jurisdiction.S4: pa,
}


# The wagers, payout odds and Rules Submission options: each jurisdiction's own text.
GAME_RULES: dict[str, ModuleType] = {
    Jurisdiction.PA: pa,
    Jurisdiction.NJ: nj,
    Jurisdiction.S4: s4,
}


def rulebook_for(jurisdiction: str) -> ModuleType:
    return LOGBOOK_PROCEDURE[jurisdiction]


def game_rules_for(jurisdiction: str) -> ModuleType:
    return GAME_RULES[jurisdiction]


__all__ = ["RuleViolation", "Violation", "game_rules_for", "malformed", "raise_if_any", "rulebook_for"]


# Every wager code and option name any jurisdiction of the rulebook knows (API.md's vocabulary).
KNOWN_WAGERS = frozenset(
    code
    for module in (pa, nj, s4)
    for code in (*module.WAGERS, *module.BIG_SIX_WAGERS, *getattr(module, "CASINO_WAR_PAYOUTS", {}))
)
KNOWN_OPTIONS = frozenset(
    {name for module in (pa, nj, s4) for name in module.OPTIONS}
    | {"big_six_clapper_between", "casino_war_adjacent_boxes", "casino_war_decks", "automated_shuffler"}
)
# Answers that mean the request itself is malformed rather than the rules broken.
MALFORMED = frozenset({"odds_format", "wheel_type_unknown", "paytable_not_listed", "option_value"})


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
            found.append(
                Violation(
                    "wager_unknown", f"“{name}” is not a wager code: see the API's documentation.", v.citation, v.field
                )
            )
        elif v.code == "option_not_in_jurisdiction" and name not in KNOWN_OPTIONS:
            found.append(
                Violation(
                    "option_unknown", f"“{name}” is not an option: see the API's documentation.", v.citation, v.field
                )
            )
    return found
