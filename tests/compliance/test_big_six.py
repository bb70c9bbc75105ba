"""Big Six: the 54 sections (§ 619a.1), minimum odds and the clapper between sections, per jurisdiction."""

from collections import Counter
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from compliance.rulebook import nj, pa, s4
from compliance.rulebook.games.big_six import big_six_house_edge, check_big_six_submission
from tests.compliance.test_rules_submissions import draft
from tests.support.api import client_for

SYMBOL = {
    "1": "big_six_1",
    "2": "big_six_2",
    "5": "big_six_5",
    "10": "big_six_10",
    "20": "big_six_20",
    "joker": "joker",
    "flag": "flag",
}
ALL_ODDS = {
    "big_six_1": [1, 1],
    "big_six_2": [2, 1],
    "big_six_5": [5, 1],
    "big_six_10": [10, 1],
    "big_six_20": [20, 1],
    "joker": [45, 1],
    "flag": [45, 1],
}


def test_the_wheel_has_54_sections_in_the_counts_of_619a_1_a():
    assert len(pa.BIG_SIX_ORDER) == 54
    counts = Counter(SYMBOL[s] for s in pa.BIG_SIX_ORDER)
    assert counts == {code: wager.numbers for code, wager in pa.BIG_SIX_WAGERS.items()}


@given(data=st.data(), to=st.integers(1, 200), per=st.integers(1, 4))
def test_the_house_edge_is_the_walk_over_the_sections(data, to, per):
    code = data.draw(st.sampled_from(sorted(pa.BIG_SIX_WAGERS)))
    returned = sum((Fraction(to, per) + 1) for s in pa.BIG_SIX_ORDER if SYMBOL[s] == code) / len(pa.BIG_SIX_ORDER)
    assert big_six_house_edge(wager=pa.BIG_SIX_WAGERS[code], odds=(to, per)) == 1 - returned


def test_known_edges():
    assert big_six_house_edge(wager=pa.BIG_SIX_WAGERS["big_six_1"], odds=(1, 1)) == Fraction(8, 54)
    assert big_six_house_edge(wager=pa.BIG_SIX_WAGERS["joker"], odds=(45, 1)) == Fraction(8, 54)


def codes(rules, payout_odds=None, **options):
    return {
        (v.code, v.citation)
        for v in check_big_six_submission(rules, payout_odds=payout_odds or ALL_ODDS, options=options)
    }


def test_minimum_odds_per_jurisdiction():
    for rules, citation in (
        (pa, "58 Pa. Code § 619a.3 (proposed, 41 Pa.B. 3000)"),
        (nj, "N.J.A.C. 19:47-5.5(a)"),
        (s4, "Section 4(e)(1)"),
    ):
        found = codes(rules, {**ALL_ODDS, "joker": [40, 1]}, big_six_clapper_between="void_and_respin")
        assert found == {("odds_below_minimum", citation)}


def test_pennsylvania_voids_a_spin_between_sections():
    assert codes(pa) == set()
    assert codes(pa, big_six_clapper_between="void_and_respin") == set()
    assert codes(pa, big_six_clapper_between="previous_number") == {
        ("clapper_option", "58 Pa. Code § 619a.2(d) (proposed, 41 Pa.B. 3000)")
    }


def test_new_jersey_and_section_4_choose_and_say_which():
    assert codes(nj) == {("clapper_option", "N.J.A.C. 19:47-5.6(c)")}
    assert codes(nj, big_six_clapper_between="previous_number") == set()
    assert codes(s4, big_six_clapper_between="void_and_respin") == set()
    assert codes(s4, big_six_clapper_between="sometimes") == {("clapper_option", "Section 4(f)(3)")}


def test_a_big_six_rules_submission_through_the_api(casino):
    body = draft(
        client_for(casino.compliance), casino.property, game="big_six", wheel_types=[], payout_odds=ALL_ODDS, options={}
    ).json()
    assert body["violations"] == []
    assert body["house_edge"]["big_six_20"] == {"big_six": round((1 - 2 * 21 / 54) * 100, 4)}
    body = draft(
        client_for(casino.compliance),
        casino.property,
        game="big_six",
        wheel_types=[],
        payout_odds={"straight": [35, 1]},
        options={},
    ).json()
    assert [v["code"] for v in body["violations"]] == ["wager_not_in_jurisdiction"]
