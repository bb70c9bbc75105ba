"""Wheels registered through the API and the admin: a Roulette wheel with the colours of its ring
(58 Pa. Code § 617a.1(c), (d)), a Big Six wheel by § 619a.1(a), (b) (proposed, 41 Pa.B. 3000), and a
table that takes only a wheel of its game."""

import json

import pytest

from compliance.accounts.models import User
from compliance.casinos.models import Wheel
from compliance.rulebook import pa
from compliance.rulebook.jurisdictions import pennsylvania as PA
from tests.factories import GamingTableFactory, PropertyFactory
from tests.support.api import assert_refused, client_for
from tests.support.people import staff_of

BIG_SIX_A = "58 Pa. Code § 619a.1(a) (proposed, 41 Pa.B. 3000)"
BIG_SIX_B = "58 Pa. Code § 619a.1(b) (proposed, 41 Pa.B. 3000)"


def post_wheel(staff, **body):
    defaults = {"property": staff.property.pk, "serial": "W-9", "diameter_inches": "32"}
    return client_for(staff.compliance).post("/api/wheels/", {**defaults, **body}, format="json")


def roulette_body(order=pa.DOUBLE_ZERO_ORDER, wheel_type="double_zero"):
    return {
        "wheel_type": wheel_type,
        "number_order": list(order),
        "colours": pa.ring_colours(order),
        "compartments": "ring",
    }


def big_six_body(order=pa.BIG_SIX_ORDER):
    return {
        "game": "big_six",
        "diameter_inches": "72",
        "number_order": list(order),
        # § 619a.1(a), (d), (e) (proposed): glass, odds on each section, a clapper.
        "sections_under_glass": True,
        "sections_show_odds": True,
        "clapper": True,
    }


@pytest.fixture(params=["PA", "NJ", "S4"])
def any_casino(request, db):
    """A property of each jurisdiction: the New Jersey and Section 4 texts set no wheel standard, so
    theirs is registered by Pennsylvania's § 617a.1 and § 619a.1."""
    return staff_of(PropertyFactory(jurisdiction=request.param, licence_number=f"{request.param}-W"))


def citation_matches(errors, code, paragraph, jurisdiction):
    """Pennsylvania cites its paragraph exactly; a borrowing jurisdiction cites the same paragraph
    (how the borrowing is worded is the citations' own change)."""
    citation = next(e["citation"] for e in errors if e["code"] == code)
    assert citation == paragraph if jurisdiction == "PA" else citation.startswith(paragraph)


# ---- Roulette: the ring's colours ----


def test_a_roulette_wheel_is_registered_with_its_colours(any_casino):
    response = post_wheel(any_casino, **roulette_body())
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["game"] == "roulette"
    assert body["colours"][0] == body["colours"][19] == "green"
    assert Wheel.objects.get().colours == pa.ring_colours(pa.DOUBLE_ZERO_ORDER)


def test_a_roulette_wheel_without_colours_is_refused_naming_the_rule(any_casino):
    body = roulette_body(pa.SINGLE_ZERO_ORDER, "single_zero")
    del body["colours"]
    response = post_wheel(any_casino, **body)
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert [(e["code"], e["field"]) for e in errors] == [("wheel_colours", "colours")]
    citation_matches(errors, "wheel_colours", "58 Pa. Code § 617a.1(c)", any_casino.property.jurisdiction)
    assert not Wheel.objects.exists()


def test_a_green_number_is_refused(casino):
    body = roulette_body()
    body["colours"][2] = "green"  # 9
    errors = assert_refused(
        post_wheel(casino, **body), "wheel_colour_red_or_black", "58 Pa. Code § 617a.1(d)", "colours.2"
    )
    assert "(9)" in errors[0]["message"]


def test_a_red_double_zero_is_refused(casino):
    body = roulette_body()
    body["colours"][19] = "red"
    assert_refused(post_wheel(casino, **body), "wheel_colour_green", "58 Pa. Code § 617a.1(d)", "colours.19")


def test_colours_that_do_not_alternate_are_refused(any_casino):
    body = roulette_body(pa.SINGLE_ZERO_ORDER, "single_zero")
    body["colours"][2] = body["colours"][1]  # 32 and 15 both red
    response = post_wheel(any_casino, **body)
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["code"], e["field"]) for e in errors] == [("wheel_colours_alternate", "colours.2")]
    citation_matches(errors, "wheel_colours_alternate", "58 Pa. Code § 617a.1(c)", any_casino.property.jurisdiction)


