"""The last citation slips (issue 31, item 3): each refusal cites the paragraph that says it, at a
table of each jurisdiction where it applies; what the product holds no text for, or sets itself, is
product policy and says so; Chapter 651a is cited as proposed, in the signed log's own words too."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from compliance.rulebook import game_rules_for, rulebook_for
from inspections.logbook.models import Entry, Signature
from tests.compliance.test_jurisdiction_citations import JURISDICTIONS, borrowed, own
from tests.factories import GamingTableFactory, PropertyFactory, configure_for_opening
from tests.inspections.test_casino_war_logbook import change_decks, war_event, war_irregularity, war_table
from tests.support.api import assert_refused, client_for, signature
from tests.support.logbook import ALL_PASS, event, inspect, refused
from tests.support.people import staff_of

NO_CASINO_WAR = {
    "NJ": (
        "Product policy: the text held for this jurisdiction, N.J.A.C. 19:47-5 (Roulette and Big Six wheels), "
        "has no Casino War"
    ),
    "S4": (
        "Product policy: the text held for this jurisdiction, Section 4 (Roulette and Big Six Wheels Rules), "
        "has no Casino War"
    ),
}
BALL_ROULETTE_ONLY = (
    "Product policy: only a Roulette table has a ball (58 Pa. Code § 617a.1(a) describes the Roulette ball; "
    "neither § 619a.1 (proposed, 41 Pa.B. 3000) nor § 651a.2 (proposed, 41 Pa.B. 3000) has one)"
)


def staff(code: str) -> SimpleNamespace:
    return staff_of(PropertyFactory(name=f"House {code}", jurisdiction=code))


@pytest.fixture(params=JURISDICTIONS)
def house(request, db):
    """A property of each jurisdiction, with its staff and one double-zero table ready to open."""
    people = staff(request.param)
    people.table = configure_for_opening(
        GamingTableFactory(property=people.property, number="R-01"), created_by=people.compliance
    )
    people.code = request.param
    return people


# ---- The no-spin kind for the game: the jurisdiction's own irregularities paragraph ----


def test_a_shuffler_reason_at_a_roulette_table_cites_the_jurisdictions_irregularities(house):
    """§ 617a.6; N.J.A.C. 19:47-5.4; Section 4(d): never Pennsylvania's paragraph bare elsewhere."""
    inspect(house)
    event(house, "open")
    citation = own(house.code, "58 Pa. Code § 617a.6", "N.J.A.C. 19:47-5.4", "Section 4(d)")
    found = refused(
        lambda: war_irregularity(house, house.table, "shuffler_failed"), "irregularity_kind_for_game", citation
    )
    assert {v.citation for v in found} == {citation}


# ---- Casino War where the text has none ----


@pytest.mark.parametrize("code", ["NJ", "S4"])
def test_a_casino_war_table_takes_no_deck_change_where_the_text_has_no_casino_war(db, code):
    people = staff(code)
    table = war_table(people, shuffler=None)
    for decks in (6, 7):
        found = refused(
            lambda decks=decks: change_decks(people, table, decks), "game_not_in_jurisdiction", NO_CASINO_WAR[code]
        )
        # The game's refusal alone: no Chapter 651a deck count is judged for a game the text lacks.
        assert [(v.code, v.citation) for v in found] == [("game_not_in_jurisdiction", NO_CASINO_WAR[code])]
    refused(lambda: war_event(people, table, "open"), "game_not_in_jurisdiction", NO_CASINO_WAR[code])


def test_pennsylvania_casino_war_takes_its_deck_change_and_cites_its_deck_counts_as_proposed(db):
    people = staff("PA")
    table = war_table(people, shuffler=None)
    assert change_decks(people, table, 6).details["decks"] == 6
    refused(
        lambda: change_decks(people, table, 7), "casino_war_decks", "58 Pa. Code § 651a.3(a) (proposed, 41 Pa.B. 3000)"
    )


@pytest.mark.parametrize("code", ["NJ", "S4"])
def test_a_casino_war_rules_submission_is_refused_as_product_policy(code):
    found = rulebook_for(code).check_rules_submission(
        game_rules=game_rules_for(code), game="casino_war", wheel_types=[], payout_odds={}, options={}
    )
    assert [(v.code, v.citation) for v in found] == [("game_not_in_jurisdiction", NO_CASINO_WAR[code])]


