"""Pennsylvania, 58 Pa. Code Chapter 617a: the inspection and security procedures of § 617a.2.

Every rule here is a small function answering a Violation (with its citation) or None. The
logbook (inspections.services) calls them under the table's row lock and writes nothing when
any of them answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.utils.dateparse import parse_datetime

from compliance.models import Game, Role, TableState, WheelType
from compliance.rulebook.base import Violation
from compliance.rulebook.roles import AMENDER_ROLES, APPROVER_ROLES, FILER_ROLES, FLAG_RESOLVER_ROLES
from compliance.rulebook.wagers import (
    DOUBLE,
    SINGLE,
    Paytable,
    big_six_wagers,
    check_big_six_submission,
    check_roulette_submission,
    standard_wagers,
)

BALL = "58 Pa. Code § 617a.1(a)"
WHEEL_DIAMETER = "58 Pa. Code § 617a.1(b)"
SINGLE_ZERO_WHEEL = "58 Pa. Code § 617a.1(c)"
DOUBLE_ZERO_WHEEL = "58 Pa. Code § 617a.1(d)"
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
# The product's own policies, each derived from the paragraph it names (which does not say it in so many words).
CONFIGURATION_WHILE_CLOSED = "Product policy, derived from 58 Pa. Code § 617a.2(a), (d)"
TABLE_STAYS_AT_PROPERTY = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
TABLE_KEEPS_NUMBER = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
PROPERTY_KEEPS_JURISDICTION = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
PERSON_STAYS_AT_PROPERTY = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
# How far back a time an entry may carry (ENTRY_MAX_BACKDATE_HOURS): the log holds the true date and time.
ENTRY_TIME_PLAUSIBLE = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
# § 651a.3(d): the decks opened for use are changed at least once every 24 hours (the overdue scan's deadline).
CASINO_WAR_DECK_CHANGE_HOURS = 24


# § 617a.1(c), (d): the numbers clockwise from zero.
SINGLE_ZERO_ORDER = tuple(  # the order as the regulation prints it
    "0 32 15 19 4 21 2 25 17 34 6 27 13 36 11 30 8 23 10 5 24 16 33 1 20 14 31 9 22 18 29 7 28 12 35 3 26".split()
)
DOUBLE_ZERO_ORDER = tuple(  # the order as the regulation prints it
    "0 28 9 26 30 11 7 20 32 17 5 22 34 15 3 24 36 13 1 00 27 10 25 29 12 8 19 31 18 6 21 33 16 4 23 35 14 2".split()
)
# The red numbers of both rings ("colored alternately red and black"); 0 and 00 are green.
RED_NUMBERS = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
# § 617a.1(a): 12/16 to 14/16 inch inclusive; § 617a.1(b): at least 30 inches.
BALL_DIAMETER_INCHES = (Decimal(12) / 16, Decimal(14) / 16)
WHEEL_MIN_DIAMETER_INCHES = Decimal(30)


def wheel_order_for(wheel_type: str) -> tuple[str, ...]:
    """A double-zero wheel used as a single-zero wheel is still a double-zero wheel (§ 617a.1(e))."""
    return SINGLE_ZERO_ORDER if wheel_type == WheelType.SINGLE_ZERO else DOUBLE_ZERO_ORDER


def check_wheel(*, wheel_type: str, diameter_inches: Decimal, number_order: list[str]) -> list[Violation]:
    """§ 617a.1(b)–(d): the diameter and the order of the numbers read clockwise from 0."""
    violations = []
    if diameter_inches < WHEEL_MIN_DIAMETER_INCHES:
        violations.append(
            Violation(
                "wheel_too_small",
                f"A Roulette wheel is at least 30 inches in diameter; this one is {diameter_inches}.",
                WHEEL_DIAMETER,
                "diameter_inches",
            )
        )
    required = wheel_order_for(wheel_type)
    citation = SINGLE_ZERO_WHEEL if required is SINGLE_ZERO_ORDER else DOUBLE_ZERO_WHEEL
    entered = tuple(str(number).strip() for number in number_order)
    if len(entered) != len(required):
        violations.append(
            Violation(
                "wheel_compartments",
                f"A {'single' if required is SINGLE_ZERO_ORDER else 'double'}-zero wheel has {len(required)} "
                f"compartments; {len(entered)} numbers were entered.",
                citation,
                "number_order",
            )
        )
    elif entered != required:
        position = next(i for i, (a, b) in enumerate(zip(entered, required, strict=True)) if a != b)
        violations.append(
            Violation(
                "wheel_number_order",
                f"Read clockwise from 0, compartment {position + 1} must be {required[position]}, "
                f"not {entered[position]}.",
                citation,
                f"number_order.{position}",
            )
        )
    return violations


def check_ball(*, material: str, diameter_inches: Decimal) -> list[Violation]:
    """§ 617a.1(a): completely non-metallic, 12/16 to 14/16 inch in diameter."""
    violations = []
    if material != "non_metallic":
        violations.append(
            Violation(
                "ball_metallic", "A Roulette ball is made completely of a non-metallic substance.", BALL, "material"
            )
        )
    low, high = BALL_DIAMETER_INCHES
    if not low <= diameter_inches <= high:
        violations.append(
            Violation(
                "ball_diameter",
                f"A Roulette ball is 12/16 to 14/16 inch (0.75 to 0.875 inch) in diameter; this one is {diameter_inches}.",
                BALL,
                "diameter_inches",
            )
        )
    return violations


def equipment_change(*, table, wheel_changed: bool, ball_changed: bool, wheel, ball) -> list[Violation]:
    """§ 617a.2(d): a wheel or ball changed on an inspected or open table would play uninspected;
    and one wheel or ball is on one table at a time."""
    violations = []
    if (wheel_changed or ball_changed) and table.pk and table.state in (TableState.OPEN, TableState.INSPECTED):
        violations.append(
            Violation(
                "equipment_change_while_inspected",
                f"Table {table.number} is {table.get_state_display().lower()}: change its wheel or ball when it is "
                "closed, before the inspection that must follow (§ 617a.2(d)).",
                REPLACEMENT,
                "wheel" if wheel_changed else "ball",
            )
        )
    for name, item, changed, citation in (("wheel", wheel, wheel_changed, WHEELS), ("ball", ball, ball_changed, BALL)):
        if changed and item is not None:
            elsewhere = item.tables.exclude(pk=table.pk).values_list("number", flat=True).first()
            if elsewhere:
                violations.append(
                    Violation(
                        "equipment_in_use", f"{item} is on table {elsewhere}; take it off there first.", citation, name
                    )
                )
    return violations


# What an inspection inspected (§ 617a.1(c)–(e), § 617a.2(a)(1)–(5)) apart from the wheel and
# ball (equipment_change): the game, the wheel type (item (5) depends on it), the external movable
# parts, and whether it is an electronic table (configuration_ready checks it at opening).
TABLE_CONFIGURATION = ("game", "wheel_type", "has_external_movable_parts", "electronic")


def configuration_change(*, table, changed: set[str]) -> Violation | None:
    """Product policy from § 617a.2(a), (d): a table's configuration changes only while it is closed
    (closed, covered and locked, or unlocked and not yet inspected), never once an inspection has
    cleared it to open or while it is open; the change voids the inspection (may_open)."""
    changed = changed & set(TABLE_CONFIGURATION)
    if changed and table.pk and table.state in (TableState.OPEN, TableState.INSPECTED):
        field = next(name for name in TABLE_CONFIGURATION if name in changed)
        return Violation(
            "configuration_change_while_inspected",
            f"Table {table.number} is {table.get_state_display().lower()}: its configuration changes only while "
            "it is closed, and it is then inspected again before it opens.",
            CONFIGURATION_WHILE_CLOSED,
            field,
        )
    return None


def table_may_move(*, table, has_history: bool) -> Violation | None:
    """Product policy from § 617a.2(e): a table's logbook, flags and layouts stay with the
    certificate holder whose records they are, so a table that has any never changes property."""
    if has_history:
        return Violation(
            "table_has_history",
            f"Table {table.number} has logbook entries, flags or layouts at {table.property.name}: it stays there. "
            "Add a new table at the other property instead.",
            TABLE_STAYS_AT_PROPERTY,
            "property",
        )
    return None


def table_may_renumber(*, table, has_entries: bool) -> Violation | None:
    """Product policy from § 617a.2(e): the log holds the table number, and its entries read it from
    the table, so a table with logbook entries keeps its number (a renamed table would change the
    "Table" of every entry already signed)."""
    if has_entries:
        return Violation(
            "table_number_in_logbook",
            f"Table {table.number} has logbook entries that name it by this number: it keeps it. "
            "Add a new table with the new number instead.",
            TABLE_KEEPS_NUMBER,
            "number",
        )
    return None


def property_may_change_jurisdiction(*, prop, has_records: bool) -> Violation | None:
    """Product policy from § 617a.2(e): a property's logbook was signed and chained under its
    jurisdiction's rules, and that jurisdiction's regulators are the ones who may read it; so a
    property with entries, flags, Rules Submissions or layouts keeps its jurisdiction."""
    if has_records:
        return Violation(
            "property_has_records",
            f"{prop.name} has logbook entries, flags or submissions kept under its jurisdiction: it keeps it. "
            "Add a new property for the other jurisdiction instead.",
            PROPERTY_KEEPS_JURISDICTION,
            "jurisdiction",
        )
    return None


def person_may_change(*, person, changed: set[str], has_signed: bool) -> list[Violation]:
    """Once a person has signed or recorded an entry: their Board-issued credential number, printed
    with every signature of the log (§ 617a.2(e)), never changes; and (product policy from
    § 617a.2(e)) they stay at the property, or for a regulator the jurisdiction, whose records
    they signed. A new role at the same property is allowed: each signature keeps what it meant."""
    if not has_signed:
        return []
    name = person.full_name or person.username
    violations = []
    if "credential_number" in changed:
        violations.append(
            Violation(
                "credential_number_signed",
                f"{name} has signed the log with credential number {person.credential_number}: it stays as it "
                "is. A person with a new Board credential is added as a new person.",
                INSPECTION_LOG,
                "credential_number",
            )
        )
    for field in ("property", "jurisdiction"):
        if field in changed:
            violations.append(
                Violation(
                    "person_has_signed",
                    f"{name} has signed or recorded entries where they work now: they stay there. "
                    "Add them as a new person at the other "
                    f"{'property' if field == 'property' else 'jurisdiction'} instead.",
                    PERSON_STAYS_AT_PROPERTY,
                    field,
                )
            )
    return violations


def table_equipment(*, table, wheel, ball) -> list[Violation]:
    """The wheel a table uses is of the table's type (§ 617a.1(c)–(e)), both of its property."""
    violations = []
    if wheel is not None:
        if wheel.property_id != table.property_id:
            violations.append(
                Violation("equipment_of_other_property", "The wheel belongs to another property.", WHEELS, "wheel")
            )
        elif wheel_order_for(wheel.wheel_type) != wheel_order_for(table.wheel_type or ""):
            violations.append(
                Violation(
                    "wheel_type_mismatch",
                    f"Table {table.number} is a {table.get_wheel_type_display() or 'non-Roulette'} table; "
                    f"wheel {wheel.serial} is a {wheel.get_wheel_type_display().lower()} wheel.",
                    WHEELS,
                    "wheel",
                )
            )
    if ball is not None and ball.property_id != table.property_id:
        violations.append(
            Violation("equipment_of_other_property", "The ball belongs to another property.", BALL, "ball")
        )
    return violations


