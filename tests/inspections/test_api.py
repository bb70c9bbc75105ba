"""The REST API of docs/api.md: each endpoint, each role, two properties, and the error body."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from compliance.accounts.models import Role
from compliance.casinos.models import Ball, Property, TableState
from compliance.rulebook.text import REQUEST_FORM
from inspections.logbook.models import Entry, Signature
from tests.factories import PASSWORD, UserFactory
from tests.support.api import assert_refused, client_for, signature
from tests.support.logbook import ALL_PASS, event, inspect


def post_inspection(client, table, who, items=None, **extra):
    return client.post(
        "/api/inspections/",
        {"table": table.pk, "items": items or ALL_PASS, "signature": signature(who), **extra},
        format="json",
    )


def test_token_authentication(casino):
    response = APIClient().post(
        "/api/auth/token/", {"username": casino.security.username, "password": PASSWORD}, format="json"
    )
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/tables/").status_code == 200


def test_a_wrong_token_password_is_a_400_in_the_error_format(casino):
    response = APIClient().post(
        "/api/auth/token/", {"username": casino.security.username, "password": "nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "authorization"


@pytest.mark.parametrize(
    "path", ["/api/tables/", "/api/logbook/", "/api/inspections/", "/api/people/", "/api/properties/"]
)
def test_anonymous_requests_get_401(db, path):
    response = APIClient().get(path)
    assert response.status_code == 401
    assert response.json()["errors"][0]["code"] == "not_authenticated"


def test_a_full_opening_through_the_api(casino):
    client = client_for(casino.floorperson)
    table = casino.table
    for kind in ("cover", "unlock"):
        response = client.post(
            f"/api/tables/{table.pk}/{kind}/", {"signature": signature(casino.security)}, format="json"
        )
        assert response.status_code == 201, response.content
    response = client.post(
        "/api/adjustments/",
        {
            "table": table.pk,
            "kind": "adjustment",
            "part": "ball track",
            "description": "Levelled the ball track",
            "performer": signature(casino.maintenance),
            "witness": signature(casino.security),
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    assert [s["meaning"] for s in response.json()["signatures"]] == ["performed", "witnessed"]
    response = post_inspection(client, table, casino.floorperson, notes="all good")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["passed"] is True and body["items"] == ALL_PASS and body["notes"] == "all good"
    assert body["table"] == table.pk
    assert body["signatures"][0]["credential_number"] == casino.floorperson.credential_number
    response = client.post(f"/api/tables/{table.pk}/open/", {"signature": signature(casino.floorperson)}, format="json")
    assert response.status_code == 201
    assert response.json()["table"]["state"] == TableState.OPEN
    response = client.get(f"/api/tables/{table.pk}/")
    assert response.json()["state"] == "open"
    assert response.json()["next_due"] is not None


def test_opening_without_inspection_is_a_400_naming_the_rule(casino):
    client = client_for(casino.security)
    response = client.post(
        f"/api/tables/{casino.table.pk}/open/", {"signature": signature(casino.security)}, format="json"
    )
    assert_refused(response, "no_inspection", "58 Pa. Code § 617a.2(a)", "table")
    assert Entry.objects.count() == 0


def test_a_witness_who_is_not_security_is_refused(casino):
    response = client_for(casino.maintenance).post(
        "/api/adjustments/",
        {
            "table": casino.table.pk,
            "kind": "replacement",
            "part": "rotor",
            "description": "New rotor",
            "performer": signature(casino.maintenance),
            "witness": signature(casino.floorperson),
        },
        format="json",
    )
    assert_refused(response, "witness_not_security", "58 Pa. Code § 617a.2(b)", "witness")
    assert Entry.objects.count() == Signature.objects.count() == 0


def test_a_wrong_signature_password_is_a_400_naming_the_field(casino):
    response = client_for(casino.floorperson).post(
        "/api/inspections/",
        {"table": casino.table.pk, "items": ALL_PASS, "signature": signature(casino.floorperson, "wrong")},
        format="json",
    )
    assert_refused(response, "signature_invalid", "58 Pa. Code § 617a.2(e)", "signature")
    assert Entry.objects.count() == 0


def test_a_foreign_table_looks_like_an_unknown_one(casino, other_casino):
    client = client_for(casino.floorperson)
    foreign = post_inspection(client, other_casino.table, casino.floorperson)
    unknown = client.post(
        "/api/inspections/",
        {"table": 999999, "items": ALL_PASS, "signature": signature(casino.floorperson)},
        format="json",
    )
    assert_refused(foreign, "does_not_exist", REQUEST_FORM, "table")
    assert_refused(unknown, "does_not_exist", REQUEST_FORM, "table")
    assert foreign.json()["errors"][0]["message"].replace(str(other_casino.table.pk), "X") == unknown.json()["errors"][
        0
    ]["message"].replace("999999", "X")
    assert Entry.objects.count() == 0


def test_a_foreign_table_action_is_404(casino, other_casino):
    response = client_for(casino.security).post(
        f"/api/tables/{other_casino.table.pk}/cover/", {"signature": signature(casino.security)}, format="json"
    )
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_a_signer_of_another_property_is_refused(casino, other_casino):
    response = post_inspection(client_for(casino.floorperson), casino.table, other_casino.floorperson)
    assert_refused(response, "signer_not_at_property", "58 Pa. Code § 617a.2(a)", "signature")


def test_missing_checklist_items_are_400_per_item(casino):
    response = post_inspection(
        client_for(casino.floorperson), casino.table, casino.floorperson, items={"ball_non_magnetic": True}
    )
    errors = assert_refused(
        response, "checklist_item_missing", "58 Pa. Code § 617a.2(a)(2)", "items.no_magnet_or_contrivance"
    )
    assert len(errors) == 3


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"items": ALL_PASS}, "signature"),
        ({"items": ALL_PASS, "signature": {"username": "x"}}, "signature.password"),
        ({"items": {"ball_non_magnetic": "maybe"}}, "items.ball_non_magnetic"),
        ({"items": ALL_PASS, "performed_at": "yesterday"}, "performed_at"),
    ],
)
def test_malformed_fields_are_400_with_the_field(casino, payload, field):
    payload = {"table": casino.table.pk, "signature": signature(casino.floorperson), **payload}
    if field == "signature":
        payload.pop("signature")
    response = client_for(casino.floorperson).post("/api/inspections/", payload, format="json")
    assert response.status_code == 400
    assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    assert Entry.objects.count() == 0


def test_malformed_json_is_a_400_not_a_500(casino):
    response = client_for(casino.floorperson).post("/api/inspections/", '{"table": ', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "malformed_request"


def test_a_time_in_the_future_is_refused(casino):
    response = post_inspection(
        client_for(casino.floorperson), casino.table, casino.floorperson, performed_at="2999-01-01T00:00:00Z"
    )
    assert_refused(response, "time_in_future", "58 Pa. Code § 617a.2(e)", "performed_at")


@pytest.mark.parametrize("role", [Role.REGULATOR])
def test_regulators_may_not_write_to_the_logbook(casino, regulator, role):
    response = post_inspection(client_for(regulator), casino.table, casino.floorperson)
    assert response.status_code == 403
    assert Entry.objects.count() == 0


def test_irregularities_deck_changes_and_amendments(casino):
    client = client_for(casino.floorperson)
    inspect(casino)
    event(casino, "open")
    body = {
        "table": casino.table.pk,
        "kind": "under_four_revolutions",
        "ball_replaced": True,
        "signature": signature(casino.floorperson),
    }
    # A replaced ball is named (product policy, from § 617a.6(b), (c)).
    response = client.post("/api/irregularities/", body, format="json")
    assert response.status_code == 400
    assert [(e["code"], e["field"]) for e in response.json()["errors"]] == [("new_ball_required", "new_ball")]
    spare = Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    response = client.post("/api/irregularities/", {**body, "new_ball": spare.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["kind"] == "under_four_revolutions" and response.json()["ball_replaced"] is True
    irregularity_id = response.json()["id"]
    response = client.post(
        "/api/amendments/",
        {
            "entry": irregularity_id,
            "reason": "It was the ball leaving the wheel",
            "correction": {"kind": "ball_left_wheel"},
            "signature": signature(casino.floorperson),
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["amends"] == irregularity_id
    assert client.get("/api/amendments/", {"count": "true"}).json()["count"] == 1
    assert client.get("/api/irregularities/").json()["results"][0]["kind"] == "under_four_revolutions"
    response = client.post(
        "/api/deck-changes/",
        {"table": casino.table.pk, "decks": 6, "signature": signature(casino.floorperson)},
        format="json",
    )
    assert_refused(response, "not_a_casino_war_table", "58 Pa. Code § 651a.3(d) (proposed, 41 Pa.B. 3000)", "table")


def test_the_logbook_register_has_every_617a_2e_field(casino):
    client = client_for(casino.compliance)
    inspect(casino)
    rows = client.get("/api/logbook/", {"table": casino.table.pk}).json()["results"]
    assert len(rows) == 1
    row = rows[0]
    assert {
        "id",
        "table_number",
        "date",
        "time",
        "kind",
        "adjustment_or_replacement",
        "description",
        "inspection_certified",
        "signer_name",
        "credential_number",
        "entry_hash",
    } <= set(row)
    assert row["table_number"] == "R-01" and row["inspection_certified"] is True
    assert row["credential_number"] == casino.floorperson.credential_number


@pytest.mark.any_hour
def test_the_logbook_shows_local_time_and_filters_by_period(casino):
    entry = inspect(casino)
    row = client_for(casino.security).get("/api/logbook/").json()["results"][0]
    local = entry.occurred_at.astimezone(casino.property.zone)
    assert (row["date"], row["time"]) == (local.date().isoformat(), local.strftime("%H:%M:%S"))
    later = (entry.occurred_at.replace(microsecond=0)).isoformat().replace("+00:00", "Z")
    assert (
        client_for(casino.security)
        .get("/api/logbook/", {"count": "true", "to": "2000-01-01T00:00:00Z"})
        .json()["count"]
        == 0
    )
    assert (
        client_for(casino.security)
        .get("/api/logbook/", {"count": "true", "from": "2000-01-01T00:00:00Z"})
        .json()["count"]
        == 1
    )
    assert later


def test_nothing_of_another_property_is_visible(casino, other_casino):
    inspect(casino)
    inspect(other_casino)
    client = client_for(casino.security)
    assert client.get("/api/logbook/", {"count": "true"}).json()["count"] == 1
    assert client.get("/api/logbook/", {"count": "true", "property": other_casino.property.pk}).json()["count"] == 0
    assert {t["id"] for t in client.get("/api/tables/").json()["results"]} == {casino.table.pk}
    assert {p["id"] for p in client.get("/api/properties/").json()["results"]} == {casino.property.pk}
    people = {p["id"] for p in client.get("/api/people/").json()["results"]}
    assert casino.floorperson.pk in people and other_casino.floorperson.pk not in people
    assert client.get(f"/api/inspections/{Entry.objects.get(property=other_casino.property).pk}/").status_code == 404


def test_a_regulator_reads_the_properties_of_their_jurisdiction(casino, other_casino, regulator):
    from tests.factories import PropertyFactory

    PropertyFactory(jurisdiction="NJ")
    inspect(casino)
    inspect(other_casino)
    client = client_for(regulator)
    assert client.get("/api/logbook/", {"count": "true"}).json()["count"] == 2
    assert {p["id"] for p in client.get("/api/properties/").json()["results"]} == {
        casino.property.pk,
        other_casino.property.pk,
    }


@pytest.mark.parametrize("query", [{}, {"count": "true"}])
def test_the_property_list_gives_each_property_as_its_own_page_does(casino, other_casino, regulator, query):
    """Each row of the list is what the property's own page gives, a logbook's chain head and a
    property with no entry yet alike."""
    inspect(casino)
    client = client_for(regulator)
    listed = client.get("/api/properties/", query).json()["results"]
    assert [row["id"] for row in listed] == sorted(
        [casino.property.pk, other_casino.property.pk], key=lambda pk: Property.objects.get(pk=pk).name
    )
    for row in listed:
        assert row == client.get(f"/api/properties/{row['id']}/").json()
    by_id = {row["id"]: row for row in listed}
    assert by_id[casino.property.pk]["chain_length"] == 1
    assert by_id[other_casino.property.pk]["chain_length"] == 0
    assert by_id[other_casino.property.pk]["chain_head"] == "0" * 64
    assert by_id[casino.property.pk]["notify_emails"] == casino.property.notify_emails


def test_compliance_manages_tables_of_their_property_only(casino, other_casino):
    client = client_for(casino.compliance)
    response = client.post(
        "/api/tables/",
        {"property": casino.property.pk, "number": "R-09", "game": "roulette", "wheel_type": "single_zero"},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["state"] == "closed"
    response = client.post(
        "/api/tables/",
        {"property": other_casino.property.pk, "number": "R-09", "game": "roulette", "wheel_type": "single_zero"},
        format="json",
    )
    assert_refused(response, "does_not_exist", REQUEST_FORM, "property")
    response = client.post(
        "/api/tables/",
        {"property": casino.property.pk, "number": "R-01", "game": "roulette", "wheel_type": "single_zero"},
        format="json",
    )
    assert response.status_code == 400
    response = client.post(
        "/api/tables/", {"property": casino.property.pk, "number": "R-10", "game": "roulette"}, format="json"
    )
    assert_refused(response, "wheel_type_required", "58 Pa. Code § 617a.1(c), (d)", "wheel_type")
    response = client.patch(
        f"/api/tables/{casino.table.pk}/", {"has_external_movable_parts": False, "state": "open"}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["state"] == "closed"
    assert (
        client_for(casino.security)
        .patch(f"/api/tables/{casino.table.pk}/", {"electronic": True}, format="json")
        .status_code
        == 403
    )


def test_people_are_created_by_compliance_for_their_property(casino, other_casino):
    client = client_for(casino.compliance)
    payload = {
        "username": "newguard",
        "full_name": "New Guard",
        "role": "security",
        "credential_number": "BC-777",
        "password": "a-long-enough-passphrase",
    }
    response = client.post("/api/people/", payload, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["property"] == casino.property.pk and "password" not in response.json()
    response = client.post(
        "/api/people/",
        {**payload, "username": "boss", "credential_number": "BC-778", "role": "regulator"},
        format="json",
    )
    assert_refused(response, "invalid", REQUEST_FORM, "role")
    response = client.post(
        "/api/people/", {**payload, "username": "weak", "credential_number": "BC-779", "password": "123"}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "password"
    assert client_for(casino.security).post("/api/people/", payload, format="json").status_code == 403


def test_compliance_edits_the_policy_of_their_property(casino, other_casino):
    client = client_for(casino.compliance)
    assert (
        client.patch(f"/api/properties/{casino.property.pk}/", {"cover_grace_minutes": 10}, format="json").status_code
        == 200
    )
    assert (
        client.patch(f"/api/properties/{casino.property.pk}/", {"licence_number": "X"}, format="json").status_code
        == 403
    )
    assert (
        client.patch(
            f"/api/properties/{other_casino.property.pk}/", {"cover_grace_minutes": 10}, format="json"
        ).status_code
        == 404
    )
    assert (
        client.post(
            "/api/properties/", {"name": "X", "licence_number": "Y", "jurisdiction": "PA"}, format="json"
        ).status_code
        == 403
    )
    response = client.patch(f"/api/properties/{casino.property.pk}/", {"time_zone": "Mars/Base"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "time_zone"


def test_entries_cannot_be_updated_or_deleted_through_the_api(casino):
    entry = inspect(casino)
    client = client_for(casino.compliance)
    assert client.patch(f"/api/inspections/{entry.pk}/", {"notes": "x"}, format="json").status_code == 405
    assert client.delete(f"/api/inspections/{entry.pk}/").status_code == 405


def test_the_logbook_list_has_no_n_plus_1(casino):
    client = client_for(casino.security)
    inspect(casino)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/logbook/").status_code == 200
        return len(captured)

    few = queries()
    for _ in range(20):
        inspect(casino)
        event(casino, "open")
        event(casino, "close")
    assert client.get("/api/logbook/", {"count": "true"}).json()["count"] == 61
    assert queries() == few


def test_the_schema_and_docs_are_served(casino):
    client = client_for(casino.security)
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/tables/{id}/open/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_a_person_with_the_wrong_role_cannot_sign_as_inspector(casino):
    maintenance = UserFactory(property=casino.property, role=Role.MAINTENANCE)
    response = post_inspection(client_for(casino.floorperson), casino.table, maintenance)
    assert_refused(response, "inspector_role", "58 Pa. Code § 617a.2(a)", "signature")


def test_a_correction_with_a_nul_character_is_a_400(casino):
    entry = inspect(casino)
    response = client_for(casino.floorperson).post(
        "/api/amendments/",
        {
            "entry": entry.pk,
            "reason": "x",
            "correction": {"notes": "a\x00b"},
            "signature": signature(casino.floorperson),
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "correction"


LISTS = [
    "/api/properties/",
    "/api/people/",
    "/api/tables/",
    "/api/inspections/",
    "/api/adjustments/",
    "/api/irregularities/",
    "/api/deck-changes/",
    "/api/amendments/",
    "/api/logbook/",
]


@pytest.mark.parametrize("role", list(Role))
def test_every_role_reads_every_list_of_its_own_scope_only(casino, other_casino, role):
    from tests.factories import RegulatorFactory

    inspect(casino)
    inspect(other_casino)
    if role == Role.REGULATOR:
        person = RegulatorFactory(jurisdiction="NJ")  # no property of the fixtures is in New Jersey
    elif role == Role.ADMIN:
        person = UserFactory(property=None, role=Role.ADMIN)
    else:
        person = UserFactory(property=casino.property, role=role)
    client = client_for(person)
    for path in LISTS:
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        if role != Role.ADMIN:
            assert other_casino.property.name not in body, path
            assert other_casino.floorperson.credential_number not in body, path
    logbook = client.get("/api/logbook/", {"count": "true"}).json()["count"]
    assert logbook == {Role.ADMIN: 2, Role.REGULATOR: 0}.get(role, 1)


@pytest.mark.parametrize(
    "role, status",
    [
        (Role.SECURITY, 201),
        (Role.FLOORPERSON, 201),
        (Role.MAINTENANCE, 201),
        (Role.COMPLIANCE, 201),
        (Role.REGULATOR, 403),
        (Role.ADMIN, 403),
    ],
)
def test_who_may_submit_an_entry(casino, role, status):
    # The request's sender may differ from the signer (a shared tablet); the signer is checked by the rule.
    sender = UserFactory(
        property=None if role in (Role.REGULATOR, Role.ADMIN) else casino.property,
        role=role,
        jurisdiction="PA" if role == Role.REGULATOR else "",
    )
    response = post_inspection(client_for(sender), casino.table, casino.floorperson)
    assert response.status_code == status, response.content
    assert Entry.objects.count() == (1 if status == 201 else 0)


def test_a_register_row_is_its_serializers_fields_in_order(casino):
    """The serializer that documents the register's rows writes them: a row has its fields, no other."""
    from inspections.logbook.api.serializers import LogbookRowSerializer

    inspect(casino)
    event(casino, "open")
    rows = client_for(casino.security).get("/api/logbook/").json()["results"]
    assert rows and all(list(row) == list(LogbookRowSerializer().fields) for row in rows)


@pytest.mark.parametrize(("path", "most"), [("/api/logbook/", 7), ("/api/properties/", 5)])
def test_a_list_through_its_serializer_costs_a_fixed_number_of_queries(
    casino, django_assert_max_num_queries, path, most
):
    """The throttle's row read locked and written (in a savepoint of the test's transaction: four
    statements), then the page: the register's entries with their signatures and their amendments
    prefetched; the properties with each chain head joined. However many rows."""
    client = client_for(casino.security)
    for _ in range(10):
        inspect(casino)
        event(casino, "open")
        event(casino, "close")
    with django_assert_max_num_queries(most):
        assert client.get(path).status_code == 200
