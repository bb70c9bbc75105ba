"""Casino War (Chapter 651a): exact payouts, decks, adjacent boxes; only Pennsylvania's texts have it."""

import pytest

from compliance.rulebook import nj, pa
from tests.compliance.test_rules_submissions import draft
from tests.support.api import client_for

PAYOUTS = {"initial": [1, 1], "tie": [10, 1], "war": [2, 1], "war_tie": [3, 1]}
OPTIONS = {"casino_war_adjacent_boxes": 2, "casino_war_decks": 6}


def codes(payout_odds=None, **options):
    found = pa.check_casino_war_submission(
        payout_odds=PAYOUTS if payout_odds is None else payout_odds, options={**OPTIONS, **options}
    )
    return {(v.code, v.citation, v.field) for v in found}


def test_a_complete_submission_passes():
    assert codes() == set()


def test_payouts_are_exactly_651a_10():
    assert codes({**PAYOUTS, "tie": [11, 1]}) == {
        ("casino_war_odds", "58 Pa. Code § 651a.10(2) (proposed, 41 Pa.B. 3000)", "payout_odds.tie")
    }
    assert ("casino_war_odds", "58 Pa. Code § 651a.10(3) (proposed, 41 Pa.B. 3000)", "payout_odds.war_tie") in codes(
        {k: v for k, v in PAYOUTS.items() if k != "war_tie"}
    )


@pytest.mark.parametrize(
    "decks, shuffler, ok",
    [
        (6, False, True),
        (8, False, True),
        (7, False, False),
        (12, False, False),
        (12, True, True),
        (16, True, True),
        (13, True, False),
        (8, True, False),
    ],
)
def test_decks_per_651a_3(decks, shuffler, ok):
    found = codes(casino_war_decks=decks, automated_shuffler=shuffler)
    assert (found == set()) == ok, found


def test_adjacent_boxes_are_stated():
    assert codes(casino_war_adjacent_boxes=None) == {
        (
            "adjacent_boxes_required",
            "58 Pa. Code § 651a.7(e) (proposed, 41 Pa.B. 3000)",
            "options.casino_war_adjacent_boxes",
        )
    }


def test_new_jersey_has_no_casino_war_in_its_texts(casino):
    found = pa.check_rules_submission(
        game_rules=nj, game="casino_war", wheel_types=[], payout_odds=PAYOUTS, options=OPTIONS
    )
    assert [(v.code, v.citation) for v in found] == [
        (
            "game_not_in_jurisdiction",
            "Product policy: the text held for this jurisdiction, N.J.A.C. 19:47-5 (Roulette and Big Six wheels), "
            "has no Casino War",
        )
    ]


def test_a_casino_war_submission_through_the_api(casino):
    body = draft(
        client_for(casino.compliance),
        casino.property,
        game="casino_war",
        wheel_types=[],
        payout_odds=PAYOUTS,
        options=OPTIONS,
    ).json()
    assert body["violations"] == []
