"""The law as code: one module per jurisdiction, every rule carrying its citation.

No other module of the project holds a citation, a role list or a minimum.
"""

from types import ModuleType

from compliance.models import Jurisdiction
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


__all__ = ["RuleViolation", "Violation", "game_rules_for", "raise_if_any", "rulebook_for"]
