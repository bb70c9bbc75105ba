"""Each jurisdiction's own text (issue 19, item 2): a refusal at a New Jersey or Section 4 table
cites that text's paragraph where it has one, and Pennsylvania's marked "applied by policy" where
it is silent; product policy says so; Chapters 619a and 651a are cited as proposed.
docs/readings.md gives the readings these tests hold the code to."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest

from compliance.rulebook import rulebook_for
from compliance.rulebook.games.big_six import check_big_six_submission
from inspections.logbook import services
from tests.factories import GamingTableFactory, PropertyFactory, artwork_upload, configure_for_opening
from tests.support.api import assert_refused, client_for, signature
from tests.support.logbook import event, inspect, refused
from tests.support.people import sign, staff_of

BASIC = ["name_or_logo", "betting_areas", "min_max_signage", "drop_box", "tip_box"]
JURISDICTIONS = ["PA", "NJ", "S4"]
TEXT = {"NJ": "N.J.A.C. 19:47-5", "S4": "Section 4"}
TABLE_STATES = "Product policy: the table's states (no paragraph governs opening an open table or closing one not open)"
EVENT_ROLES = (
    "Product policy: a security officer or floorperson of the property records the table's events "
    "(no paragraph names who opens, closes, covers, unlocks, records a no spin or a deck change)"
)
REINSPECTION = (
    "Product policy: the property's re-inspection interval (58 Pa. Code § 617a.2(a) requires an inspection "
    "before opening only)"
)


def borrowed(code: str, citation: str, silent: str) -> str:
    """Pennsylvania's paragraph as a table of `code` cites it."""
    return citation if code == "PA" else f"{citation} (applied by policy: {TEXT[code]} {silent})"


def own(code: str, pa: str, nj: str, s4: str) -> str:
    return {"PA": pa, "NJ": nj, "S4": s4}[code]


@pytest.fixture(params=JURISDICTIONS)
def house(request, db):
    """A property of each jurisdiction, with its staff and one double-zero table ready to open."""
    staff = staff_of(PropertyFactory(name=f"House {request.param}", jurisdiction=request.param))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01"), created_by=staff.compliance
    )
    staff.code = request.param
    return staff


# ---- Borrowed: the § 617a.2 procedure and the opening gate ----


def test_opening_without_an_inspection_cites_the_procedure_borrowed_or_own(house):
    refused(
        lambda: event(house, "open"),
        "no_inspection",
        borrowed(house.code, "58 Pa. Code § 617a.2(a)", "sets no procedure"),
    )
    inspect(house)
    assert event(house, "open").kind == "open"


def test_an_amendment_refused_cites_product_policy_derived_from_the_log_paragraph(house):
    """§ 617a.2(e) asks for the log, not for a way to correct it: an amendment's rules are the
    product's policy, saying the paragraph they derive from, at every jurisdiction's table."""
    entry = inspect(house)
    citation = "Product policy, derived from 58 Pa. Code § 617a.2(e)"

    def amend(who, correction):
        return lambda: services.amendment_record(
            entry_id=entry.pk,
            reason="Typed the wrong result.",
            correction=correction,
            signature=sign(who),
            recorded_by=who,
        )

    refused(amend(house.compliance, {}), "correction_empty", citation)
    refused(amend(house.security, {"notes": "x"}), "amender_role", citation)
    assert amend(house.compliance, {"notes": "Checked again."})().kind == "amendment"


def test_a_wheel_left_uncovered_is_flagged_with_the_borrowed_paragraph(house):
    kinds = rulebook_for(house.code).FLAG_KINDS_BY_CODE
    assert kinds["not_covered"].citation == borrowed(house.code, "58 Pa. Code § 617a.2(f)", "sets no procedure")
    assert kinds["inspection_stale"].citation == REINSPECTION


def test_an_inspection_item_cites_the_borrowed_paragraph(house):
    items = rulebook_for(house.code).CHECKLIST_BY_CODE
    assert items["parts_secure"].citation == borrowed(house.code, "58 Pa. Code § 617a.2(a)(4)", "sets no procedure")
    refused(
        lambda: inspect(house, items={"ball_non_magnetic": True}),
        "checklist_item_missing",
        borrowed(house.code, "58 Pa. Code § 617a.2(a)(2)", "sets no procedure"),
    )


