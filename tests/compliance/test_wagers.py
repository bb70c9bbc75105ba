"""Minimum odds, options and the house edge, per jurisdiction (§ 617a.4; N.J.A.C. 19:47-5.2; Section 4(b))."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compliance.rulebook import nj, pa, s4
from compliance.rulebook.games.roulette import check_roulette_submission
from compliance.rulebook.wagers import house_edge

RED = {str(n) for n in pa.RED_NUMBERS}
NUMBERS = {str(n) for n in range(1, 37)}
# One instance of each wager's winning pockets, written out independently of the rulebook's counts.
COVERED = {
    "straight": {"17"},
    "split": {"17", "20"},
    "three_numbers": {"1", "2", "3"},
    "four_numbers": {"1", "2", "4", "5"},
    "first_five": {"0", "00", "1", "2", "3"},
    "six_numbers": {"1", "2", "3", "4", "5", "6"},
    "seven_numbers": {"10", "11", "12", "13", "14", "15", "33"},
    "six_numbers_color": {"3", "7", "11", "19", "28", "34"},
    "seven_numbers_color": {"0", "3", "7", "11", "19", "28", "34"},
    "eight_numbers_color": {"0", "00", "3", "7", "11", "19", "28", "34"},
    "column": {str(n) for n in range(1, 37, 3)},
    "dozen": {str(n) for n in range(1, 13)},
    "red": RED,
    "black": NUMBERS - RED,
    "odd": {str(n) for n in range(1, 37, 2)},
    "even": {str(n) for n in range(2, 37, 2)},
    "low": {str(n) for n in range(1, 19)},
    "high": {str(n) for n in range(19, 37)},
}
EVEN_MONEY = {"red", "black", "odd", "even", "low", "high"}
JURISDICTIONS = {"PA": pa, "NJ": nj, "S4": s4}


def expected_return(code: str, odds, wheel_type: str, loss: str) -> Fraction:
    """Walk the wheel's pockets; on a double-zero wheel used as single-zero, 00 is void and respun."""
    ring = pa.SINGLE_ZERO_ORDER if wheel_type == "single_zero" else pa.DOUBLE_ZERO_ORDER
    if wheel_type == "double_zero_as_single_zero":
        ring = tuple(p for p in ring if p != "00")
    total = Fraction(0)
    for pocket in ring:
        if pocket in COVERED[code]:
            total += Fraction(odds[0], odds[1]) + 1
        elif code in EVEN_MONEY and pocket in ("0", "00") and wheel_type == "double_zero" and loss == "half":
            total += Fraction(1, 2)
    return total / len(ring)


def test_known_house_edges():
    straight = pa.WAGERS["straight"]
    assert house_edge(wager=straight, odds=(35, 1), wheel_type="double_zero") == Fraction(2, 38)
    assert house_edge(wager=straight, odds=(35, 1), wheel_type="single_zero") == Fraction(1, 37)
    assert house_edge(wager=straight, odds=(35, 1), wheel_type="double_zero_as_single_zero") == Fraction(1, 37)
    assert house_edge(wager=pa.WAGERS["first_five"], odds=(6, 1), wheel_type="double_zero") == Fraction(3, 38)
    assert house_edge(
        wager=nj.WAGERS["red"], odds=(1, 1), wheel_type="double_zero", double_zero_loss="half"
    ) == Fraction(1, 38)


@given(
    jurisdiction=st.sampled_from(sorted(JURISDICTIONS)),
    data=st.data(),
    odds=st.tuples(st.integers(1, 2000), st.integers(1, 5)),
    wheel_type=st.sampled_from(["single_zero", "double_zero", "double_zero_as_single_zero"]),
    loss=st.sampled_from(["half", "all"]),
)
def test_the_house_edge_is_the_exact_expectation_over_the_pockets(jurisdiction, data, odds, wheel_type, loss):
    rules = JURISDICTIONS[jurisdiction]
    code = data.draw(st.sampled_from(sorted(rules.WAGERS)))
    wager = rules.WAGERS[code]
    if wheel_type not in wager.wheels:
        return
    assert house_edge(wager=wager, odds=odds, wheel_type=wheel_type, double_zero_loss=loss) == 1 - expected_return(
        code, odds, wheel_type, loss
    )


@given(
    jurisdiction=st.sampled_from(sorted(JURISDICTIONS)), data=st.data(), to=st.integers(1, 5000), per=st.integers(1, 10)
)
def test_nothing_below_the_minimum_is_ever_accepted(jurisdiction, data, to, per):
    rules = JURISDICTIONS[jurisdiction]
    code = data.draw(st.sampled_from(sorted(rules.WAGERS)))
    wager = rules.WAGERS[code]
    wheel = sorted(wager.wheels)[0]
    options = {"double_zero_loss": "all"} if wheel == "double_zero" and "double_zero_loss" in rules.OPTIONS else {}
    violations = check_roulette_submission(rules, wheel_types=[wheel], payout_odds={code: [to, per]}, options=options)
    below = Fraction(to, per) < Fraction(*wager.minimum)
    assert any(v.code == "odds_below_minimum" and v.citation == wager.citation for v in violations) == below
    assert (violations == []) == (not below)


OPTION_VALUES = st.fixed_dictionaries(
    {},
    optional={
        "five_adjacent": st.sampled_from([True, False, "yes"]),
        "touchdown_paytable": st.sampled_from(["A", "B", "C", "D", "E", 1, None]),
        "b2b_payouts": st.sampled_from([[1000, 500, 250, 100, 50, 25, 10], [1000, 500], [], "all"]),
        "blazing7_paytable": st.sampled_from([1, 2, 3, 4, 5, "1", None]),
        "lightning_payouts": st.sampled_from([[499, 399, 349, 299, 249, 199, 149, 99, 49], [499], None]),
        "double_zero_loss": st.sampled_from(["half", "all", "some", None]),
        "nonsense": st.just(True),
    },
)


