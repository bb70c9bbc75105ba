"""§ 617a.1(a)–(d): wheels and balls are checked when registered, and tables use matching ones."""

import itertools
from decimal import Decimal

import pytest

from compliance.casinos.models import Ball, Wheel
from compliance.rulebook import pa
from compliance.rulebook.text import REQUEST_FORM
from inspections.logbook.models import TableStatus
from tests.factories import configure_for_opening
from tests.support.api import assert_refused, client_for


def register_wheel(client, prop, **overrides):
    body = {
        "property": prop.pk,
        "serial": "W-1",
        "wheel_type": "double_zero",
        "diameter_inches": "32.00",
        "number_order": list(pa.DOUBLE_ZERO_ORDER),
    }
    body = {**body, **overrides}
    if "colours" not in body and body.get("game", "roulette") == "roulette":
        # The usual ring's colours of the numbers entered (§ 617a.1(c), (d)).
        body["colours"] = pa.ring_colours(body["number_order"])
    if "compartments" not in body and body.get("game", "roulette") == "roulette":
        body["compartments"] = "ring"  # coloured as the ring's areas (§ 617a.1(c), (d))
    return client.post("/api/wheels/", body, format="json")


def register_ball(client, prop, **overrides):
    body = {"property": prop.pk, "serial": "B-1", "material": "non_metallic", "diameter_inches": "0.8125"}
    return client.post("/api/balls/", {**body, **overrides}, format="json")


def test_the_rings_alternate_red_and_black():
    for order in (pa.SINGLE_ZERO_ORDER, pa.DOUBLE_ZERO_ORDER):
        numbers = [n for n in order if n not in ("0", "00")]
        assert sorted(map(int, numbers)) == list(range(1, 37))
        colours = ["red" if int(n) in pa.RED_NUMBERS else "black" for n in order if n not in ("0", "00")]
        # Alternating, except across the green pockets between which the ring continues.
        runs = sum(1 for a, b in itertools.pairwise(colours) if a == b)
        assert runs <= 1


def test_a_compliant_wheel_is_registered(casino):
    response = register_wheel(client_for(casino.compliance), casino.property)
    assert response.status_code == 201, response.content
    assert Wheel.objects.get().number_order[19] == "00"


def test_a_single_zero_wheel_is_checked_against_its_own_order(casino):
    response = register_wheel(
        client_for(casino.compliance),
        casino.property,
        wheel_type="single_zero",
        number_order=list(pa.SINGLE_ZERO_ORDER),
    )
    assert response.status_code == 201, response.content


def test_a_wrong_number_order_is_refused_naming_the_compartment(casino):
    order = list(pa.SINGLE_ZERO_ORDER)
    order[5], order[6] = order[6], order[5]
    response = register_wheel(
        client_for(casino.compliance), casino.property, wheel_type="single_zero", number_order=order
    )
    errors = assert_refused(response, "wheel_number_order", "58 Pa. Code § 617a.1(c)", "number_order.5")
    assert "must be 21" in errors[0]["message"]
    assert not Wheel.objects.exists()


def test_a_double_zero_order_on_a_single_zero_wheel_is_refused(casino):
    response = register_wheel(client_for(casino.compliance), casino.property, wheel_type="single_zero")
    assert_refused(response, "wheel_compartments", "58 Pa. Code § 617a.1(c)", "number_order")


def test_a_small_wheel_is_refused_with_every_violation(casino):
    response = register_wheel(
        client_for(casino.compliance), casino.property, diameter_inches="29.50", number_order=["0"]
    )
    errors = assert_refused(response, "wheel_too_small", "58 Pa. Code § 617a.1(b)", "diameter_inches")
    assert {e["code"] for e in errors} == {"wheel_too_small", "wheel_compartments"}


@pytest.mark.parametrize("diameter", ["0.75", "0.8125", "0.875"])
def test_balls_from_12_16_to_14_16_inch_are_accepted(casino, diameter):
    assert register_ball(client_for(casino.compliance), casino.property, diameter_inches=diameter).status_code == 201


@pytest.mark.parametrize("diameter", ["0.7499", "0.8751", "1"])
def test_other_ball_sizes_are_refused(casino, diameter):
    assert_refused(
        register_ball(client_for(casino.compliance), casino.property, diameter_inches=diameter),
        "ball_diameter",
        "58 Pa. Code § 617a.1(a)",
        "diameter_inches",
    )
    assert not Ball.objects.exists()


def test_a_metallic_ball_is_refused(casino):
    assert_refused(
        register_ball(client_for(casino.compliance), casino.property, material="metallic"),
        "ball_metallic",
        "58 Pa. Code § 617a.1(a)",
        "material",
    )


def test_equipment_is_registered_by_compliance_only(casino):
    assert register_ball(client_for(casino.security), casino.property).status_code == 403


