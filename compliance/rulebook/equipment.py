"""58 Pa. Code § 617a.1: the Roulette wheel and ball, and the table's configuration around them; the Big
Six wheel of § 619a.1(a), (b) (proposed, 41 Pa.B. 3000)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from compliance.rulebook.catalogue import violation
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.subjects import Equipment, Table, Wheel
from compliance.rulebook.violations import Violation
from compliance.rulebook.vocabulary import Compartments, Game, TableState, WheelColour, WheelType

# What an inspection inspected (§ 617a.1(c)–(e), § 617a.2(a)(1)–(5)) apart from the wheel and
# ball (equipment_change): the game, the wheel type (item (5) depends on it), the external movable
# parts, and whether it is an electronic table (configuration_ready checks it at opening).
TABLE_CONFIGURATION = ("game", "wheel_type", "has_external_movable_parts", "electronic", "configuration")


def wheel_order_for(wheel_type: str) -> tuple[str, ...]:
    """A double-zero wheel used as a single-zero wheel is still a double-zero wheel (§ 617a.1(e))."""
    return pa.SINGLE_ZERO_ORDER if wheel_type == WheelType.SINGLE_ZERO else pa.DOUBLE_ZERO_ORDER


def check_wheel(
    *,
    wheel_type: str,
    diameter_inches: Decimal,
    number_order: list[str],
    colours: list[str] | None = None,
    game: str = Game.ROULETTE,
    compartments: str = "",
    compartment_colour: str = "",
    compartment_approval: str = "",
    parts: Mapping[str, bool | None] | None = None,
) -> list[Violation]:
    """A wheel registered: a Big Six wheel by § 619a.1(a), (b), (d), (e) (proposed), a Roulette wheel
    by § 617a.1(b)–(d): its diameter, the order of its numbers read clockwise from 0, the colours of
    its ring (`colours`, one for each number of `number_order`, in the same order) and of its
    compartments (`compartments`: as the ring, or a neutral colour named with its approval). `parts`:
    what the registrar states of a Big Six wheel (pa.BIG_SIX_WHEEL_PARTS: glass, odds, clapper)."""
    parts = parts or {}
    if game == Game.BIG_SIX:
        found = check_big_six_wheel(
            wheel_type=wheel_type, diameter_inches=diameter_inches, sections=number_order, colours=colours
        )
        if compartments or compartment_colour or compartment_approval:
            found.append(
                violation("big_six_not_roulette", field="compartments", what="colour of a Roulette compartment")
            )
        found.extend(
            violation("big_six_wheel_part", field=name, citation=citation, part=part)
            for name, part, citation in pa.BIG_SIX_WHEEL_PARTS
            if parts.get(name) is not True
        )
        return found
    violations = [
        violation("roulette_not_big_six", field=name, citation=citation, part=part)
        for name, part, citation in pa.BIG_SIX_WHEEL_PARTS
        if parts.get(name) is not None
    ]
    if diameter_inches < pa.WHEEL_MIN_DIAMETER_INCHES:
        violations.append(violation("wheel_too_small", field="diameter_inches", diameter=diameter_inches))
    if wheel_type not in (WheelType.SINGLE_ZERO, WheelType.DOUBLE_ZERO):
        violations.append(violation("wheel_type_required/wheel", field="wheel_type"))
        return violations
    required = wheel_order_for(wheel_type)
    single = required is pa.SINGLE_ZERO_ORDER
    citation = pa.SINGLE_ZERO_WHEEL if single else pa.DOUBLE_ZERO_WHEEL
    violations.extend(
        wheel_compartments(
            compartments=compartments,
            colour=compartment_colour,
            approval=compartment_approval,
            citation=citation,
        )
    )
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
        return violations
    if entered != required:
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
    violations.extend(wheel_colours(numbers=entered, colours=colours, citation=citation))
    return violations


ZEROS = frozenset({"0", "00"})


def wheel_compartments(*, compartments: str, colour: str, approval: str, citation: str) -> list[Violation]:
    """§ 617a.1(c), (d): "The color of each compartment must either be a corresponding color to those
    depicted on the ring or a neutral color as approved in accordance with § 601a.10(a)": which one
    is recorded, and a neutral colour with the approval's reference (that approval is the Bureau's,
    outside this logbook: the reference is what the register can show of it)."""
    colour, approval = colour.strip(), approval.strip()
    if compartments == Compartments.RING:
        if colour or approval:
            field = "compartment_colour" if colour else "compartment_approval"
            return [violation("wheel_compartment_colours_as_ring", field=field, citation=citation)]
        return []
    if compartments == Compartments.NEUTRAL:
        return [
            violation("wheel_compartment_colours_neutral", field=field, citation=citation)
            for field, given in (("compartment_colour", colour), ("compartment_approval", approval))
            if not given
        ]
    return [violation("wheel_compartment_colours", field="compartments", citation=citation)]


def ring_colours(numbers: tuple[str, ...] | list[str]) -> list[str]:
    """The usual ring's colours of `numbers` (0 and 00 green, pa.RED_NUMBERS red, the others black): one
    colouring that meets § 617a.1(c), (d), which the demo and the forms propose."""
    return [
        str(WheelColour.GREEN if n in ZEROS else WheelColour.RED if int(n) in pa.RED_NUMBERS else WheelColour.BLACK)
        for n in numbers
    ]


def wheel_colours(*, numbers: tuple[str, ...], colours: list[str] | None, citation: str) -> list[Violation]:
    """§ 617a.1(c), (d): the ring's area of 0 (and 00) is green, those of 1 to 36 "colored alternately
    red and black".

    Reading: the text does not say which numbers are red, so any alternation meets it (the red and
    black wagers are settled by the colours on the wheel, § 617a.3); the usual ring (pa.RED_NUMBERS red)
    is one. Alternately means that two numbered areas side by side differ; a green area between two
    of them breaks the run (on the usual double-zero ring 1 and 27, either side of 00, are both red).
    """
    entered = [str(colour).strip().lower() for colour in colours or []]
    if len(entered) != len(numbers):
        return [
            violation("wheel_colours", field="colours", citation=citation, required=len(numbers), entered=len(entered))
        ]
    violations = []
    for index, (number, colour) in enumerate(zip(numbers, entered, strict=True)):
        if number in ZEROS and colour != WheelColour.GREEN:
            violations.append(
                violation(
                    "wheel_colour_green",
                    field=f"colours.{index}",
                    citation=citation,
                    position=index + 1,
                    number=number,
                    entered=colour,
                )
            )
        elif number not in ZEROS and colour not in (WheelColour.RED, WheelColour.BLACK):
            violations.append(
                violation(
                    "wheel_colour_red_or_black",
                    field=f"colours.{index}",
                    citation=citation,
                    position=index + 1,
                    number=number,
                    entered=colour,
                )
            )
    if violations:
        return violations
    for index, number in enumerate(numbers):
        following = (index + 1) % len(numbers)
        neighbour = numbers[following]
        if number not in ZEROS and neighbour not in ZEROS and entered[index] == entered[following]:
            return [
                violation(
                    "wheel_colours_alternate",
                    field=f"colours.{following}",
                    citation=citation,
                    first=number,
                    second=neighbour,
                    colour=entered[index],
                )
            ]
    return []


def big_six_symbol(wager_code: str) -> str:
    """A Big Six wager's symbol as a wheel's section is entered: "1" … "20", "joker", "flag"."""
    return wager_code.removeprefix("big_six_")


# § 619a.1(a): how many of the 54 sections carry each symbol, as the wagers count them (one definition).
BIG_SIX_COUNTS = {big_six_symbol(wager.code): wager.numbers for wager in pa.BIG_SIX_WAGERS.values()}


def _symbol_label(symbol: str) -> str:
    return f"${symbol}" if symbol.isdigit() else symbol


def check_big_six_wheel(
    *, wheel_type: str, diameter_inches: Decimal, sections: list[str], colours: list[str] | None
) -> list[Violation]:
    """§ 619a.1(a), (b) (proposed, 41 Pa.B. 3000): at least 5 feet in diameter, 54 sections with
    23 $1, 15 $2, 8 $5, 4 $10, 2 $20, one flag (or logo) and one joker, arranged clockwise in the
    order of (b), read from the joker.

    Reading: a wheel with the themed symbols of § 619a.1(c) is entered under the dollar symbols they
    stand for (as approved by the Bureau). A Big Six wheel has no Roulette wheel type, and the text
    gives its sections no colours, so neither is registered.
    """
    violations = []
    if wheel_type:
        violations.append(violation("big_six_not_roulette", field="wheel_type", what="single-zero or double-zero type"))
    if colours:
        violations.append(violation("big_six_not_roulette", field="colours", what="colours of a Roulette ring"))
    if diameter_inches < pa.BIG_SIX_WHEEL_MIN_DIAMETER_INCHES:
        violations.append(violation("big_six_wheel_too_small", field="diameter_inches", diameter=diameter_inches))
    entered = tuple(str(symbol).strip().lower().removeprefix("$") for symbol in sections)
    required = pa.BIG_SIX_ORDER
    if len(entered) != len(required):
        violations.append(
            violation("big_six_sections", field="number_order", required=len(required), entered=len(entered))
        )
        return violations
    unknown = [(index, symbol) for index, symbol in enumerate(entered) if symbol not in BIG_SIX_COUNTS]
    for index, symbol in unknown:
        violations.append(
            violation(
                "big_six_symbol_unknown",
                field=f"number_order.{index}",
                position=index + 1,
                entered=symbol,
                symbols=", ".join(_symbol_label(s) for s in BIG_SIX_COUNTS),
            )
        )
    if unknown:
        return violations
    for symbol, count in BIG_SIX_COUNTS.items():
        if entered.count(symbol) != count:
            violations.append(
                violation(
                    "big_six_symbol_count",
                    field="number_order",
                    symbol=_symbol_label(symbol),
                    required=count,
                    entered=entered.count(symbol),
                )
            )
    if not violations and entered != required:
        position = next(i for i, (a, b) in enumerate(zip(entered, required, strict=True)) if a != b)
        violations.append(
            violation(
                "big_six_order",
                field=f"number_order.{position}",
                position=position + 1,
                required=_symbol_label(required[position]),
                entered=_symbol_label(entered[position]),
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
    *, table: Table, wheel_changed: bool, ball_changed: bool, wheel: Wheel | None, ball: Equipment | None
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


# The paragraph that gives a table of the game its wheel: Roulette's (§ 617a.1(b)), Big Six's (§ 619a.1(a)).
WHEEL_OF_GAME: dict[str, str] = {Game.ROULETTE: pa.WHEEL_DIAMETER, Game.BIG_SIX: pa.BIG_SIX_WHEEL}


def table_equipment(*, table: Table, wheel: Wheel | None, ball: Equipment | None) -> list[Violation]:
    """The wheel a table uses is of the table's game (§ 617a.1(b); § 619a.1(a), proposed) and, for
    Roulette, of the table's type (§ 617a.1(c)–(e)); the wheel and ball are of its property."""
    violations = []
    if wheel is not None:
        if wheel.property_id != table.property_id:
            violations.append(violation("equipment_of_other_property/wheel", field="wheel"))
        elif wheel.game != table.game:
            violations.append(
                violation(
                    "wheel_game_mismatch",
                    field="wheel",
                    citation=WHEEL_OF_GAME.get(table.game, pa.NO_WHEEL_AT_CASINO_WAR),
                    table=table.number,
                    table_game=table.get_game_display(),
                    serial=wheel.serial,
                    wheel_game=wheel.get_game_display(),
                )
            )
        elif table.game == Game.ROULETTE and wheel_order_for(wheel.wheel_type) != wheel_order_for(
            table.wheel_type or ""
        ):
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
    elif ball is not None and table.game != Game.ROULETTE:
        violations.append(
            violation("ball_not_applicable", field="ball", table=table.number, game=table.get_game_display())
        )
    return violations


def ball_free(*, ball: Equipment | None, in_use_on: list[str], table: Table | None = None) -> Violation | None:
    """A replacement ball comes from the spares: one ball is never in play on two tables, and the ball
    put on a table (`table`) is not the one already on it."""
    if ball is not None and table is not None and ball.pk == table.ball_id:
        return violation("ball_already_on_table", field="new_ball", serial=ball.serial, table=table.number)
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