def ball_free(*, ball, in_use_on: list[str]) -> Violation | None:
    """A replacement ball comes from the spares: one ball is never in play on two tables."""
    if ball is not None and in_use_on:
        return Violation(
            "ball_in_use",
            f"Ball {ball.serial} is the ball of table {', '.join(in_use_on)}: choose a spare ball.",
            IRREGULARITIES,
            "new_ball",
        )
    return None


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


def _role_phrase(person) -> str:
    """ "a floorperson", "an administrator": the person's role with its article."""
    label = person.get_role_display().lower()
    return f"{'an' if label[0] in 'aeiou' else 'a'} {label}"


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
            f"{inspector.display_name} is {_role_phrase(inspector)}.",
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
                    f"{code} (item (5): the 00 cover and signage) applies only to a double-zero wheel used as a "
                    f"single-zero wheel; table {table.number} has a {(table.get_wheel_type_display() or 'no').lower()} wheel.",
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
                f"{performer.display_name} is {_role_phrase(performer)}.",
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
                f"{witness.display_name} is {_role_phrase(witness)}.",
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
            f"A {_names(roles)} records this; {signer.display_name} is {_role_phrase(signer)}.",
            citation,
            "signature",
        )
    return [violation, signer_belongs_to_property(signer=signer, table=table, field="signature", citation=citation)]


