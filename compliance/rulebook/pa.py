"""Pennsylvania, 58 Pa. Code Chapter 617a: the inspection and security procedures of § 617a.2.

Every rule here is a small function answering a Violation (with its citation) or None. The
logbook (inspections.services) calls them under the table's row lock and writes nothing when
any of them answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from compliance.models import Game, Role, TableState, WheelType
from compliance.rulebook.base import Violation
from compliance.rulebook.roles import AMENDER_ROLES

INSPECTION = "58 Pa. Code § 617a.2(a)"
ADJUSTMENT = "58 Pa. Code § 617a.2(b)"
ADJUSTMENTS_BEFORE_INSPECTION = "58 Pa. Code § 617a.2(c)"
REPLACEMENT = "58 Pa. Code § 617a.2(d)"
INSPECTION_LOG = "58 Pa. Code § 617a.2(e)"
COVER_AND_LOCK = "58 Pa. Code § 617a.2(f)"
DOUBLE_ZERO_AS_SINGLE_ZERO = "58 Pa. Code § 617a.1(e)"
WHEELS = "58 Pa. Code § 617a.1(c), (d)"
IRREGULARITIES = "58 Pa. Code § 617a.6"
CASINO_WAR_DECKS = "58 Pa. Code § 651a.3(d)"


@dataclass(frozen=True)
class ChecklistItem:
    code: str
    label: str
    citation: str


# § 617a.2(a)(1)–(5), in the order the regulation lists them.
CHECKLIST = (
    ChecklistItem(
        "ball_non_magnetic",
        "Ball passed over a magnet or compass: it is non-magnetic",
        "58 Pa. Code § 617a.2(a)(1)",
    ),
    ChecklistItem(
        "no_magnet_or_contrivance",
        "Table and wheel free of any magnet or contrivance affecting fair operation",
        "58 Pa. Code § 617a.2(a)(2)",
    ),
    ChecklistItem(
        "wheel_level_and_rotating",
        "Wheel level and rotating freely and evenly",
        "58 Pa. Code § 617a.2(a)(3)",
    ),
    ChecklistItem(
        "parts_secure",
        "All parts of the wheel secure and free from movement",
        "58 Pa. Code § 617a.2(a)(4)",
    ),
    ChecklistItem(
        "layout_and_signage_00",
        "00 area covered and the three § 617a.1(e) notices posted (double-zero wheel used as single-zero)",
        "58 Pa. Code § 617a.2(a)(5)",
    ),
)
CHECKLIST_BY_CODE = {item.code: item for item in CHECKLIST}

# § 617a.6(a)–(d): the reasons for a "no spin".
IRREGULARITY_KINDS = (
    ("same_direction", "ball spun in the same direction as the wheel (§ 617a.6(a))"),
    ("under_four_revolutions", "ball did not complete four revolutions (§ 617a.6(b))"),
    ("ball_left_wheel", "ball left the wheel during the spin (§ 617a.6(c))"),
    ("foreign_object", "a foreign object entered the wheel (§ 617a.6(d))"),
)

INSPECTOR_ROLES = frozenset({Role.FLOORPERSON, Role.SECURITY})  # § 617a.2(a)
ADJUSTER_ROLES = frozenset({Role.FLOORPERSON, Role.MAINTENANCE})  # § 617a.2(b)
WITNESS_ROLES = frozenset({Role.SECURITY})  # § 617a.2(b)
# Who records the other logbook events. § 617a.2 names no role for them; these are the floor
# roles DESIGN.md §2 gives them, cited to the subsection whose procedure they belong to.
EVENT_ROLES = {
    "unlock": (frozenset({Role.SECURITY, Role.FLOORPERSON}), COVER_AND_LOCK),
    "cover": (frozenset({Role.SECURITY, Role.FLOORPERSON}), COVER_AND_LOCK),
    "open": (frozenset({Role.SECURITY, Role.FLOORPERSON}), INSPECTION),
    "close": (frozenset({Role.SECURITY, Role.FLOORPERSON}), COVER_AND_LOCK),
    "irregularity": (frozenset({Role.SECURITY, Role.FLOORPERSON}), IRREGULARITIES),
    "deck_change": (frozenset({Role.SECURITY, Role.FLOORPERSON}), CASINO_WAR_DECKS),
}


def _names(roles) -> str:
    return " or ".join(sorted(Role(role).label.lower() for role in roles))


def checklist_for(table) -> tuple[ChecklistItem, ...]:
    """§ 617a.2(a): items (1)–(4) always; item (5) only for a double-zero wheel used as single-zero."""
    if table.wheel_type == WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO:
        return CHECKLIST
    return CHECKLIST[:4]


def table_configuration(
    *, game: str, wheel_type: str | None, has_external_movable_parts: bool
) -> list[Violation | None]:
    """§ 617a.1(c)–(e): a Roulette table has a single-zero or double-zero wheel; other games none."""
    if game == Game.ROULETTE and not wheel_type:
        return [
            Violation(
                "wheel_type_required",
                "A Roulette table has a single-zero or a double-zero wheel.",
                WHEELS,
                "wheel_type",
            )
        ]
    if game != Game.ROULETTE and (wheel_type or has_external_movable_parts):
        return [
            Violation(
                "wheel_type_not_applicable",
                "Only a Roulette table has a Roulette wheel (type and external movable parts).",
                WHEELS,
                "wheel_type",
            )
        ]
    return []


def signer_belongs_to_property(*, signer, table, field: str, citation: str) -> Violation | None:
    """The rules speak of the certificate holder's own floorpersons and departments."""
    if signer.property_id != table.property_id:
        return Violation(
            "signer_not_at_property",
            f"{signer.display_name} is not a member of the staff of {table.property.name}.",
            citation,
            field,
        )
    return None