@pytest.mark.parametrize("code", JURISDICTIONS)
def test_equipment_standards_are_borrowed(code):
    rules = rulebook_for(code)
    order = list(rules.wheel_order_for("single_zero"))
    wheel = {
        "wheel_type": "single_zero",
        "number_order": order,
        "colours": rules.ring_colours(order),
        "compartments": "ring",
    }
    assert rules.check_wheel(diameter_inches=Decimal(30), **wheel) == []
    (small,) = rules.check_wheel(diameter_inches=Decimal(29), **wheel)
    assert (small.code, small.citation) == (
        "wheel_too_small",
        borrowed(code, "58 Pa. Code § 617a.1(b)", "sets no equipment standard"),
    )


# ---- Product policy, never law ----


def test_closing_a_table_not_open_is_product_policy(house):
    refused(lambda: event(house, "close"), "table_not_open", TABLE_STATES)
    inspect(house)
    event(house, "open")
    assert event(house, "close").kind == "close"


def test_who_records_an_event_is_product_policy(house):
    inspect(house)
    refused(lambda: event(house, "open", who=house.maintenance), "signer_role", EVENT_ROLES)
    assert event(house, "open", who=house.floorperson).kind == "open"


# ---- Own paragraphs: irregularities (§ 617a.6; N.J.A.C. 19:47-5.4; Section 4(d)) ----


def no_spin(house, kind):
    return services.irregularity_record(
        table_id=house.table.pk, kind=kind, signature=sign(house.floorperson), recorded_by=house.floorperson
    )


def test_a_no_spin_on_a_closed_table_cites_the_jurisdictions_own_paragraph(house):
    citation = own(house.code, "58 Pa. Code § 617a.6", "N.J.A.C. 19:47-5.4", "Section 4(d)")
    refused(lambda: no_spin(house, "same_direction"), "table_not_open", citation)
    inspect(house)
    event(house, "open")
    assert no_spin(house, "same_direction").kind == "irregularity"


def test_a_ball_leaving_the_wheel_is_a_no_spin_only_where_the_text_lists_it(house):
    """Pennsylvania lists four kinds (§ 617a.6(a)–(d)); New Jersey and Section 4 three."""
    inspect(house)
    event(house, "open")
    response = client_for(house.floorperson).post(
        "/api/irregularities/",
        {"table": house.table.pk, "kind": "ball_left_wheel", "signature": signature(house.floorperson)},
        format="json",
    )
    if house.code == "PA":
        assert response.status_code == 201, response.content
    else:
        citation = own(house.code, "", "N.J.A.C. 19:47-5.4", "Section 4(d)")
        assert_refused(response, "irregularity_kind_not_in_jurisdiction", citation, "irregularity")
    kinds = [kind for kind, _ in rulebook_for(house.code).IRREGULARITY_KINDS]
    assert ("ball_left_wheel" in kinds) == (house.code == "PA")


# ---- Own paragraphs: the layout (the wheel replica, the notices, the designated areas) ----


def tables(*wheel_types):
    return [SimpleNamespace(number=f"R-{i}", wheel_type=w, electronic=False) for i, w in enumerate(wheel_types)]


def missing(code, features, **kwargs):
    return {
        v.citation
        for v in rulebook_for(code).check_layout(features=features, **kwargs)
        if v.code == "layout_feature_missing"
    }


@pytest.mark.parametrize("code", JURISDICTIONS)
def test_the_wheel_replica_cites_the_jurisdictions_own_paragraph(code):
    citation = own(code, "58 Pa. Code § 617a.1(f)(4)", "N.J.A.C. 19:47-5.1(e)1.i(1)", "Section 4(a)(5)(i)(A)(1)")
    kwargs = {"tables": tables("single_zero"), "options": {"five_adjacent": True}}
    assert missing(code, BASIC, **kwargs) == {citation}
    assert missing(code, [*BASIC, "wheel_replica"], **kwargs) == set()


@pytest.mark.parametrize("code", JURISDICTIONS)
def test_the_notice_of_the_double_zero_option_in_effect(code):
    """N.J.A.C. 19:47-5.2(b), Section 4(b)(2); Pennsylvania has no half-loss option to give notice of."""
    citation = own(code, "", "N.J.A.C. 19:47-5.2(b)", "Section 4(b)(2)")
    kwargs = {"tables": tables("double_zero"), "options": None}
    assert missing(code, BASIC, **kwargs) == ({citation} if code != "PA" else set())
    assert missing(code, [*BASIC, "double_zero_option_notice"], **kwargs) == set()
    assert missing(code, BASIC, tables=tables("single_zero"), options=None) == set()


@pytest.mark.parametrize("code", JURISDICTIONS)
def test_the_single_zero_notice_of_a_double_zero_wheel(code):
    citations = missing(code, BASIC, tables=tables("double_zero_as_single_zero"), options=None)
    assert own(code, "58 Pa. Code § 617a.1(e)(2)", "N.J.A.C. 19:47-5.2(d)1", "Section 4(b)(4)(i)") in citations
    assert borrowed(code, "58 Pa. Code § 617a.1(e)(1)", "sets no equipment standard") in citations


