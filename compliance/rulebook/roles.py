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

# What a person may do, by role: each action of the product and the roles that may do it. The one
# place the views, the API's permissions and the templates ask, through `User.may(action)` and the
# `may` template filter (compliance.accounts.templatetags.people). It answers for the role only:
# whether the thing is this person's (their property, their jurisdiction) is the selectors' and the
# services' (`*_visible_to`, `restrict`), and each signer is checked by the rule itself. An
# administrator account (Django's superuser) counts as the administrator role.
MAY: dict[str, frozenset[Role]] = {
    # Record entries in the logbook (inspections, adjustments, table events, amendments).
    "logbook.write": LOGBOOK_WRITER_ROLES,
    # Change the configuration: a property's policy, its tables and equipment, its Rules Submissions
    # and layouts (drafts), through the API and the configuration pages.
    "tables.configure": frozenset({Role.COMPLIANCE, Role.ADMIN}),
    # Add and change the people of a property.
    "people.manage": frozenset({Role.COMPLIANCE, Role.ADMIN}),
    # File a Rules Submission or a layout with the Board, and decide on one.
    "approvals.file": FILER_ROLES,
    "approvals.decide": APPROVER_ROLES,
    # Acknowledge a flag of the overdue scan with a signed note (its name kept: the flag stays open until cured).
    "flags.resolve": FLAG_RESOLVER_ROLES,
    # Ask for and download the audit reports.
    "reports.request": REPORT_ROLES,
    # Lift a lock left by wrong passwords (sign-in or signature) from the floor, logged: an
    # administrator, and a security officer who is the property's security supervisor (SUPERVISOR_MAY).
    "lockouts.lift": frozenset({Role.ADMIN}),
    # Everything, properties created included (the Django admin site is Django's is_staff).
    "admin": frozenset({Role.ADMIN}),
}
# What a security officer marked as their property's security supervisor (a permission, not a role:
# they inspect and witness as the security department member they are) may do besides their role.
# Product policy: at 3 a.m. there is a supervisor on the floor and no administrator.
SUPERVISOR_MAY = frozenset({"lockouts.lift"})