def table_is_roulette(*, table, citation: str) -> Violation | None:
    if table.game != Game.ROULETTE:
        return Violation(
            "not_a_roulette_table",
            f"Table {table.number} is a {table.get_game_display()} table; this procedure is for Roulette.",
            citation,
            "table",
        )
    return None


def wheel_not_locked(*, table, action: str) -> Violation | None:
    """§ 617a.2(f): while the wheel is covered and locked nobody inspects or adjusts it."""
    if table.state == TableState.LOCKED:
        return Violation(
            "wheel_covered_and_locked",
            f"The wheel of table {table.number} is still covered and locked: unlock it before the {action}.",
            COVER_AND_LOCK,
            "table",
        )
    return None


def inspector_may_inspect(*, inspector, table) -> Violation | None:
    """§ 617a.2(a): only a floorperson or a member of the security department inspects."""
    if inspector.role not in INSPECTOR_ROLES:
        return Violation(
            "inspector_role",
            f"Only a {_names(INSPECTOR_ROLES)} may inspect a Roulette table; "
            f"{inspector.display_name} is a {inspector.get_role_display().lower()}.",
            INSPECTION,
            "signature",
        )
    return signer_belongs_to_property(signer=inspector, table=table, field="signature", citation=INSPECTION)


def checklist_complete(*, table, items: dict) -> list[Violation]:
    """§ 617a.2(a)(1)–(5): every applicable item answered, and no item that does not apply."""
    expected = {item.code for item in checklist_for(table)}
    violations = []
    for item in checklist_for(table):
        if item.code not in items:
            violations.append(
                Violation(
                    "checklist_item_missing", f"Answer the item “{item.label}”.", item.citation, f"items.{item.code}"
                )
            )
    for code in items:
        if code in expected:
            continue
        if code in CHECKLIST_BY_CODE:
            violations.append(
                Violation(
                    "checklist_item_not_applicable",
                    f"Item (5) applies only to a double-zero wheel used as a single-zero wheel; "
                    f"table {table.number} has a {table.get_wheel_type_display() or 'no'} wheel.",
                    DOUBLE_ZERO_AS_SINGLE_ZERO,
                    f"items.{code}",
                )
            )
        else:
            violations.append(
                Violation(
                    "checklist_item_unknown",
                    f"“{code}” is not an item of the § 617a.2(a) checklist.",
                    INSPECTION,
                    f"items.{code}",
                )
            )
    return violations


