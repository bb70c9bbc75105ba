"""The wheel registered, as the rule alone sees it: a Roulette wheel's ring colours (58 Pa. Code
§ 617a.1(c), (d)) and a Big Six wheel (§ 619a.1(a), (b), proposed, 41 Pa.B. 3000)."""

from collections import Counter
from decimal import Decimal

import pytest

from compliance.rulebook import pa
from compliance.rulebook.equipment import BIG_SIX_COUNTS
from compliance.rulebook.wagers import BIG_SIX_SECTIONS

SINGLE_C = "58 Pa. Code § 617a.1(c)"
DOUBLE_D = "58 Pa. Code § 617a.1(d)"
BIG_SIX_A = "58 Pa. Code § 619a.1(a) (proposed, 41 Pa.B. 3000)"
BIG_SIX_B = "58 Pa. Code § 619a.1(b) (proposed, 41 Pa.B. 3000)"
ORDERS = {"single_zero": (pa.SINGLE_ZERO_ORDER, SINGLE_C), "double_zero": (pa.DOUBLE_ZERO_ORDER, DOUBLE_D)}


def roulette(wheel_type: str, colours, order=None):
    order = order or ORDERS[wheel_type][0]
    return pa.check_wheel(
        wheel_type=wheel_type,
        diameter_inches=Decimal(32),
        number_order=list(order),
        colours=colours,
        compartments="ring",
    )


def big_six(sections, *, diameter="72", wheel_type="", colours=None):
    return pa.check_wheel(
        game="big_six",
        wheel_type=wheel_type,
        diameter_inches=Decimal(diameter),
        number_order=list(sections),
        colours=colours,
        parts=dict.fromkeys(("sections_under_glass", "sections_show_odds", "clapper"), True),
    )


def only(violations, code, citation, field):
    assert [(v.code, v.citation, v.field) for v in violations] == [(code, citation, field)], violations
    return violations[0]


# ---- § 617a.1(c), (d): 0 and 00 green, 1 to 36 alternately red and black ----


@pytest.mark.parametrize("wheel_type", ORDERS)
def test_the_usual_ring_is_accepted(wheel_type):
    order = ORDERS[wheel_type][0]
    colours = pa.ring_colours(order)
    assert roulette(wheel_type, colours) == []
    assert colours.count("red") == colours.count("black") == 18


@pytest.mark.parametrize("wheel_type", ORDERS)
def test_the_other_alternation_is_accepted_since_the_text_names_no_red_number(wheel_type):
    swapped = [{"red": "black", "black": "red"}.get(c, c) for c in pa.ring_colours(ORDERS[wheel_type][0])]
    assert roulette(wheel_type, swapped) == []


@pytest.mark.parametrize("wheel_type", ORDERS)
def test_colours_are_required(wheel_type):
    citation = ORDERS[wheel_type][1]
    v = only(roulette(wheel_type, None), "wheel_colours", citation, "colours")
    assert "0 and 00 green" in v.message
    only(roulette(wheel_type, ["green"]), "wheel_colours", citation, "colours")


def test_zero_is_green():
    colours = pa.ring_colours(pa.SINGLE_ZERO_ORDER)
    colours[0] = "red"
    v = only(roulette("single_zero", colours), "wheel_colour_green", SINGLE_C, "colours.0")
    assert v.message == "Compartment 1 (0) is colored green, not red."


def test_double_zero_is_green():
    colours = pa.ring_colours(pa.DOUBLE_ZERO_ORDER)
    assert pa.DOUBLE_ZERO_ORDER[19] == "00"
    colours[19] = "black"
    only(roulette("double_zero", colours), "wheel_colour_green", DOUBLE_D, "colours.19")


@pytest.mark.parametrize("colour", ["green", "blue"])
def test_a_number_is_red_or_black(colour):
    colours = pa.ring_colours(pa.DOUBLE_ZERO_ORDER)
    colours[1] = colour  # 28
    v = only(roulette("double_zero", colours), "wheel_colour_red_or_black", DOUBLE_D, "colours.1")
    assert "(28)" in v.message


@pytest.mark.parametrize("wheel_type", ORDERS)
def test_two_numbers_side_by_side_of_one_colour_are_refused(wheel_type):
    order, citation = ORDERS[wheel_type]
    colours = pa.ring_colours(order)
    colours[5] = colours[4]
    v = only(roulette(wheel_type, colours), "wheel_colours_alternate", citation, "colours.5")
    assert f"{order[4]} and {order[5]}, side by side" in v.message