def may_open(*, table) -> Violation | None:
    """§ 617a.2(a), (c), (d): a passing inspection after the last closing, adjustment and replacement."""
    if table.state == TableState.OPEN:
        return Violation("table_already_open", f"Table {table.number} is already open.", INSPECTION, "table")
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
    if reason == "configuration":
        return Violation(
            "configuration_changed",
            f"Table {table.number}'s configuration changed after it was closed: inspect it again, with the "
            "checklist of its new configuration, before opening.",
            CONFIGURATION_WHILE_CLOSED,
            "table",
        )
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
    if reason in AMENDED_VOID_REASONS:
        return Violation(
            "inspection_amended_away",
            f"The inspection table {table.number} was to open on {AMENDED_VOID_REASONS[reason]}, so it does not "
            "count: inspect the table again before opening.",
            INSPECTION,
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
        return Violation(
            "table_not_open", f"Table {table.number} is not open, so it cannot be closed.", COVER_AND_LOCK, "table"
        )
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
            "wheel_already_locked",
            f"The wheel of table {table.number} is already covered and locked.",
            COVER_AND_LOCK,
            "table",
        )
    return None


def may_unlock(*, table) -> Violation | None:
    if table.state != TableState.LOCKED:
        return Violation(
            "wheel_not_locked",
            f"The wheel of table {table.number} is not covered and locked, so there is nothing to unlock.",
            COVER_AND_LOCK,
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


def _correction_value_problem(*, name: str, value, entry_kind: str, checklist: tuple[str, ...], ball_known: bool):
    """What is wrong with a corrected value, in words, or None (the same shapes as the entry's API fields)."""
    if name == "items":
        if not isinstance(value, dict) or not value:
            return "Give the corrected checklist items as item → true (passed) or false (failed)."
        unknown = sorted(set(value) - set(checklist))
        if unknown:
            return f"This table's checklist has no {', '.join(unknown)}; it has {', '.join(checklist)}."
        if not all(isinstance(result, bool) for result in value.values()):
            return "Each checklist item is true (passed) or false (failed)."
    elif name in ("notes", "description", "part", "reason"):
        limit = 200 if name == "part" else 2000
        if not isinstance(value, str) or (not value.strip() and name != "notes") or len(value) > limit:
            return f"The corrected {name} is text of at most {limit:,} characters."
    elif name == "kind":
        choices = (
            [code for code, _ in IRREGULARITY_KINDS] if entry_kind == "irregularity" else ["adjustment", "replacement"]
        )
        if value not in choices:
            return f"The corrected kind is one of {', '.join(choices)}."
    elif name == "ball_replaced":
        if not isinstance(value, bool):
            return "Whether the ball was replaced is true or false."
    elif name == "new_ball":
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not ball_known):
            return "The new ball is the id of a ball registered at this property, or null."
    elif name == "decks":
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 16:
            return "The corrected number of decks is a whole number from 1 to 16."
    elif name == "correction" and not isinstance(value, dict):
        return "The corrected correction is an object of field → value."
    return None