def check_inspection(*, table, inspector, items: dict) -> list[Violation | None]:
    return [
        table_is_roulette(table=table, citation=INSPECTION),
        inspector_may_inspect(inspector=inspector, table=table),
        wheel_not_locked(table=table, action="inspection"),
        *checklist_complete(table=table, items=items),
    ]


def inspection_passed(*, items: dict) -> bool:
    """An inspection with any failed item never lets the table open (§ 617a.2(a))."""
    return all(items.values())


def check_adjustment(*, table, kind: str, performer, witness) -> list[Violation | None]:
    """§ 617a.2(b): by a floorperson or maintenance member, in the presence of another person from security."""
    citation = ADJUSTMENT if kind == "adjustment" else REPLACEMENT
    violations = [
        table_is_roulette(table=table, citation=citation),
        wheel_not_locked(table=table, action=kind),
    ]
    if not table.has_external_movable_parts:
        violations.append(
            Violation(
                "no_external_movable_parts",
                f"Table {table.number}'s wheel has no external movable parts to adjust or replace.",
                ADJUSTMENT,
                "table",
            )
        )
    if performer.role not in ADJUSTER_ROLES:
        violations.append(
            Violation(
                "performer_role",
                f"Adjustments and replacements are made by a {_names(ADJUSTER_ROLES)}; "
                f"{performer.display_name} is a {performer.get_role_display().lower()}.",
                ADJUSTMENT,
                "performer",
            )
        )
    violations.append(signer_belongs_to_property(signer=performer, table=table, field="performer", citation=ADJUSTMENT))
    if witness.pk == performer.pk:
        violations.append(
            Violation(
                "witness_is_performer",
                "The witness must be a different person from the one making the adjustment.",
                ADJUSTMENT,
                "witness",
            )
        )
    elif witness.role not in WITNESS_ROLES:
        violations.append(
            Violation(
                "witness_not_security",
                f"Adjustments are made in the presence of a security department member; "
                f"{witness.display_name} is a {witness.get_role_display().lower()}.",
                ADJUSTMENT,
                "witness",
            )
        )
    violations.append(signer_belongs_to_property(signer=witness, table=table, field="witness", citation=ADJUSTMENT))
    return violations


def signer_may_record(*, event: str, signer, table) -> list[Violation | None]:
    roles, citation = EVENT_ROLES[event]
    violation = None
    if signer.role not in roles:
        violation = Violation(
            "signer_role",
            f"A {_names(roles)} records this; {signer.display_name} is a {signer.get_role_display().lower()}.",
            citation,
            "signature",
        )
    return [violation, signer_belongs_to_property(signer=signer, table=table, field="signature", citation=citation)]


