"""Client mistakes are 400s (or 404s) in docs/api.md's format, never 500s."""

import pytest

from compliance.rulebook.text import REQUEST_FORM
from tests.support.api import client_for
from tests.support.logbook import inspect

BIG = 99999999999999999999


@pytest.mark.parametrize(
    "path",
    [
        f"/api/logbook/?table={BIG}",
        f"/api/logbook/?property={BIG}",
        f"/api/inspections/?table={BIG}",
        f"/api/tables/?property={BIG}",
        f"/api/people/?property={BIG}",
        f"/api/wheels/?property={BIG}",
        f"/api/balls/?property={BIG}",
        "/api/logbook/?table=-1",
        "/api/logbook/?table=abc",
    ],
)
def test_ids_out_of_range_in_filters_are_400(casino, path):
    response = client_for(casino.compliance).get(path)
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] in ("table", "property")


def test_checklist_answers_are_true_or_false_only(casino):
    from tests.support.api import signature
    from tests.support.logbook import ALL_PASS

    response = client_for(casino.floorperson).post(
        "/api/inspections/",
        {
            "table": casino.table.pk,
            "items": {**ALL_PASS, "parts_secure": "yes"},
            "signature": signature(casino.floorperson),
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "items.parts_secure"


@pytest.mark.parametrize("table", [7.5, True, "7a", [1]])
def test_a_table_id_is_a_whole_number(casino, table):
    from tests.support.api import signature
    from tests.support.logbook import ALL_PASS

    response = client_for(casino.floorperson).post(
        "/api/inspections/",
        {"table": table, "items": ALL_PASS, "signature": signature(casino.floorperson)},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        "code": "incorrect_type",
        "message": f"Give the id as a whole number, not {type(table).__name__}.",
        "citation": REQUEST_FORM,
        "field": "table",
    }


def test_a_time_without_its_offset_is_refused(casino):
    from tests.support.api import signature

    response = client_for(casino.security).post(
        f"/api/tables/{casino.table.pk}/cover/",
        {"at": "2026-11-23T10:00:00", "signature": signature(casino.security)},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "naive"


def test_an_unknown_api_address_is_a_json_404(casino, settings):
    settings.DEBUG = False  # with DEBUG on, Django shows its own technical 404 page
    response = client_for(casino.security).get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_verify_logbook_names_an_unknown_property(db):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="no property with id 99"):
        call_command("verify_logbook", property=99)


def test_a_well_formed_but_impossible_time_is_a_400(casino):
    """Found by the fuzzer (tests/security/test_fuzz.py): 10:61 raised a ValueError, a 500."""
    from tests.support.api import client_for, signature

    response = client_for(casino.security).post(
        f"/api/tables/{casino.table.pk}/cover/",
        {"at": "2026-11-23T10:61:00Z", "signature": signature(casino.security)},
        format="json",
    )
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "at"


def test_a_filter_time_with_an_offset_postgresql_does_not_know_is_compared_in_utc(casino):
    """Found by a deeper fuzzing pass: ISO 8601 allows -19:04, PostgreSQL only ±15:59 (it was a 500)."""
    inspect(casino)
    client = client_for(casino.compliance)
    for path in ("/api/logbook/", "/api/inspections/"):
        # 2000-01-01 00:00 at -19:04 is 19:04 UTC that day, long before the inspection: it is listed.
        found = client.get(path, {"from": "2000-01-01T00:00:00-19:04", "count": "true"})
        assert found.status_code == 200 and found.json()["count"] == 1, found.content
        # The same instant as an upper bound lists nothing.
        assert client.get(path, {"to": "2000-01-01T00:00:00-19:04", "count": "true"}).json()["count"] == 0