def test_a_colour_not_of_the_ring_is_malformed(casino):
    body = roulette_body()
    body["colours"][1] = "blue"
    response = post_wheel(casino, **body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "colours.1"


# ---- Big Six ----


def test_a_big_six_wheel_is_registered(any_casino):
    response = post_wheel(any_casino, **big_six_body())
    assert response.status_code == 201, response.content
    wheel = Wheel.objects.get()
    assert (wheel.game, wheel.wheel_type, wheel.colours) == ("big_six", "", [])
    assert tuple(wheel.number_order) == pa.BIG_SIX_ORDER


def test_a_big_six_wheel_out_of_order_is_refused(any_casino):
    order = list(pa.BIG_SIX_ORDER)
    order[1], order[2] = order[2], order[1]
    response = post_wheel(any_casino, **big_six_body(order))
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["code"], e["field"]) for e in errors] == [("big_six_order", "number_order.1")]
    citation_matches(errors, "big_six_order", BIG_SIX_B, any_casino.property.jurisdiction)
    assert not Wheel.objects.exists()


def test_a_small_big_six_wheel_with_a_wrong_count_is_refused_with_both(casino):
    order = list(pa.BIG_SIX_ORDER)
    order[-1] = "20"
    errors = assert_refused(
        post_wheel(casino, **{**big_six_body(order), "diameter_inches": "48"}),
        "big_six_wheel_too_small",
        BIG_SIX_A,
        "diameter_inches",
    )
    assert {e["code"] for e in errors} == {"big_six_wheel_too_small", "big_six_symbol_count"}
    assert {e["citation"] for e in errors} == {BIG_SIX_A}


def test_a_big_six_wheel_with_53_sections_is_refused(casino):
    assert_refused(
        post_wheel(casino, **big_six_body(pa.BIG_SIX_ORDER[:53])), "big_six_sections", BIG_SIX_A, "number_order"
    )


def test_a_big_six_wheel_with_a_roulette_type_is_refused(casino):
    assert_refused(
        post_wheel(casino, **big_six_body(), wheel_type="single_zero"), "big_six_not_roulette", BIG_SIX_A, "wheel_type"
    )


def test_a_roulette_wheel_without_a_type_is_refused(casino):
    body = {**roulette_body(), "wheel_type": ""}
    assert_refused(post_wheel(casino, **body), "wheel_type_required", "58 Pa. Code § 617a.1(c), (d)", "wheel_type")


# ---- A table takes a wheel of its game ----


def register(staff, serial, body):
    response = post_wheel(staff, serial=serial, **body)
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_a_big_six_table_takes_a_big_six_wheel_only(casino):
    client = client_for(casino.compliance)
    big_six = register(casino, "B6-W", big_six_body())
    roulette = register(casino, "R-W", roulette_body())
    table = GamingTableFactory(
        property=casino.property, number="B6-1", game="big_six", wheel_type=None, has_external_movable_parts=False
    )
    errors = assert_refused(
        client.patch(f"/api/tables/{table.pk}/", {"wheel": roulette}, format="json"),
        "wheel_game_mismatch",
        BIG_SIX_A,
        "wheel",
    )
    assert errors[0]["message"] == "Table B6-1 is a Big Six table; wheel R-W is a Roulette wheel."
    response = client.patch(f"/api/tables/{table.pk}/", {"wheel": big_six}, format="json")
    assert response.status_code == 200, response.content
    table.refresh_from_db()
    assert table.wheel_id == big_six


def test_a_roulette_table_takes_a_roulette_wheel_only(casino):
    big_six = register(casino, "B6-W", big_six_body())
    table = casino.table
    errors = assert_refused(
        client_for(casino.compliance).patch(f"/api/tables/{table.pk}/", {"wheel": big_six}, format="json"),
        "wheel_game_mismatch",
        "58 Pa. Code § 617a.1(b)",
        "wheel",
    )
    assert errors[0]["message"] == "Table R-01 is a Roulette table; wheel B6-W is a Big Six wheel."


