"""58 Pa. Code § 617a.1: the Roulette wheel and ball, and the table's configuration around them."""

from __future__ import annotations

from decimal import Decimal

from compliance.rulebook.catalogue import violation
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.subjects import Equipment, Table
from compliance.rulebook.violations import Violation
from compliance.rulebook.vocabulary import Game, TableState, WheelType

# What an inspection inspected (§ 617a.1(c)–(e), § 617a.2(a)(1)–(5)) apart from the wheel and
# ball (equipment_change): the game, the wheel type (item (5) depends on it), the external movable
# parts, and whether it is an electronic table (configuration_ready checks it at opening).
TABLE_CONFIGURATION = ("game", "wheel_type", "has_external_movable_parts", "electronic")


def wheel_order_for(wheel_type: str) -> tuple[str, ...]:
    """A double-zero wheel used as a single-zero wheel is still a double-zero wheel (§ 617a.1(e))."""
    return pa.SINGLE_ZERO_ORDER if wheel_type == WheelType.SINGLE_ZERO else pa.DOUBLE_ZERO_ORDER


def check_wheel(*, wheel_type: str, diameter_inches: Decimal, number_order: list[str]) -> list[Violation]:
    """§ 617a.1(b)–(d): the diameter and the order of the numbers read clockwise from 0."""
    violations = []
    if diameter_inches < pa.WHEEL_MIN_DIAMETER_INCHES:
        violations.append(violation("wheel_too_small", field="diameter_inches", diameter=diameter_inches))
    required = wheel_order_for(wheel_type)
    single = required is pa.SINGLE_ZERO_ORDER
    citation = pa.SINGLE_ZERO_WHEEL if single else pa.DOUBLE_ZERO_WHEEL
    entered = tuple(str(number).strip() for number in number_order)
    if len(entered) != len(required):
        violations.append(
            violation(
                "wheel_compartments",
                field="number_order",
                citation=citation,
                zeros="single" if single else "double",
                required=len(required),
                entered=len(entered),
            )
        )
    elif entered != required:
        position = next(i for i, (a, b) in enumerate(zip(entered, required, strict=True)) if a != b)
        violations.append(
            violation(
                "wheel_number_order",
                field=f"number_order.{position}",
                citation=citation,
                position=position + 1,
                required=required[position],
                entered=entered[position],
            )
        )
    return violations


def check_ball(*, material: str, diameter_inches: Decimal) -> list[Violation]:
    """§ 617a.1(a): completely non-metallic, 12/16 to 14/16 inch in diameter."""
    violations = []
    if material != "non_metallic":
        violations.append(violation("ball_metallic", field="material"))
    low, high = pa.BALL_DIAMETER_INCHES
    if not low <= diameter_inches <= high:
        violations.append(violation("ball_diameter", field="diameter_inches", diameter=diameter_inches))
    return violations


def equipment_change(
    *, table: Table, wheel_changed: bool, ball_changed: bool, wheel: Equipment, ball: Equipment
) -> list[Violation]:
    """§ 617a.2(d): a wheel or ball changed on an inspected or open table would play uninspected;
    and one wheel or ball is on one table at a time."""
    violations = []
    if (wheel_changed or ball_changed) and table.pk and table.state in (TableState.OPEN, TableState.INSPECTED):
        violations.append(
            violation(
                "equipment_change_while_inspected",
                field="wheel" if wheel_changed else "ball",
                table=table.number,
                state=table.get_state_display().lower(),
            )
        )
    for name, item, changed, citation in (
        ("wheel", wheel, wheel_changed, pa.WHEELS),
        ("ball", ball, ball_changed, pa.BALL),
    ):
        if changed and item is not None:
            elsewhere = item.tables.exclude(pk=table.pk).values_list("number", flat=True).first()
            if elsewhere:
                violations.append(
                    violation("equipment_in_use", field=name, citation=citation, item=item, elsewhere=elsewhere)
                )
    return violations


def configuration_change(*, table: Table, changed: set[str]) -> Violation | None:
    """Product policy from § 617a.2(a), (d): a table's configuration changes only while it is closed
    (closed, covered and locked, or unlocked and not yet inspected), never once an inspection has
    cleared it to open or while it is open; the change voids the inspection (may_open)."""
    changed = changed & set(TABLE_CONFIGURATION)
    if changed and table.pk and table.state in (TableState.OPEN, TableState.INSPECTED):
        field = next(name for name in TABLE_CONFIGURATION if name in changed)
        return violation(
            "configuration_change_while_inspected",
            field=field,
            table=table.number,
            state=table.get_state_display().lower(),
        )
    return None


def table_equipment(*, table: Table, wheel: Equipment, ball: Equipment) -> list[Violation]:
    """The wheel a table uses is of the table's type (§ 617a.1(c)–(e)), both of its property."""
    violations = []
    if wheel is not None:
        if wheel.property_id != table.property_id:
            violations.append(violation("equipment_of_other_property/wheel", field="wheel"))
        elif wheel_order_for(wheel.wheel_type) != wheel_order_for(table.wheel_type or ""):
            violations.append(
                violation(
                    "wheel_type_mismatch",
                    field="wheel",
                    table=table.number,
                    table_wheel=table.get_wheel_type_display() or "non-Roulette",
                    serial=wheel.serial,
                    wheel=wheel.get_wheel_type_display().lower(),
                )
            )
    if ball is not None and ball.property_id != table.property_id:
        violations.append(violation("equipment_of_other_property/ball", field="ball"))
    return violations


def ball_free(*, ball: Equipment, in_use_on: list[str]) -> Violation | None:
    """A replacement ball comes from the spares: one ball is never in play on two tables."""
    if ball is not None and in_use_on:
        return violation("ball_in_use", field="new_ball", serial=ball.serial, tables=", ".join(in_use_on))
    return None


def table_configuration(
    *, game: str, wheel_type: str | None, has_external_movable_parts: bool
) -> list[Violation | None]:
    """§ 617a.1(c)–(e): a Roulette table has a single-zero or double-zero wheel; other games none."""
    if game == Game.ROULETTE and not wheel_type:
        return [violation("wheel_type_required", field="wheel_type")]
    if game != Game.ROULETTE and (wheel_type or has_external_movable_parts):
        return [violation("wheel_type_not_applicable", field="wheel_type")]
    return []
