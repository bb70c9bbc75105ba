"""The law as code: one module per jurisdiction, every rule carrying its citation.

No other module of the project holds a citation, a role list or a minimum.
"""

from types import ModuleType

from compliance.models import Jurisdiction
from compliance.rulebook import pa
from compliance.rulebook.base import RuleViolation, Violation, raise_if_any

# The New Jersey (N.J.A.C. 19:47-5) and Section 4 texts set no wheel inspection procedure, so
# their properties keep the logbook by Pennsylvania's § 617a.2, and refusals cite it as such.
LOGBOOK_PROCEDURE: dict[str, ModuleType] = {
    Jurisdiction.PA: pa,
    Jurisdiction.NJ: pa,
    Jurisdiction.S4: pa,
}


def rulebook_for(jurisdiction: str) -> ModuleType:
    return LOGBOOK_PROCEDURE[jurisdiction]


__all__ = ["RuleViolation", "Violation", "raise_if_any", "rulebook_for"]