def check_correction(
    *,
    kind: str,
    allowed: frozenset[str],
    correction: dict,
    now: datetime,
    skew: timedelta,
    checklist: tuple[str, ...] = (),
    ball_known: bool = False,
    required: bool = True,
    recorded_at: datetime,
    max_backdate: timedelta,
) -> list[Violation]:
    """§ 617a.2(e): a correction names fields the corrected entry has, with values of their kind, and
    true times: not in the future, and (product policy) not further back before the corrected entry
    was recorded than an entry may be back-dated when it is recorded."""
    violations = []
    if not correction and required:
        violations.append(
            Violation("correction_empty", "Say what the correct values are.", INSPECTION_LOG, "correction")
        )
    for name, value in correction.items():
        problem = _correction_value_problem(
            name=name, value=value, entry_kind=kind, checklist=checklist, ball_known=ball_known
        )
        if name in allowed and problem:
            violations.append(Violation("correction_value", problem, INSPECTION_LOG, f"correction.{name}"))
        elif name not in allowed:
            violations.append(
                Violation(
                    "correction_field_unknown",
                    f"A {kind.replace('_', ' ')} entry has no “{name}”; it has {', '.join(sorted(allowed))}.",
                    INSPECTION_LOG,
                    f"correction.{name}",
                )
            )
        elif name in ("at", "performed_at"):
            when = parse_datetime(value) if isinstance(value, str) else None
            if when is None or when.tzinfo is None:
                violations.append(
                    Violation(
                        "correction_time",
                        "Give the corrected time in ISO 8601 with its offset.",
                        INSPECTION_LOG,
                        f"correction.{name}",
                    )
                )
            elif when > now + skew:
                violations.append(
                    Violation(
                        "time_in_future", "The corrected time is in the future.", INSPECTION_LOG, f"correction.{name}"
                    )
                )
            elif when < recorded_at - max_backdate:
                hours = int(max_backdate.total_seconds() // 3600)
                violations.append(
                    Violation(
                        "time_too_old",
                        f"The corrected time is more than {hours} hours before the entry was recorded "
                        f"({recorded_at.isoformat(timespec='seconds')}): check the date and time.",
                        ENTRY_TIME_PLAUSIBLE,
                        f"correction.{name}",
                    )
                )
    return violations


# What an amendment says of the entry it amends (the entry itself is never changed, DESIGN.md §2):
# corrected values; entered in error (it should not be in the log); a duplicate of an earlier entry.
AMENDMENT_KINDS = (
    ("correction", "correction"),
    ("entered_in_error", "entered in error"),
    ("duplicate", "duplicate of an earlier entry"),
)
VOIDING_AMENDMENTS = frozenset({"entered_in_error", "duplicate"})
# The table's `inspection_void_reason` when the inspection it was to open on was amended away, in words.
AMENDED_VOID_REASONS = {
    "entered_in_error": "was marked entered in error",
    "duplicate": "was marked a duplicate of an earlier inspection that no longer counts (it was entered in error "
    "or failed, or the table was closed, adjusted or had a part replaced after it)",
}


def check_amendment(
    *, amendment_kind: str, entry, correction: dict, duplicate_of: int | None, duplicate, voided_by: int | None
) -> list[Violation | None]:
    """§ 617a.2(e): the log states what happened; an entry that should not be in it is marked so by a
    signed amendment, once, and a duplicate names the earlier entry of the same table it repeats."""
    found: list[Violation | None] = []
    if voided_by is not None:
        found.append(
            Violation(
                "entry_already_voided",
                f"Entry #{entry.seq} is already marked entered in error or a duplicate (by amendment #{voided_by}).",
                INSPECTION_LOG,
                "entry",
            )
        )
    if amendment_kind in VOIDING_AMENDMENTS and correction:
        found.append(
            Violation(
                "correction_with_void",
                "An entry entered in error or a duplicate is marked as such, not corrected: leave the correction empty.",
                INSPECTION_LOG,
                "correction",
            )
        )
    if amendment_kind != "duplicate":
        if duplicate_of is not None:
            found.append(
                Violation(
                    "duplicate_of_without_duplicate",
                    "Name the entry it repeats only when marking a duplicate.",
                    INSPECTION_LOG,
                    "duplicate_of",
                )
            )
        return found
    if duplicate_of is None:
        found.append(
            Violation(
                "duplicate_of_required",
                f"Say which earlier entry #{entry.seq} repeats (its number in the logbook).",
                INSPECTION_LOG,
                "duplicate_of",
            )
        )
    elif duplicate is None or duplicate.table_id != entry.table_id or duplicate.seq >= entry.seq:
        found.append(
            Violation(
                "duplicate_of_unknown",
                f"Table {entry.table_number} has no entry #{duplicate_of} before #{entry.seq}: a duplicate repeats an "
                "earlier entry of the same table.",
                INSPECTION_LOG,
                "duplicate_of",
            )
        )
    elif duplicate.kind != entry.kind:
        found.append(
            Violation(
                "duplicate_of_other_kind",
                f"Entry #{duplicate.seq} is a {duplicate.get_kind_display().lower()} and #{entry.seq} a "
                f"{entry.get_kind_display().lower()}: a duplicate repeats an entry of the same kind.",
                INSPECTION_LOG,
                "duplicate_of",
            )
        )
    return found


def entry_time_plausible(
    *, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
) -> Violation | None:
    """§ 617a.2(e): the log holds the date and time an entry happened, so never a time still to come
    (beyond a device clock's skew) and, product policy, never one further back than `max_backdate`
    (year 0001 in a log that can never be corrected by deletion)."""
    if at > now + skew:
        return Violation(
            "time_in_future",
            f"{at.isoformat(timespec='seconds')} is in the future: the server's time is "
            f"{now.isoformat(timespec='seconds')} and a device's clock may be at most "
            f"{int(skew.total_seconds())} seconds ahead.",
            INSPECTION_LOG,
            field,
        )
    if at < now - max_backdate:
        hours = int(max_backdate.total_seconds() // 3600)
        return Violation(
            "time_too_old",
            f"{at.isoformat(timespec='seconds')} is more than {hours} hours before the entry is recorded "
            f"(the server's time is {now.isoformat(timespec='seconds')}): check the date and time. "
            "Something that happened longer ago is reported to the compliance manager, not logged.",
            ENTRY_TIME_PLAUSIBLE,
            field,
        )
    return None


def time_in_order(
    *, table, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
) -> Violation | None:
    """§ 617a.2(e): the log states the true date and time; entries of a table follow each other in time."""
    implausible = entry_time_plausible(at=at, now=now, skew=skew, max_backdate=max_backdate, field=field)
    if implausible:
        return implausible
    if table.last_entry_at and at < table.last_entry_at:
        return Violation(
            "time_before_last_entry",
            f"The time is before the last entry of table {table.number}; record entries in the order they happened "
            "(correct an earlier entry with an amendment).",
            INSPECTION_LOG,
            field,
        )
    return None


# Outside the logbook (a flag's resolution, a filing, a regulator's decision) no paragraph asks for the
# signature: signing by the password re-entered is the product's own rule (DESIGN.md §4).
SIGNATURE_POLICY = "Product policy: a signature is the signer's password re-entered at signing"


def signature_citation(*, in_logbook: bool) -> str:
    """§ 617a.2(e) asks for the signature of the individual in the log (the inspection it certifies,
    an adjustment or replacement, and what else the log holds); elsewhere it is the product's policy."""
    return INSPECTION_LOG if in_logbook else SIGNATURE_POLICY


def signature_invalid(*, field: str, username: str, in_logbook: bool) -> Violation:
    """The signature of the individual: the password re-entered is wrong."""
    return Violation(
        "signature_invalid",
        f"The username or password given to sign as “{username}” is wrong.",
        signature_citation(in_logbook=in_logbook),
        field,
    )


def signature_locked_out(*, field: str, username: str, minutes: int, in_logbook: bool) -> Violation:
    """The signature of the individual cannot be made while their name is locked after failed passwords."""
    return Violation(
        "signature_locked_out",
        f"Too many wrong passwords for “{username}” from this device: signing as “{username}” is locked "
        f"for {minutes} minutes. An administrator can lift the lock.",
        signature_citation(in_logbook=in_logbook),
        field,
    )


# ---- Wagers, payout odds and Rules Submission options (§ 617a.3, § 617a.4, Chapter 617c) ----

NAME = "Pennsylvania (58 Pa. Code)"
WAGERS_CITATION = "58 Pa. Code § 617a.3(e)"
PAYOUT_ODDS = "58 Pa. Code § 617a.4(a)"
LIGHTNING_STRAIGHT = (29, 1)
LIGHTNING_STRAIGHT_CITATION = "58 Pa. Code § 617c.3(f)"

WAGERS = standard_wagers(payout_citation=PAYOUT_ODDS, first_five_citation="58 Pa. Code § 617a.3(e)(5)")

OPTIONS = {
    "five_adjacent": ((True, False), "58 Pa. Code § 617a.3(e)(1)(i)"),
    # § 617a.1(f)(5): Touchdown Roulette is played on a double-zero wheel (and a fully automated
    # electronic table, checked where the submission meets its tables).
    "touchdown_paytable": Paytable(
        "58 Pa. Code § 617a.4(d)",
        choices=("A", "B", "C", "D"),
        wheels=frozenset({DOUBLE}),
        wheels_citation="58 Pa. Code § 617a.1(f)(5)",
    ),
    "b2b_payouts": Paytable("58 Pa. Code § 617c.1(e)", include_all=frozenset({1000, 500, 250, 100, 50, 25, 10})),
    "blazing7_paytable": Paytable("58 Pa. Code § 617c.2(j)", choices=(1, 2, 3, 4)),
    "lightning_payouts": Paytable(
        "58 Pa. Code § 617c.3(g)",
        include_all=frozenset({499, 399, 349, 299, 249, 199, 149, 99, 49}),
        wheels=frozenset({SINGLE}),
        wheels_citation="58 Pa. Code § 617c.3(a)",
    ),
}


def exclusivity(*, offered: set[str]) -> list[Violation]:
    """Pennsylvania's text has no wagers that exclude one another."""
    return []


def required_options(*, wheel_types: list[str], options: dict) -> list[Violation]:
    """§ 617a.4(b): on 0 and 00 the even-money wagers are lost; there is no half-loss option here."""
    return []


# ---- Rules Submissions (§ 601a.2): what is filed, by whom, and who decides ----

RULES_SUBMISSION = "58 Pa. Code § 601a.2"


def check_rules_submission(
    *, game_rules, game: str, wheel_types: list, payout_odds: dict, options: dict
) -> list[Violation]:
    """Every violation of a submission's content at once (the wagers are the jurisdiction's own)."""
    if game == Game.BIG_SIX:
        return check_big_six_submission(game_rules, payout_odds=payout_odds, options=options)
    if game == Game.CASINO_WAR:
        if not hasattr(game_rules, "check_casino_war_submission"):
            return [
                Violation(
                    "game_not_in_jurisdiction",
                    f"The rules of {game_rules.NAME} in this product have no Casino War.",
                    game_rules.WAGERS_CITATION,
                    "game",
                )
            ]
        return game_rules.check_casino_war_submission(payout_odds=payout_odds, options=options)
    violations = []
    if not wheel_types:
        violations.append(
            Violation("wheel_types_required", "Name the wheel types the rules are for.", WHEELS, "wheel_types")
        )
    if not payout_odds:
        violations.append(
            Violation(
                "payout_odds_required", "List the wagers offered and their payout odds.", PAYOUT_ODDS, "payout_odds"
            )
        )
    for index, wheel_type in enumerate(wheel_types):
        if wheel_type not in WheelType.values:
            violations.append(
                Violation("wheel_type_unknown", f"“{wheel_type}” is not a wheel type.", WHEELS, f"wheel_types.{index}")
            )
    known = [w for w in wheel_types if w in WheelType.values]
    return violations + check_roulette_submission(
        game_rules, wheel_types=known, payout_odds=payout_odds, options=options
    )


def may_edit_submission(*, submission) -> Violation | None:
    if submission.status != "draft":
        return Violation(
            "submission_not_draft",
            f"Version {submission.version} was {submission.get_status_display().lower()}; it is never rewritten: "
            "make a new version instead.",
            RULES_SUBMISSION,
            None,
        )
    return None


def may_file(*, submission, signer) -> list[Violation | None]:
    """The certificate holder's compliance manager files a valid draft with the Board."""
    violations = [may_edit_submission(submission=submission)]
    if signer.role not in FILER_ROLES or signer.property_id != submission.property_id:
        violations.append(
            Violation(
                "filer_role",
                f"The Rules Submission is filed by a compliance manager of {submission.property.name}.",
                RULES_SUBMISSION,
                "signature",
            )
        )
    if submission.violations:
        violations.append(
            Violation(
                "submission_has_violations",
                f"The draft still breaks {len(submission.violations)} rule(s) "
                f"({', '.join(sorted({v['code'] for v in submission.violations}))}); correct them before filing.",
                RULES_SUBMISSION,
                None,
            )
        )
    return violations


def may_decide(submission, *, signer) -> list[Violation]:
    """A Board agent of the property's jurisdiction approves or rejects a filed submission."""
    violations = []
    if submission.status != "filed":
        violations.append(
            Violation(
                "submission_not_filed",
                f"Only a filed submission is decided; this one is {submission.get_status_display().lower()}.",
                RULES_SUBMISSION,
                None,
            )
        )
    if signer.role not in APPROVER_ROLES or signer.jurisdiction != submission.property.jurisdiction:
        violations.append(
            Violation(
                "approver_role",
                "A regulator of the property's jurisdiction decides on a Rules Submission.",
                RULES_SUBMISSION,
                "signature",
            )
        )
    return violations


# ---- Layouts (§ 617a.1(e)–(g), § 617c.1(b), § 617c.2(b), § 617c.3(b)) ----

LAYOUT_APPROVAL = "58 Pa. Code § 617a.1(f)"
LAYOUT_APPROVAL_BY_GAME = {
    Game.ROULETTE: LAYOUT_APPROVAL,
    Game.BIG_SIX: "58 Pa. Code § 619a.1(g)",
    Game.CASINO_WAR: "58 Pa. Code § 651a.2(b)",
}
LAYOUT_FEATURES = frozenset(
    {
        "name_or_logo",
        "betting_areas",
        "min_max_signage",
        "wheel_replica",
        "touchdown_electronic_area",
        "b2b_area",
        "b2b_reader_board_rng",
        "blazing7_area",
        "blazing7_release_device",
        "lightning_rng",
        "double_zero_cover",
        "single_zero_signage",
        "drop_box",
        "tip_box",
        "payout_odds_signage",
        "tie_betting_area",
    }
)
# Always: § 617a.1(f)(1)–(3) and (g).
LAYOUT_ALWAYS = (
    ("name_or_logo", "58 Pa. Code § 617a.1(f)(1)"),
    ("betting_areas", "58 Pa. Code § 617a.1(f)(2)"),
    ("min_max_signage", "58 Pa. Code § 617a.1(f)(3)"),
    ("drop_box", "58 Pa. Code § 617a.1(g)"),
    ("tip_box", "58 Pa. Code § 617a.1(g)"),
)
# Big Six (§ 619a.1(f), (g)) and Casino War (§ 651a.2(b), (c)), from the 2011 text.
LAYOUT_ALWAYS_BY_GAME: dict[str, tuple[tuple[str, str], ...]] = {
    Game.ROULETTE: LAYOUT_ALWAYS,
    Game.BIG_SIX: (
        ("name_or_logo", "58 Pa. Code § 619a.1(g)(1)"),
        ("betting_areas", "58 Pa. Code § 619a.1(g)(2)"),
        ("payout_odds_signage", "58 Pa. Code § 619a.1(g)(3)"),
        ("drop_box", "58 Pa. Code § 619a.1(f)"),
        ("tip_box", "58 Pa. Code § 619a.1(f)"),
    ),
    Game.CASINO_WAR: (
        ("name_or_logo", "58 Pa. Code § 651a.2(b)(1)"),
        ("betting_areas", "58 Pa. Code § 651a.2(b)(2)"),
        ("tie_betting_area", "58 Pa. Code § 651a.2(b)(3)"),
        ("payout_odds_signage", "58 Pa. Code § 651a.2(b)(4)"),
        ("drop_box", "58 Pa. Code § 651a.2(c)"),
        ("tip_box", "58 Pa. Code § 651a.2(c)"),
    ),
}
# What an option of the Rules Submission in effect adds.
LAYOUT_FOR_OPTION = {
    "five_adjacent": (("wheel_replica", "58 Pa. Code § 617a.1(f)(4)"),),
    "touchdown_paytable": (("touchdown_electronic_area", "58 Pa. Code § 617a.1(f)(5)"),),
    "b2b_payouts": (("b2b_area", "58 Pa. Code § 617c.1(b)"), ("b2b_reader_board_rng", "58 Pa. Code § 617c.1(b)")),
    "blazing7_paytable": (
        ("blazing7_area", "58 Pa. Code § 617c.2(b)"),
        ("blazing7_release_device", "58 Pa. Code § 617c.2(b)"),
    ),
    "lightning_payouts": (("lightning_rng", "58 Pa. Code § 617c.3(b)"),),
}
# A double-zero wheel used as single-zero: the 00 area covered and the notices posted.
LAYOUT_FOR_AS_SINGLE_ZERO = (
    ("double_zero_cover", "58 Pa. Code § 617a.1(e)(1)"),
    ("single_zero_signage", "58 Pa. Code § 617a.1(e)(2)"),
)


def check_layout(*, features: list[str], tables, options: dict | None, game: str = Game.ROULETTE) -> list[Violation]:
    """Every feature the layout needs for what is offered on its tables, and none unknown."""
    violations = []
    for index, feature in enumerate(features):
        if feature not in LAYOUT_FEATURES:
            violations.append(
                Violation(
                    "layout_feature_unknown",
                    f"“{feature}” is not a layout feature.",
                    LAYOUT_APPROVAL,
                    f"features.{index}",
                )
            )
    needed = list(LAYOUT_ALWAYS_BY_GAME[game])
    if game != Game.ROULETTE:
        options = None  # the Roulette options add Roulette areas only
    for option, requirements in LAYOUT_FOR_OPTION.items():
        if options and options.get(option) not in (None, False, [], ""):
            needed.extend(requirements)
    if any(table.wheel_type == WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO for table in tables):
        needed.extend(LAYOUT_FOR_AS_SINGLE_ZERO)
    for feature, citation in needed:
        if feature not in features:
            violations.append(
                Violation(
                    "layout_feature_missing",
                    f"The layout must have “{feature}” for what is offered on its tables.",
                    citation,
                    "features",
                )
            )
    electronic = [t.number for t in tables if not t.electronic]
    if options and options.get("touchdown_paytable") and electronic:
        violations.append(
            Violation(
                "touchdown_not_electronic",
                f"Touchdown Roulette is offered on a fully automated electronic table; {', '.join(electronic)} is not.",
                "58 Pa. Code § 617a.1(f)(5)",
                "tables",
            )
        )
    return violations


def may_decide_layout(layout, *, signer) -> list[Violation]:
    """The Bureau approves a layout (§ 617a.1(f)): a regulator of the jurisdiction, on a pending one."""
    violations = []
    if layout.status != "pending":
        violations.append(
            Violation(
                "layout_not_pending",
                f"This layout was already {layout.get_status_display().lower()}.",
                LAYOUT_APPROVAL,
                None,
            )
        )
    if signer.role not in APPROVER_ROLES or signer.jurisdiction != layout.property.jurisdiction:
        violations.append(
            Violation(
                "approver_role",
                "A regulator of the property's jurisdiction decides on a layout.",
                LAYOUT_APPROVAL,
                "signature",
            )
        )
    return violations


def configuration_ready(*, table, layout, rules_submission) -> list[Violation]:
    """Before a table opens: an approved layout and an approved Rules Submission in effect for its
    game; for Roulette, one covering its wheel type, and registered (so compliant) equipment."""
    violations = []
    if layout is None:
        violations.append(
            Violation(
                "layout_not_approved",
                f"Table {table.number} has no approved layout: a layout is approved before use.",
                LAYOUT_APPROVAL_BY_GAME[table.game],
                "table",
            )
        )
    if rules_submission is None:
        violations.append(
            Violation(
                "rules_submission_not_in_effect",
                f"{table.property.name} has no approved {table.get_game_display()} Rules Submission in effect today.",
                RULES_SUBMISSION,
                "table",
            )
        )
    if layout is not None and rules_submission is not None:
        # The rules in effect may offer more than when the layout was approved (§ 617c.1(b), …).
        lacking = check_layout(
            features=layout.features, tables=[table], options=rules_submission.options, game=table.game
        )
        violations.extend(
            Violation(v.code, f"Table {table.number}'s approved layout: {v.message}", v.citation, "table")
            for v in lacking
            if v.code != "layout_feature_unknown"
        )
    if table.game != Game.ROULETTE:
        return violations
    if rules_submission is not None and table.wheel_type not in rules_submission.wheel_types:
        violations.append(
            Violation(
                "rules_submission_wheel_type",
                f"The Rules Submission in effect (version {rules_submission.version}) does not cover "
                f"{(table.get_wheel_type_display() or 'this').lower()} tables.",
                RULES_SUBMISSION,
                "table",
            )
        )
    touchdown = layout is not None and "touchdown_electronic_area" in layout.features
    if touchdown and (not table.electronic or table.wheel_type != WheelType.DOUBLE_ZERO):
        violations.append(
            Violation(
                "touchdown_table",
                f"Table {table.number}'s layout offers Touchdown Roulette, which is played on a fully automated "
                "electronic table with a double-zero wheel.",
                "58 Pa. Code § 617a.1(f)(5)",
                "table",
            )
        )
    if table.wheel_id is None:
        violations.append(
            Violation("wheel_not_registered", f"Table {table.number} has no registered wheel.", WHEELS, "table")
        )
    if table.ball_id is None:
        violations.append(
            Violation("ball_not_registered", f"Table {table.number} has no registered ball.", BALL, "table")
        )
    return violations


# ---- Big Six Wheel (Chapter 619a, from the 2011 text) ----

BIG_SIX_CITATION = "58 Pa. Code § 619a.3"
BIG_SIX_WAGERS = big_six_wagers(payout_citation=BIG_SIX_CITATION, flag_label="Flag, name or logo")
# § 619a.1(b): clockwise from the joker.
BIG_SIX_ORDER = tuple(  # the order as the regulation prints it
    "joker 1 2 1 5 2 1 10 1 5 1 2 1 20 1 2 1 5 2 1 10 1 2 5 1 2 1 flag 2 5 2 1 2 1 10 1 5 1 2 1 20 1 "
    "2 1 5 2 1 10 1 2 5 1 2 1".split()
)
# § 619a.2(d): between two sections the spin is void and respun; Pennsylvania gives no choice.
BIG_SIX_CLAPPER = (("void_and_respin",), "58 Pa. Code § 619a.2(d)")


# ---- Casino War (Chapter 651a, from the 2011 text) ----

# § 651a.10: the odds at which each wager "shall be paid" — exactly these, not minimums.
CASINO_WAR_PAYOUTS = {
    "initial": ((1, 1), "58 Pa. Code § 651a.10(1)"),
    "tie": ((10, 1), "58 Pa. Code § 651a.10(2)"),
    "war": ((2, 1), "58 Pa. Code § 651a.10(3)"),
    "war_tie": ((3, 1), "58 Pa. Code § 651a.10(3)"),
}


def casino_war_decks_allowed(*, decks: int, automated_shuffler: bool) -> Violation | None:
    """§ 651a.3(a), (c): six or eight decks from a manual shoe; 12 to 16, in two equal batches, with a shuffler."""
    if automated_shuffler:
        if 12 <= decks <= 16 and decks % 2 == 0:
            return None
        return Violation(
            "casino_war_decks",
            "With an automated card shuffling device Casino War uses 12 to 16 decks in two equal batches.",
            "58 Pa. Code § 651a.3(c)",
            "decks",
        )
    if decks in (6, 8):
        return None
    return Violation(
        "casino_war_decks", "Casino War is played with six or eight decks.", "58 Pa. Code § 651a.3(a)", "decks"
    )


def check_casino_war_submission(*, payout_odds: dict, options: dict) -> list[Violation]:
    violations = []
    for code, value in payout_odds.items():
        if code not in CASINO_WAR_PAYOUTS:
            violations.append(
                Violation(
                    "wager_not_in_jurisdiction",
                    f"“{code}” is not a Casino War wager.",
                    "58 Pa. Code § 651a.7",
                    f"payout_odds.{code}",
                )
            )
            continue
        required, citation = CASINO_WAR_PAYOUTS[code]
        if value != list(required):
            violations.append(
                Violation(
                    "casino_war_odds",
                    f"The {code.replace('_', ' ')} wager is paid {required[0]} to {required[1]}.",
                    citation,
                    f"payout_odds.{code}",
                )
            )
    for code, (_required, citation) in CASINO_WAR_PAYOUTS.items():
        if code not in payout_odds:
            violations.append(
                Violation(
                    "casino_war_odds",
                    f"State the {code.replace('_', ' ')} wager's odds.",
                    citation,
                    f"payout_odds.{code}",
                )
            )
    boxes = options.get("casino_war_adjacent_boxes")
    if not isinstance(boxes, int) or isinstance(boxes, bool) or not 1 <= boxes <= 7:
        violations.append(
            Violation(
                "adjacent_boxes_required",
                "State on how many adjacent boxes (1 to 7) a player may wager in one round.",
                "58 Pa. Code § 651a.7(e)",
                "options.casino_war_adjacent_boxes",
            )
        )
    decks = options.get("casino_war_decks")
    if not isinstance(decks, int) or isinstance(decks, bool):
        violations.append(
            Violation(
                "casino_war_decks",
                "State how many decks are used.",
                "58 Pa. Code § 651a.3(a)",
                "options.casino_war_decks",
            )
        )
    else:
        problem = casino_war_decks_allowed(decks=decks, automated_shuffler=options.get("automated_shuffler") is True)
        if problem:
            violations.append(Violation(problem.code, problem.message, problem.citation, "options.casino_war_decks"))
    known = {"casino_war_adjacent_boxes", "casino_war_decks", "automated_shuffler"}
    for name in options:
        if name not in known and options[name] not in (None, False, [], ""):
            violations.append(
                Violation(
                    "option_not_in_jurisdiction",
                    f"“{name}” is not a Casino War option.",
                    RULES_SUBMISSION,
                    f"options.{name}",
                )
            )
    return violations


# ---- Overdue detection: what the scan flags (DESIGN.md §6) ----


@dataclass(frozen=True)
class FlagKind:
    code: str
    label: str
    citation: str


# Each kind's deadline is a column of the table, kept by the logbook's services (inspections.overdue).
FLAG_KINDS = (
    FlagKind("opened_uninspected", "Open without a valid inspection", INSPECTION),
    FlagKind("adjusted_after_inspection", "Adjusted after the inspection, still open", ADJUSTMENTS_BEFORE_INSPECTION),
    FlagKind("replaced_without_inspection", "Part replaced, not inspected before play went on", REPLACEMENT),
    FlagKind("not_covered", "Wheel not covered and locked within the grace period after closing", COVER_AND_LOCK),
    FlagKind("inspection_stale", "Open on an inspection older than the property's interval", INSPECTION),
    FlagKind("decks_stale", "Casino War decks not changed within 24 hours", CASINO_WAR_DECKS),
    FlagKind(
        "not_approved",
        "Open with a layout or Rules Submission that is not approved or no longer in effect",
        f"{LAYOUT_APPROVAL}; {RULES_SUBMISSION}",
    ),
)
FLAG_KINDS_BY_CODE = {kind.code: kind for kind in FLAG_KINDS}


def may_resolve_flag(flag, *, signer, note: str) -> list[Violation]:
    """A compliance manager of the property closes an open flag with a signed note saying why."""
    violations = []
    if flag.status != "open":
        violations.append(Violation("flag_not_open", "This flag is already resolved.", flag.citation, None))
    if signer.role not in FLAG_RESOLVER_ROLES or signer.property_id != flag.property_id:
        violations.append(
            Violation(
                "resolver_role",
                "A flag is resolved by hand by a compliance manager of the table's property.",
                flag.citation,
                "signature",
            )
        )
    if not note.strip():
        violations.append(
            Violation("note_required", "Say in the note how the problem was dealt with.", flag.citation, "note")
        )
    return violations