def test_the_runs_either_side_of_00_are_independent():
    """On the usual double-zero ring 1 and 27 flank 00 and are both red; 2 and 28 flank 0, both black."""
    colours = pa.ring_colours(pa.DOUBLE_ZERO_ORDER)
    assert (colours[18], colours[20]) == ("red", "red")
    assert (colours[37], colours[1]) == ("black", "black")
    assert roulette("double_zero", colours) == []


def test_colours_are_not_judged_when_the_compartments_are_miscounted():
    only(roulette("single_zero", None, order=pa.DOUBLE_ZERO_ORDER), "wheel_compartments", SINGLE_C, "number_order")


def test_a_roulette_wheel_has_a_type():
    violations = pa.check_wheel(wheel_type="", diameter_inches=Decimal(32), number_order=list(pa.SINGLE_ZERO_ORDER))
    only(violations, "wheel_type_required", "58 Pa. Code § 617a.1(c), (d)", "wheel_type")


# ---- § 619a.1(a), (b) (proposed): the Big Six wheel ----


def test_the_counts_and_the_order_are_one_definition():
    assert Counter(pa.BIG_SIX_ORDER) == Counter(BIG_SIX_COUNTS)
    assert sum(BIG_SIX_COUNTS.values()) == len(pa.BIG_SIX_ORDER) == BIG_SIX_SECTIONS == 54
    assert BIG_SIX_COUNTS == {"1": 23, "2": 15, "5": 8, "10": 4, "20": 2, "joker": 1, "flag": 1}


def test_the_big_six_wheel_of_the_text_is_accepted():
    assert big_six(pa.BIG_SIX_ORDER, diameter="60") == []
    # The dollar sign may be typed with the symbol.
    assert big_six([s if s in ("joker", "flag") else f"${s}" for s in pa.BIG_SIX_ORDER]) == []


def test_a_big_six_wheel_is_at_least_5_feet():
    v = only(big_six(pa.BIG_SIX_ORDER, diameter="59.99"), "big_six_wheel_too_small", BIG_SIX_A, "diameter_inches")
    assert "5 feet (60 inches)" in v.message


def test_a_big_six_wheel_has_54_sections():
    v = only(big_six(pa.BIG_SIX_ORDER[:-1]), "big_six_sections", BIG_SIX_A, "number_order")
    assert "54 sections" in v.message and "53 were entered" in v.message


def test_each_symbol_has_its_count():
    sections = list(pa.BIG_SIX_ORDER)
    sections[1] = "2"  # a $1 section carries $2
    violations = big_six(sections)
    assert [(v.code, v.citation, v.field) for v in violations] == [
        ("big_six_symbol_count", BIG_SIX_A, "number_order"),
        ("big_six_symbol_count", BIG_SIX_A, "number_order"),
    ]
    assert violations[0].message == "A Big Six wheel has 23 sections with the $1 symbol; 22 were entered."


def test_the_sections_are_in_the_order_of_b_read_clockwise_from_the_joker():
    sections = list(pa.BIG_SIX_ORDER)
    sections[3], sections[4] = sections[4], sections[3]  # $1, $5 → $5, $1
    v = only(big_six(sections), "big_six_order", BIG_SIX_B, "number_order.3")
    assert v.message == "Read clockwise from the joker, section 4 must be $1, not $5."
    # Read from another section than the joker, the same wheel is refused too.
    rotated = [*pa.BIG_SIX_ORDER[1:], pa.BIG_SIX_ORDER[0]]
    only(big_six(rotated), "big_six_order", BIG_SIX_B, "number_order.0")


def test_an_unknown_symbol_is_refused():
    sections = list(pa.BIG_SIX_ORDER)
    sections[0] = "cherry"
    only(big_six(sections), "big_six_symbol_unknown", BIG_SIX_A, "number_order.0")


def test_a_big_six_wheel_has_no_roulette_type_or_colours():
    violations = big_six(pa.BIG_SIX_ORDER, wheel_type="double_zero", colours=["green"])
    assert [(v.code, v.citation, v.field) for v in violations] == [
        ("big_six_not_roulette", BIG_SIX_A, "wheel_type"),
        ("big_six_not_roulette", BIG_SIX_A, "colours"),
    ]