def test_a_table_uses_a_wheel_of_its_type_and_property(casino, other_casino):
    client = client_for(casino.compliance)
    single = Wheel.objects.create(
        property=casino.property,
        serial="S-1",
        wheel_type="single_zero",
        diameter_inches=Decimal(32),
        number_order=list(pa.SINGLE_ZERO_ORDER),
    )
    double = Wheel.objects.create(
        property=casino.property,
        serial="D-1",
        wheel_type="double_zero",
        diameter_inches=Decimal(32),
        number_order=list(pa.DOUBLE_ZERO_ORDER),
    )
    foreign = Wheel.objects.create(
        property=other_casino.property,
        serial="D-1",
        wheel_type="double_zero",
        diameter_inches=Decimal(32),
        number_order=list(pa.DOUBLE_ZERO_ORDER),
    )
    table = casino.table  # a double-zero table
    assert_refused(
        client.patch(f"/api/tables/{table.pk}/", {"wheel": single.pk}, format="json"),
        "wheel_type_mismatch",
        "58 Pa. Code § 617a.1(c), (d)",
        "wheel",
    )
    assert_refused(
        client.patch(f"/api/tables/{table.pk}/", {"wheel": foreign.pk}, format="json"),
        "does_not_exist",
        REQUEST_FORM,
        "wheel",
    )
    response = client.patch(f"/api/tables/{table.pk}/", {"wheel": double.pk}, format="json")
    assert response.status_code == 200 and response.json()["wheel"] == double.pk
    # A double-zero wheel serves a table that uses it as a single-zero wheel (§ 617a.1(e)).
    response = client.patch(f"/api/tables/{table.pk}/", {"wheel_type": "double_zero_as_single_zero"}, format="json")
    assert response.status_code == 200


def test_a_ball_replaced_after_an_irregularity_becomes_the_tables_ball(casino, other_casino):
    from tests.support.api import signature
    from tests.support.logbook import event, inspect

    configure_for_opening(casino.table, created_by=casino.compliance)
    old = Ball.objects.create(
        property=casino.property, serial="B-OLD", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    new = Ball.objects.create(
        property=casino.property, serial="B-NEW", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    foreign = Ball.objects.create(
        property=other_casino.property, serial="B-X", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    casino.table.ball = old
    casino.table.save()
    inspect(casino)
    event(casino, "open")
    client = client_for(casino.floorperson)
    body = {
        "table": casino.table.pk,
        "kind": "ball_left_wheel",
        "ball_replaced": True,
        "signature": signature(casino.floorperson),
    }
    assert_refused(
        client.post("/api/irregularities/", {**body, "new_ball": foreign.pk}, format="json"),
        "does_not_exist",
        REQUEST_FORM,
        "new_ball",
    )
    assert_refused(
        client.post("/api/irregularities/", {**body, "ball_replaced": False, "new_ball": new.pk}, format="json"),
        "invalid",
        REQUEST_FORM,
        "new_ball",
    )
    response = client.post("/api/irregularities/", {**body, "new_ball": new.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["new_ball"] == new.pk
    assert "B-NEW" in response.json()["description"]
    casino.table.refresh_from_db()
    assert casino.table.ball == new
    assert client.get("/api/irregularities/").json()["results"][0]["new_ball"] == new.pk


def test_equipment_changes_only_on_a_closed_table_and_one_table_at_a_time(casino):
    from tests.factories import GamingTableFactory

    client = client_for(casino.compliance)
    first = Wheel.objects.create(
        property=casino.property,
        serial="D-1",
        wheel_type="double_zero",
        diameter_inches=Decimal(32),
        number_order=list(pa.DOUBLE_ZERO_ORDER),
    )
    second = Wheel.objects.create(
        property=casino.property,
        serial="D-2",
        wheel_type="double_zero",
        diameter_inches=Decimal(32),
        number_order=list(pa.DOUBLE_ZERO_ORDER),
    )
    other = GamingTableFactory(property=casino.property)
    assert client.patch(f"/api/tables/{casino.table.pk}/", {"wheel": first.pk}, format="json").status_code == 200
    assert_refused(
        client.patch(f"/api/tables/{other.pk}/", {"wheel": first.pk}, format="json"),
        "equipment_in_use",
        "58 Pa. Code § 617a.1(c), (d)",
        "wheel",
    )
    TableStatus.objects.filter(table_id=casino.table.pk).update(state="open")
    assert_refused(
        client.patch(f"/api/tables/{casino.table.pk}/", {"wheel": second.pk}, format="json"),
        "equipment_change_while_inspected",
        "Product policy: the wheel or ball is changed while the table is closed "
        "(58 Pa. Code § 617a.2(d) requires an inspection before it reopens)",
        "wheel",
    )
    # Its number is not its configuration: that changes at any time.
    assert client.patch(f"/api/tables/{casino.table.pk}/", {"number": "R-01A"}, format="json").status_code == 200