def test_a_casino_war_rules_submission_is_refused_through_the_api(db):
    people = staff("NJ")
    response = client_for(people.compliance).post(
        "/api/rules-submissions/",
        {"property": people.property.pk, "game": "casino_war", "effective_from": "2030-01-01", "payout_odds": {}},
        format="json",
    )
    if response.status_code == 201:  # saved as a draft with its violations
        violations = response.json()["violations"]
        assert {(v["code"], v["citation"]) for v in violations} == {("game_not_in_jurisdiction", NO_CASINO_WAR["NJ"])}
    else:
        assert_refused(response, "game_not_in_jurisdiction", NO_CASINO_WAR["NJ"])


# ---- The signed log's own words cite Chapter 651a as proposed ----


def test_the_signed_log_cites_the_casino_war_paragraphs_as_proposed(db):
    people = staff("PA")
    table = war_table(people, shuffler=True, decks=12)
    change_decks(people, table, 12)
    opening = war_event(people, table, "open", cards="preinspected")
    assert opening.description == (
        "Table opened for play; decks received preinspected and preshuffled "
        "(58 Pa. Code § 651a.4(e) (proposed, 41 Pa.B. 3000))"
    )
    assert war_irregularity(people, table, "shuffler_failed").description == (
        "Irregularity: automated card shuffling device jammed, stopped or did not complete its cycle: cards "
        "reshuffled (58 Pa. Code § 651a.11(d) (proposed, 41 Pa.B. 3000))"
    )
    assert war_irregularity(people, table, "shuffler_out_of_order").description.endswith(
        "(58 Pa. Code § 651a.11(e) (proposed, 41 Pa.B. 3000))"
    )
    war_event(people, table, "close")
    assert war_event(people, table, "open", cards="inspected").description == (
        "Table opened for play; cards inspected by the dealer and spread for the first player "
        "(58 Pa. Code § 651a.4(a)–(d) (proposed, 41 Pa.B. 3000))"
    )


def test_a_ball_at_a_casino_war_table_is_refused_as_product_policy(db):
    """§ 651a.11 says nothing of a ball: a Casino War table has none (§ 651a.2, proposed)."""
    people = staff("PA")
    table = war_table(people, shuffler=True, decks=12)
    change_decks(people, table, 12)
    war_event(people, table, "open")
    refused(
        lambda: war_irregularity(people, table, "shuffler_failed", ball_replaced=True),
        "irregularity_kind_for_game",
        BALL_ROULETTE_ONLY,
    )


# ---- Layout decisions: the layout paragraph of the layout's own game ----


LAYOUT_PARAGRAPH = {
    "roulette": ("58 Pa. Code § 617a.1(f)", "sets no layout minimum"),
    "big_six": ("58 Pa. Code § 619a.1(g) (proposed, 41 Pa.B. 3000)", "sets no such Big Six rule"),
    "casino_war": ("58 Pa. Code § 651a.2(b) (proposed, 41 Pa.B. 3000)", "has no Casino War"),
}


@pytest.mark.parametrize("code", JURISDICTIONS)
@pytest.mark.parametrize("game", ["roulette", "big_six", "casino_war"])
def test_a_layout_decision_cites_the_layout_paragraph_of_its_game(code, game):
    rules = rulebook_for(code)
    layout = SimpleNamespace(
        status="approved",
        game=game,
        property=SimpleNamespace(jurisdiction=code),
        get_status_display=lambda: "Approved",
    )
    floor = SimpleNamespace(role="floorperson", jurisdiction="")
    citation = borrowed(code, *LAYOUT_PARAGRAPH[game])
    found = {(v.code, v.citation) for v in rules.may_decide_layout(layout, signer=floor) if v}
    assert found == {("layout_not_pending", citation), ("approver_role", citation)}
    (unknown,) = [
        v
        for v in rules.check_layout(features=["marquee"], tables=[], options=None, game=game)
        if v.field and v.field.startswith("features.")
    ]
    assert (unknown.code, unknown.citation) == ("layout_feature_unknown", citation)


# ---- Item (5) and its condition are § 617a.2(a)(5) ----


