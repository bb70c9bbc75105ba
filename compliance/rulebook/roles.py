"""The product's role policy where the regulations are silent (docs/architecture.md: People)."""

from compliance.rulebook.vocabulary import Role

# Whose requests may write to the logbook at all; each signer is then checked by the rule itself.
LOGBOOK_WRITER_ROLES = frozenset({Role.SECURITY, Role.FLOORPERSON, Role.MAINTENANCE, Role.COMPLIANCE})
# Besides the people who signed it, who may amend an entry.
AMENDER_ROLES = frozenset({Role.COMPLIANCE})
# The roles a compliance manager may give to the people of their property.
STAFF_ROLES = frozenset({Role.SECURITY, Role.FLOORPERSON, Role.MAINTENANCE, Role.COMPLIANCE})
# Who files a Rules Submission or layout with the Board, and who decides on it.
FILER_ROLES = frozenset({Role.COMPLIANCE})
APPROVER_ROLES = frozenset({Role.REGULATOR})
# Who resolves a flag of the overdue scan by hand, with a signed note (docs/architecture.md: The flag kinds).
FLAG_RESOLVER_ROLES = frozenset({Role.COMPLIANCE})
# Who asks for and downloads the audit reports of a property (docs/architecture.md: Reports): its compliance
# manager, and the regulators of its jurisdiction.
REPORT_ROLES = frozenset({Role.COMPLIANCE, Role.REGULATOR})
