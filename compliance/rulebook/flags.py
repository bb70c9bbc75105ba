"""What the overdue scan flags (docs/architecture.md: The flag kinds): one registry of the kinds, each with its code, its
label, its citation and the table's column holding the deadline it watches; and who acknowledges
a flag with a signed note (a flag closes only with the logbook entry that ends its condition).

The scan (inspections.flags.services), the deadlines the logbook keeps (inspections.logbook.deadlines),
the table's indexes (compliance.casinos.models.TABLE_DEADLINES), the flag's choice of kinds
(inspections.flags.models) and the scan's benchmark (bench/scan.py) read their kinds and columns here.
"""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.facts import FlagKind
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.roles import FLAG_RESOLVER_ROLES
from compliance.rulebook.subjects import Flag, Person
from compliance.rulebook.violations import Violation, gettext_noop

FLAG_KINDS = (
    FlagKind(
        "opened_uninspected",
        gettext_noop("Open without a valid inspection"),
        pa.INSPECTION,
        "uninspected_since",
        ahead=False,
    ),
    FlagKind(
        "adjusted_after_inspection",
        gettext_noop("Adjusted after the inspection, still open"),
        pa.ADJUSTMENTS_BEFORE_INSPECTION,
        "adjusted_since",
        ahead=False,
    ),
    FlagKind(
        "replaced_without_inspection",
        gettext_noop("Part replaced, not inspected before play went on"),
        pa.REPLACEMENT,
        "replaced_since",
        ahead=False,
    ),
    FlagKind(
        "not_covered",
        gettext_noop("Wheel not covered and locked within the grace period while the table was not open"),
        pa.COVER_AND_LOCK,
        "cover_due_at",
    ),
    FlagKind(
        "inspection_stale",
        gettext_noop("Open on an inspection older than the property's interval"),
        pa.REINSPECTION_POLICY,
        "inspection_due_at",
    ),
    FlagKind(
        "decks_stale", gettext_noop("Casino War decks not changed within 24 hours"), pa.CASINO_WAR_DECKS, "decks_due_at"
    ),
    # Each game's layout is approved by its own paragraph: § 617a.1(f) (Roulette), § 619a.1(g) (Big
    # Six) and § 651a.2(b) (Casino War), each "shall be approved by the Bureau of Gaming Operations".
    FlagKind(
        "not_approved",
        gettext_noop("Open with a layout or Rules Submission that is not approved or no longer in effect"),
        f"{pa.LAYOUT_APPROVAL}; {pa.RULES_SUBMISSION}",
        "approval_due_at",
        by_game=tuple(
            (game, f"{layout}; {pa.RULES_SUBMISSION}") for game, layout in pa.LAYOUT_APPROVAL_BY_GAME.items()
        ),
    ),
)
FLAG_KINDS_BY_CODE = {kind.code: kind for kind in FLAG_KINDS}
# Flag kind → the table's deadline column; and the columns, in the registry's order.
DEADLINE_OF = {kind.code: kind.deadline for kind in FLAG_KINDS}
DEADLINE_COLUMNS = tuple(kind.deadline for kind in FLAG_KINDS)
# The deadlines still to come, the earliest of which is the table's next due (shown on the floor).
DUE_COLUMNS = tuple(kind.deadline for kind in FLAG_KINDS if kind.ahead)


def may_resolve_flag(flag: Flag, *, signer: Person, note: str) -> list[Violation | None]:
    """A compliance manager of the property acknowledges an open flag with a signed note saying why
    (Product policy: the note is recorded in the flag's history; the flag stays open until cured)."""
    violations: list[Violation | None] = []
    if flag.status != "open":
        violations.append(violation("flag_not_open", field=None, citation=flag.citation))
    if signer.role not in FLAG_RESOLVER_ROLES or signer.property_id != flag.property_id:
        violations.append(violation("resolver_role", field="signature", citation=flag.citation))
    if not note.strip():
        violations.append(violation("note_required", field="note", citation=flag.citation))
    return violations
