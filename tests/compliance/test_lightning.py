"""Lightning Roulette (58 Pa. Code § 617c.3): a variation of the straight wager, offered only with it
(§ 617c.3(a), (f)), whose house edge the text does not determine (shown so, never as a flat 29 to 1)."""

import pytest

from compliance.approvals.models import RulesSubmission
from compliance.rulebook import nj, pa, s4
from compliance.rulebook.games.roulette import LIGHTNING_EDGE_NOTE, check_roulette_submission, house_edges
from tests.compliance.test_rules_submissions import draft
from tests.support.api import client_for

LUCKY = [499, 399, 349, 299, 249, 199, 149, 99, 49]
LIGHTNING = {"lightning_payouts": LUCKY}
CITATION = "58 Pa. Code § 617c.3(a), (f)"


def found(rules, payout_odds, options):
    return {
        (v.code, v.citation, v.field)
        for v in check_roulette_submission(rules, wheel_types=["single_zero"], payout_odds=payout_odds, options=options)
    }


def test_lightning_with_the_straight_wager_is_accepted():
    assert found(pa, {"straight": [29, 1], "split": [17, 1]}, LIGHTNING) == set()


def test_lightning_without_the_straight_wager_is_refused():
    assert found(pa, {"split": [17, 1]}, LIGHTNING) == {
        ("lightning_without_straight", CITATION, "payout_odds.straight")
    }


def test_no_lightning_needs_no_straight():
    assert found(pa, {"split": [17, 1]}, {}) == set()


@pytest.mark.parametrize("rules", [nj, s4], ids=["NJ", "S4"])
def test_lightning_is_pennsylvanias_only(rules):
    """New Jersey's and Section 4's texts have no Lightning Roulette: the option itself is refused."""
    codes = {code for code, _, _ in found(rules, {"split": [17, 1]}, {"lightning_payouts": LUCKY})}
    assert "option_not_in_jurisdiction" in codes
    assert "lightning_without_straight" not in codes


def test_the_straights_edge_under_lightning_is_not_computed_from_29_to_1():
    edges = house_edges(
        game_rules=pa,
        wheel_types=["single_zero"],
        payout_odds={"straight": [29, 1], "split": [17, 1]},
        options=LIGHTNING,
    )
    assert edges["straight"] == {"single_zero": None}
    assert edges["split"] == {"single_zero": 2.7027}
    plain = house_edges(game_rules=pa, wheel_types=["single_zero"], payout_odds={"straight": [35, 1]}, options={})
    assert plain["straight"] == {"single_zero": 2.7027}


def test_the_api_refuses_lightning_without_a_straight(casino):
    body = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["single_zero"],
        payout_odds={"split": [17, 1]},
        options=LIGHTNING,
    ).json()
    assert {(v["code"], v["citation"], v["field"]) for v in body["violations"]} == {
        ("lightning_without_straight", CITATION, "payout_odds.straight")
    }


def test_the_api_shows_the_straights_edge_as_null_with_its_reason(casino):
    body = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["single_zero"],
        payout_odds={"straight": [29, 1], "split": [17, 1]},
        options=LIGHTNING,
    ).json()
    assert body["violations"] == []
    assert body["house_edge"]["straight"] == {"single_zero": None}
    assert body["house_edge"]["split"] == {"single_zero": 2.7027}
    assert body["house_edge_notes"] == {"straight": LIGHTNING_EDGE_NOTE}
    plain = draft(client_for(casino.compliance), casino.property, options={}).json()
    assert plain["house_edge_notes"] == {}


def test_the_submission_page_says_the_edge_is_not_determinable(client, casino):
    submission = RulesSubmission.objects.create(
        property=casino.property,
        game="roulette",
        version=1,
        effective_from="2026-12-01",
        wheel_types=["single_zero"],
        payout_odds={"straight": [29, 1], "split": [17, 1]},
        options=LIGHTNING,
        created_by=casino.compliance,
    )
    client.force_login(casino.compliance)
    page = client.get(f"/rules-submissions/{submission.pk}/").content.decode()
    assert 'data-edge="not-determinable"' in page
    assert "Not determinable from the text" in page