@given(
    jurisdiction=st.sampled_from(sorted(JURISDICTIONS)),
    options=OPTION_VALUES,
    wheel_types=st.lists(
        st.sampled_from(["single_zero", "double_zero", "double_zero_as_single_zero"]),
        min_size=1,
        max_size=3,
        unique=True,
    ),
)
def test_any_option_combination_is_answered_with_cited_violations(jurisdiction, options, wheel_types):
    rules = JURISDICTIONS[jurisdiction]
    violations = check_roulette_submission(
        rules, wheel_types=wheel_types, payout_odds={"straight": [35, 1]}, options=options
    )
    for violation in violations:
        assert violation.citation, violation
        assert violation.field.startswith(("options.", "payout_odds.")), violation
    if options.get("nonsense"):
        assert any(v.field == "options.nonsense" for v in violations)


def codes(rules, *, wheel_types=("double_zero",), payout_odds=None, **options):
    found = check_roulette_submission(
        rules, wheel_types=list(wheel_types), payout_odds=payout_odds or {"straight": [35, 1]}, options=options
    )
    return {(v.code, v.citation) for v in found}


def test_touchdown_paytables_are_a_to_d_on_a_double_zero_wheel():
    assert codes(pa, touchdown_paytable="B") == set()
    assert ("paytable_not_listed", "58 Pa. Code § 617a.4(d)") in codes(pa, touchdown_paytable="E")
    assert ("option_wheel_type", "58 Pa. Code § 617a.1(f)(5)") in codes(
        pa, wheel_types=["single_zero"], touchdown_paytable="A"
    )


def test_b2b_includes_every_payout():
    assert codes(pa, b2b_payouts=[1000, 500, 250, 100, 50, 25, 10]) == set()
    assert ("payouts_incomplete", "58 Pa. Code § 617c.1(e)") in codes(pa, b2b_payouts=[1000, 500])


def test_blazing_7s_paytable_is_one_of_four():
    assert codes(pa, blazing7_paytable=4) == set()
    assert ("paytable_not_listed", "58 Pa. Code § 617c.2(j)") in codes(pa, blazing7_paytable=5)


def test_lightning_roulette_is_single_zero_and_pays_a_plain_straight_29_to_1():
    lucky = [499, 399, 349, 299, 249, 199, 149, 99, 49]
    assert codes(pa, wheel_types=["single_zero"], payout_odds={"straight": [29, 1]}, lightning_payouts=lucky) == set()
    assert ("lightning_straight_odds", "58 Pa. Code § 617c.3(f)") in codes(
        pa, wheel_types=["single_zero"], lightning_payouts=lucky
    )
    assert ("option_wheel_type", "58 Pa. Code § 617c.3(a)") in codes(
        pa, payout_odds={"straight": [29, 1]}, lightning_payouts=lucky
    )
    assert ("payouts_incomplete", "58 Pa. Code § 617c.3(g)") in codes(
        pa, wheel_types=["single_zero"], payout_odds={"straight": [29, 1]}, lightning_payouts=[499]
    )


def test_first_five_needs_a_double_zero_layout():
    assert ("wager_wheel_type", "58 Pa. Code § 617a.3(e)(5)") in codes(
        pa, wheel_types=["single_zero"], payout_odds={"first_five": [6, 1]}
    )


def test_pennsylvania_has_no_seven_numbers_and_no_half_loss():
    assert ("wager_not_in_jurisdiction", "58 Pa. Code § 617a.3(e)") in codes(pa, payout_odds={"seven_numbers": [4, 1]})
    assert ("option_not_in_jurisdiction", "58 Pa. Code § 617a.4(b)") in codes(pa, double_zero_loss="half")


@pytest.mark.parametrize("rules, citation", [(nj, "N.J.A.C. 19:47-5.2(b)"), (s4, "Section 4(b)(2)")])
def test_the_half_loss_choice_is_stated_for_a_double_zero_wheel(rules, citation):
    assert ("double_zero_loss_required", citation) in codes(rules)
    assert codes(rules, double_zero_loss="half") == set()
    assert codes(rules, wheel_types=["single_zero"]) == set()


def test_new_jersey_colour_wagers_exclude_red_black_and_dozen():
    offered = {"eight_numbers_color": [3, 1], "red": [1, 1], "dozen": [2, 1]}
    found = codes(nj, payout_odds=offered, double_zero_loss="all")
    assert ("color_wager_with_red_black", "N.J.A.C. 19:47-5.1(g)") in found
    assert ("color_wager_with_dozen", "N.J.A.C. 19:47-5.1(g)") in found
    assert codes(nj, payout_odds={"six_numbers_color": [5, 1], "dozen": [2, 1]}, double_zero_loss="all") == set()
    assert ("wager_wheel_type", "N.J.A.C. 19:47-5.1(e)7") in codes(
        nj, payout_odds={"seven_numbers_color": [4, 1]}, double_zero_loss="all"
    )


def test_section_4_has_seven_numbers_but_no_colour_wagers():
    assert codes(s4, wheel_types=["single_zero"], payout_odds={"seven_numbers": [4, 1]}) == set()
    assert ("wager_not_in_jurisdiction", "Section 4(a)(5)") in codes(
        s4, wheel_types=["single_zero"], payout_odds={"six_numbers_color": [5, 1]}
    )


@pytest.mark.parametrize("value", [[35], ["35", 1], [35, 0], 35, [True, 1], None])
def test_malformed_odds_are_named(value):
    assert ("odds_format", None) in codes(pa, payout_odds={"straight": value})