def test_a_casino_war_table_takes_no_wheel(casino):
    big_six = register(casino, "B6-W", big_six_body())
    response = client_for(casino.compliance).post(
        "/api/tables/",
        {"property": casino.property.pk, "number": "CW-1", "game": "casino_war", "wheel": big_six},
        format="json",
    )
    assert_refused(
        response,
        "wheel_game_mismatch",
        "Product policy, derived from 58 Pa. Code § 651a.2(a) (proposed, 41 Pa.B. 3000)",
        "wheel",
    )


@pytest.mark.parametrize("game", ["big_six", "casino_war"])
def test_only_a_roulette_table_takes_a_ball(casino, game):
    from compliance.casinos.models import Ball

    ball = Ball.objects.create(property=casino.property, serial="B-9", material="non_metallic", diameter_inches="0.8")
    response = client_for(casino.compliance).post(
        "/api/tables/",
        {"property": casino.property.pk, "number": "X-1", "game": game, "ball": ball.pk},
        format="json",
    )
    errors = assert_refused(response, "ball_not_applicable", PA.BALL_ROULETTE_ONLY_POLICY, "ball")
    assert "has no ball" in errors[0]["message"]


def test_a_big_six_table_opens_only_with_a_registered_big_six_wheel(any_casino):
    """Product policy, checked against § 619a.1(a), (b) (proposed): like a Roulette table's wheel."""
    from compliance.rulebook import rulebook_for

    table = GamingTableFactory(property=any_casino.property, number="B6-1", game="big_six", wheel_type=None)
    found = rulebook_for(any_casino.property.jurisdiction).configuration_ready(
        table=table, layout=None, rules_submission=None
    )
    refusal = next(v for v in found if v.code == "wheel_not_registered")
    assert refusal.citation == PA.REGISTERED_BIG_SIX_WHEEL_POLICY
    assert refusal.message.startswith("Table B6-1 has no registered Big Six wheel")
    table.wheel = Wheel.objects.get(pk=register(any_casino, "B6-W", big_six_body()))
    found = rulebook_for(any_casino.property.jurisdiction).configuration_ready(
        table=table, layout=None, rules_submission=None
    )
    assert "wheel_not_registered" not in {v.code for v in found}


# ---- The admin registers by the same rules ----


@pytest.fixture
def admin_site(client, db):
    admin = User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")
    client.force_login(admin)
    return client


def admin_wheel_form(staff, **fields):
    form = {
        "property": staff.property.pk,
        "serial": "W-ADMIN",
        "game": "roulette",
        "wheel_type": "single_zero",
        "diameter_inches": "32",
        "number_order": json.dumps(list(pa.SINGLE_ZERO_ORDER)),
        "colours": json.dumps(pa.ring_colours(pa.SINGLE_ZERO_ORDER)),
        "compartments": "ring",
    }
    return {**form, **fields}


def test_the_admin_registers_a_roulette_wheel_with_its_colours(admin_site, casino):
    response = admin_site.post("/admin/casinos/wheel/add/", admin_wheel_form(casino))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Wheel.objects.get(serial="W-ADMIN").colours[0] == "green"


def test_the_admin_refuses_a_roulette_wheel_without_colours(admin_site, casino):
    response = admin_site.post("/admin/casinos/wheel/add/", admin_wheel_form(casino, colours=""))
    assert response.status_code == 200
    assert "(58 Pa. Code § 617a.1(c))" in response.content.decode()
    assert not Wheel.objects.filter(serial="W-ADMIN").exists()


def test_the_admin_registers_and_checks_a_big_six_wheel(admin_site, casino):
    order = list(pa.BIG_SIX_ORDER)
    order[5], order[6] = order[6], order[5]
    form = admin_wheel_form(
        casino,
        game="big_six",
        wheel_type="",
        colours="",
        compartments="",
        diameter_inches="72",
        number_order=json.dumps(order),
        sections_under_glass="true",
        sections_show_odds="true",
        clapper="true",
    )
    response = admin_site.post("/admin/casinos/wheel/add/", form)
    assert response.status_code == 200
    assert f"({BIG_SIX_B})" in response.content.decode()
    form["number_order"] = json.dumps(list(pa.BIG_SIX_ORDER))
    response = admin_site.post("/admin/casinos/wheel/add/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Wheel.objects.get(serial="W-ADMIN").game == "big_six"