@pytest.mark.parametrize("wheel_type", ["single_zero", "double_zero"])
def test_item_5_at_another_wheel_cites_the_item_and_its_condition(house, wheel_type):
    table = GamingTableFactory(property=house.property, number="R-02", wheel_type=wheel_type)
    house.table = configure_for_opening(table, created_by=house.compliance)
    refused(
        lambda: inspect(house, items={**ALL_PASS, "layout_and_signage_00": True}),
        "checklist_item_not_applicable",
        borrowed(house.code, "58 Pa. Code § 617a.2(a)(5)", "sets no procedure"),
    )


# ---- Pennsylvania's half-loss refusal is § 617a.4(b) ----


def test_pennsylvania_refuses_the_half_loss_option_by_the_paragraph_that_loses_the_whole_wager():
    found = rulebook_for("PA").check_rules_submission(
        game_rules=game_rules_for("PA"),
        game="roulette",
        wheel_types=["double_zero"],
        payout_odds={"straight": [35, 1]},
        options={"double_zero_loss": "half"},
    )
    assert [(v.code, v.citation) for v in found] == [("option_not_in_jurisdiction", "58 Pa. Code § 617a.4(b)")]


@pytest.mark.parametrize("code", ["NJ", "S4"])
def test_an_option_new_jersey_and_section_4_lack_still_cites_their_wagers_paragraph(code):
    rules = game_rules_for(code)
    found = rulebook_for(code).check_rules_submission(
        game_rules=rules,
        game="roulette",
        wheel_types=["single_zero"],
        payout_odds={"straight": [35, 1]},
        options={"touchdown_paytable": "A"},
    )
    assert [(v.code, v.citation) for v in found] == [("option_not_in_jurisdiction", rules.WAGERS_CITATION)]


# ---- The witness is § 617a.2(b)'s "in the presence of a security department member" ----


def test_an_adjustment_without_a_witness_is_refused_by_the_paragraph_that_asks_for_one(house):
    response = client_for(house.maintenance).post(
        "/api/adjustments/",
        {
            "table": house.table.pk,
            "kind": "adjustment",
            "part": "ball track",
            "description": "Tightened the ball track",
            "performer": signature(house.maintenance),
        },
        format="json",
    )
    assert_refused(
        response, "witness_required", borrowed(house.code, "58 Pa. Code § 617a.2(b)", "sets no procedure"), "witness"
    )
    assert Entry.objects.count() == Signature.objects.count() == 0
    with_witness = client_for(house.maintenance).post(
        "/api/adjustments/",
        {
            "table": house.table.pk,
            "kind": "adjustment",
            "part": "ball track",
            "description": "Tightened the ball track",
            "performer": signature(house.maintenance),
            "witness": signature(house.security),
        },
        format="json",
    )
    assert with_witness.status_code == 201, with_witness.content


def test_a_credential_number_kept_after_signing_is_product_policy(db):
    rules = rulebook_for("PA")
    person = SimpleNamespace(full_name="Ana Ruiz", username="ana", credential_number="BC-1")
    (found,) = rules.person_may_change(person=person, changed={"credential_number"}, has_signed=True)
    assert (found.code, found.citation) == (
        "credential_number_signed",
        "Product policy, derived from 58 Pa. Code § 617a.2(e)",
    )


# ---- The catalogue read again: what a paragraph does not say is product policy ----


@pytest.mark.parametrize("code", JURISDICTIONS)
def test_a_submission_without_wheel_types_and_a_filed_version_are_product_policy(code):
    """§ 617a.1(c)–(e) describe the wheels, not what a Rules Submission names; § 601a.2 is not among the
    texts held, so that a filed version is never rewritten is the product's own rule."""
    rules = rulebook_for(code)
    found = rules.check_rules_submission(
        game_rules=game_rules_for(code), game="roulette", wheel_types=[], payout_odds={"straight": [35, 1]}, options={}
    )
    assert [(v.code, v.citation) for v in found] == [
        (
            "wheel_types_required",
            "Product policy: a Roulette Rules Submission names the wheel types it is for "
            "(58 Pa. Code § 617a.1(c)–(e) describe the wheels)",
        )
    ]
    filed = SimpleNamespace(status="filed", version=2, get_status_display=lambda: "Filed")
    assert rules.may_edit_submission(submission=filed).citation == (
        "Product policy: a filed Rules Submission is never rewritten; a change is a new version "
        "(58 Pa. Code § 601a.2, relating to table games Rules Submissions)"
    )