def may_open(*, table) -> Violation | None:
    """§ 617a.2(a), (c), (d): a passing inspection after the last closing, adjustment and replacement."""
    if table.state == TableState.OPEN:
        return Violation("table_already_open", f"Table {table.number} is already open.", None, "table")
    if table.game != Game.ROULETTE:
        return None
    if table.state == TableState.INSPECTED:
        return None
    if table.state == TableState.LOCKED:
        return Violation(
            "wheel_covered_and_locked",
            f"The wheel of table {table.number} is covered and locked: unlock it and inspect it before opening.",
            INSPECTION,
            "table",
        )
    reason = table.inspection_void_reason
    if reason == "adjustment":
        return Violation(
            "adjustment_after_inspection",
            f"Table {table.number}'s wheel was adjusted after its last inspection: all adjustments are "
            "completed before the inspection, so inspect it again before opening.",
            ADJUSTMENTS_BEFORE_INSPECTION,
            "table",
        )
    if reason == "replacement":
        return Violation(
            "replacement_without_inspection",
            f"A movable part of table {table.number}'s wheel was replaced: an inspection must be completed "
            "before the table reopens.",
            REPLACEMENT,
            "table",
        )
    if reason == "failed":
        return Violation(
            "inspection_failed",
            f"The last inspection of table {table.number} failed an item: it may not open until an inspection passes.",
            INSPECTION,
            "table",
        )
    return Violation(
        "no_inspection",
        f"Table {table.number} has no passing inspection since it was last closed: inspect it before opening.",
        INSPECTION,
        "table",
    )


def may_close(*, table) -> Violation | None:
    if table.state != TableState.OPEN:
        return Violation("table_not_open", f"Table {table.number} is not open, so it cannot be closed.", None, "table")
    return None


def may_cover(*, table) -> Violation | None:
    if table.state == TableState.OPEN:
        return Violation(
            "table_open",
            f"Table {table.number} is open for play: close it before covering and locking the wheel.",
            COVER_AND_LOCK,
            "table",
        )
    if table.state == TableState.LOCKED:
        return Violation(
            "wheel_already_locked", f"The wheel of table {table.number} is already covered and locked.", None, "table"
        )
    return None


def may_unlock(*, table) -> Violation | None:
    if table.state != TableState.LOCKED:
        return Violation(
            "wheel_not_locked",
            f"The wheel of table {table.number} is not covered and locked, so there is nothing to unlock.",
            None,
            "table",
        )
    return None


def may_record_irregularity(*, table) -> Violation | None:
    """§ 617a.6: a "no spin" happens during play."""
    if table.state != TableState.OPEN:
        return Violation(
            "table_not_open",
            f"Table {table.number} is not open: a “no spin” irregularity is recorded during play.",
            IRREGULARITIES,
            "table",
        )
    return table_is_roulette(table=table, citation=IRREGULARITIES)


def may_change_decks(*, table) -> Violation | None:
    if table.game != Game.CASINO_WAR:
        return Violation(
            "not_a_casino_war_table", f"Table {table.number} is not a Casino War table.", CASINO_WAR_DECKS, "table"
        )
    return None


def may_amend(*, entry, signer, original_signer_ids: set[int]) -> Violation | None:
    """A signed entry is never changed; its signer or a compliance manager records the correction."""
    if signer.property_id != entry.property_id:
        return Violation(
            "signer_not_at_property",
            f"{signer.display_name} is not a member of this property's staff.",
            INSPECTION_LOG,
            "signature",
        )
    if signer.pk not in original_signer_ids and signer.role not in AMENDER_ROLES:
        return Violation(
            "amender_role",
            "An entry is amended by one of the people who signed it or by a compliance manager.",
            INSPECTION_LOG,
            "signature",
        )
    return None


def time_in_order(*, table, at: datetime, now: datetime, skew: timedelta, field: str) -> Violation | None:
    """§ 617a.2(e): the log states the true date and time; entries of a table follow each other in time."""
    if at > now + skew:
        return Violation("time_in_future", "The time is in the future.", INSPECTION_LOG, field)
    if table.last_entry_at and at < table.last_entry_at:
        return Violation(
            "time_before_last_entry",
            f"The time is before the last entry of table {table.number}; record entries in the order they happened "
            "(correct an earlier entry with an amendment).",
            INSPECTION_LOG,
            field,
        )
    return None


def signature_invalid(*, field: str, username: str) -> Violation:
    """§ 617a.2(e): the log carries the signature of the individual."""
    return Violation(
        "signature_invalid",
        f"The username or password given to sign as “{username}” is wrong.",
        INSPECTION_LOG,
        field,
    )