@pytest.mark.parametrize(
    ("code", "wager", "feature", "citation"),
    [
        ("NJ", "seven_numbers", "seven_numbers_area", "N.J.A.C. 19:47-5.1(f)"),
        ("NJ", "six_numbers_color", "color_wager_area", "N.J.A.C. 19:47-5.1(e)6.ii"),
        ("NJ", "seven_numbers_color", "color_wager_area", "N.J.A.C. 19:47-5.1(e)7"),
        ("NJ", "eight_numbers_color", "color_wager_area", "N.J.A.C. 19:47-5.1(e)8"),
        ("S4", "seven_numbers", "seven_numbers_area", "Section 4(a)(6)(ii)"),
    ],
)
def test_the_designated_areas_of_the_seven_numbers_and_colour_wagers(code, wager, feature, citation):
    kwargs = {"tables": tables("single_zero"), "options": None, "offered": ["straight", wager]}
    assert missing(code, BASIC, **kwargs) == {citation}
    assert missing(code, [*BASIC, feature], **kwargs) == set()
    # Pennsylvania's text has neither wager: nothing to designate.
    assert missing("PA", BASIC, **kwargs) == set()


@pytest.mark.parametrize("code", JURISDICTIONS)
def test_the_big_six_clapper_option_sign(code):
    always = ["name_or_logo", "betting_areas", "payout_odds_signage", "drop_box", "tip_box"]
    kwargs = {"tables": [], "options": None, "game": "big_six"}
    sign_citation = own(code, "", "N.J.A.C. 19:47-5.6(d)", "Section 4(f)(4)")
    assert missing(code, always, **kwargs) == ({sign_citation} if code != "PA" else set())
    assert missing(code, [*always, "clapper_option_sign"], **kwargs) == set()


def test_a_new_jersey_double_zero_layout_needs_the_option_notice_through_the_api(db):
    staff = staff_of(PropertyFactory(name="Shore", jurisdiction="NJ"))
    table = GamingTableFactory(property=staff.property, number="R-01")
    body = {"property": staff.property.pk, "game": "roulette", "name": "Shore", "features": BASIC, "tables": [table.pk]}
    client = client_for(staff.compliance)
    sent = client.post("/api/layouts/", {**body, "artwork": artwork_upload()}, format="multipart")
    assert_refused(sent, "layout_feature_missing", "N.J.A.C. 19:47-5.2(b)")
    body["features"] = [*BASIC, "double_zero_option_notice"]
    assert client.post("/api/layouts/", {**body, "artwork": artwork_upload()}, format="multipart").status_code == 201


# ---- Own paragraphs: Big Six odds stated with "to" or "win", never "for" ----

ODDS = {
    "big_six_1": [1, 1],
    "big_six_2": [2, 1],
    "big_six_5": [5, 1],
    "big_six_10": [10, 1],
    "big_six_20": [20, 1],
    "joker": [45, 1],
    "flag": [45, 1],
}


@pytest.mark.parametrize("code", JURISDICTIONS)
@pytest.mark.parametrize("wording", ["to", "win", "for"])
def test_big_six_odds_are_stated_with_to_or_win_never_for(code, wording):
    rules = rulebook_for(code)
    clapper = rules.BIG_SIX_CLAPPER[0][0]
    found = {
        (v.code, v.citation)
        for v in check_big_six_submission(
            rules,
            payout_odds=ODDS,
            options={"big_six_clapper_between": clapper, "big_six_odds_wording": wording},
        )
    }
    if code == "PA":
        # Chapter 619a (proposed) says nothing of the wording: the option is not Pennsylvania's.
        assert found == {("option_not_in_jurisdiction", "58 Pa. Code § 619a.3 (proposed, 41 Pa.B. 3000)")}
    elif wording == "for":
        assert found == {("big_six_odds_wording", own(code, "", "N.J.A.C. 19:47-5.5(b)", "Section 4(e)(2)"))}
    else:
        assert found == set()


def test_inspecting_a_locked_wheel_is_refused_as_product_policy(house):
    unlock_first = (
        "Product policy: a covered and locked wheel (58 Pa. Code § 617a.2(f)) is unlocked, with its "
        "logbook entry, before it is inspected or adjusted"
    )
    event(house, "cover")
    refused(lambda: inspect(house), "wheel_covered_and_locked", unlock_first)
    event(house, "unlock")
    assert inspect(house).kind == "inspection"
