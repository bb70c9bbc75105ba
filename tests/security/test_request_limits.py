"""What a request may make the server hold or compute is bounded, and going past a bound is a
400 (413 for size) in docs/api.md's format, never a 500: the body's size, JSON's nesting, times at
the calendar's ends, whole numbers beyond what the database holds. Every endpoint, every filter
and every integer field, as the API's schema lists them."""

from __future__ import annotations

import json

import pytest

from tests.api_schema import WRITE_METHODS, body_with, operations
from tests.security.test_typed_text import send, world  # noqa: F401 (a fixture)
from tests.support.failures import Failures

HUGE = 10**30
# Every write that reads a body (token/revoke/ reads none: what it is sent is never held).
WRITES = [pytest.param(op, id=str(op)) for op in operations(WRITE_METHODS) if "requestBody" in op.spec]
READS = operations(("get",))


def assert_api_error(response, status: int, code: str, field: str | None = "any") -> dict:
    assert response.status_code == status, response.content
    errors = response.json()["errors"]
    assert all(set(e) == {"code", "message", "citation", "field"} for e in errors), errors
    matching = [e for e in errors if code in ("any", e["code"]) and (field == "any" or e["field"] == field)]
    assert matching, errors
    return matching[0]


@pytest.mark.parametrize("operation", WRITES)
def test_every_write_refuses_a_body_over_the_limit_with_413(world, operation, settings):  # noqa: F811
    settings.API_MAX_BODY_BYTES = 4096
    error = assert_api_error(send(world, operation, {"padding": "x" * 4096}), 413, "request_too_large")
    assert "4 KB" in error["message"]


def test_a_form_encoded_body_over_the_limit_is_refused_too(casino, settings):
    from tests.support.api import client_for

    settings.API_MAX_BODY_BYTES = 4096
    response = client_for(casino.floorperson).post(
        "/api/inspections/", "notes=" + "x" * 5000, content_type="application/x-www-form-urlencoded"
    )
    assert_api_error(response, 413, "request_too_large")


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("operation", WRITES)
def test_every_write_refuses_json_nested_too_deep(world, operation):  # noqa: F811
    ids, clients = world
    failures = Failures()
    for depth in (33, 100_000):
        with failures.case(f"depth {depth}"):
            for client in clients:
                response = getattr(client, operation.method)(
                    operation.url(ids), f'{{"x": {nested(depth - 1)}}}', content_type="application/json"
                )
                if response.status_code != 403:
                    break
            error = assert_api_error(response, 400, "malformed_request", None)
            assert "nested more than 32 deep" in error["message"]
    failures.assert_none()


def test_json_nested_to_the_limit_is_read(casino):
    from tests.support.api import client_for

    response = client_for(casino.floorperson).post(
        "/api/inspections/", f'{{"x": {nested(31)}}}', content_type="application/json"
    )
    assert response.status_code == 400
    assert all(e["code"] != "malformed_request" for e in response.json()["errors"])


TIME_FILTERS = [
    pytest.param(operation.path, parameter["name"], id=f"{operation.path}?{parameter['name']}")
    for operation in READS
    for parameter in operation.query_parameters
    if parameter["schema"].get("format") == "date-time"
]


@pytest.mark.parametrize(("path", "name"), TIME_FILTERS)
def test_every_time_filter_at_the_calendars_ends_is_a_400(casino, path, name):
    from tests.support.api import client_for

    assert TIME_FILTERS
    failures = Failures()
    for moment in ("0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+00:01"):
        with failures.case(moment):
            response = client_for(casino.compliance).get(path, {name: moment})
            error = assert_api_error(response, 400, "out_of_range", name)
            assert "too far in the past or the future" in error["message"]
    failures.assert_none()


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
def test_the_calendars_ends_in_utc_are_still_answered(casino, moment):
    from tests.support.api import client_for

    assert client_for(casino.compliance).get("/api/logbook/", {"from": moment}).status_code == 200


NUMBER_FILTERS = [
    pytest.param(operation.path, parameter["name"], id=f"{operation.path}?{parameter['name']}")
    for operation in READS
    for parameter in operation.query_parameters
    if parameter["schema"].get("type") in ("integer", "number") and parameter["name"] not in ("page", "page_size")
]


@pytest.mark.parametrize(("path", "name"), NUMBER_FILTERS)
def test_every_number_filter_refuses_a_huge_number_with_400(casino, path, name):
    from tests.support.api import client_for

    assert len(NUMBER_FILTERS) >= 10
    failures = Failures()
    for number in (HUGE, -HUGE, 2**63):
        with failures.case(str(number)):
            assert_api_error(client_for(casino.compliance).get(path, {name: number}), 400, "any", name)
    failures.assert_none()


@pytest.mark.parametrize("operation", [op for op in READS if "{id}" in op.path], ids=str)
def test_a_huge_id_in_an_address_is_a_404(casino, operation):
    from tests.support.api import client_for

    response = client_for(casino.compliance).get(operation.path.replace("{id}", str(HUGE)))
    assert_api_error(response, 404, "not_found")


@pytest.mark.parametrize("operation", [op for op in READS if op.query_parameters and "{id}" not in op.path], ids=str)
def test_a_huge_page_is_not_a_server_error(casino, operation):
    from tests.support.api import client_for

    for name in ("page", "page_size"):
        response = client_for(casino.compliance).get(operation.path, {name: HUGE})
        assert response.status_code in (200, 404), response.content


INTEGER_WRITES = [
    pytest.param(operation, id=str(operation))
    for operation in operations(WRITE_METHODS)
    if any(field.type == "integer" for field in operation.body_fields)
]


@pytest.mark.parametrize("operation", INTEGER_WRITES)
def test_every_integer_field_refuses_a_huge_number_with_400(world, operation):  # noqa: F811
    fields = [field.path for field in operation.body_fields if field.type == "integer"]
    failures = Failures()
    for number in (HUGE, 2**63, 2**31):
        with failures.case(str(number)):
            response = send(world, operation, body_with({path: number for path in fields}))
            assert response.status_code == 400, response.content
            named = {e["field"] for e in response.json()["errors"]}
            # A list of ids is refused as a whole ("tables", not "tables.0").
            assert all(path in named or path.rsplit(".", 1)[0] in named for path in fields), (fields, response.json())
    failures.assert_none()


@pytest.mark.parametrize("odds", [[HUGE, 1], [35, HUGE], [10**400, 1]])
def test_huge_odds_are_a_400(casino, odds):
    from tests.support.api import client_for

    response = client_for(casino.compliance).post(
        "/api/rules-submissions/",
        json.dumps({"property": casino.property.pk, "effective_from": "2026-01-01", "payout_odds": {"straight": odds}}),
        content_type="application/json",
    )
    assert_api_error(response, 400, "odds_format", "payout_odds.straight")


@pytest.mark.parametrize(
    ("name", "limit"), [("cover_grace_minutes", 7 * 24 * 60), ("max_inspection_interval_hours", 366 * 24)]
)
def test_a_property_policy_a_calendar_cannot_hold_is_refused(casino, name, limit):
    """2**31 - 1 hours was accepted, and every later entry's deadline overflowed the calendar."""
    from tests.factories import UserFactory
    from tests.support.api import client_for

    admin = client_for(UserFactory(role="admin", property=None, is_staff=True))
    path = f"/api/properties/{casino.property.pk}/"
    assert_api_error(admin.patch(path, {name: limit + 1}, format="json"), 400, "max_value", name)
    assert admin.patch(path, {name: limit}, format="json").status_code == 200
