"""An entry's time is one that could be true: not in the future beyond a device clock's skew, and
not further back than ENTRY_MAX_BACKDATE_HOURS (product policy, derived from § 617a.2(e)).

An inspection "performed" in year 0001 was once accepted into the append-only logbook, where it
could never be deleted. Every API write that carries a time, found from the OpenAPI schema, is
covered; so are an amendment's corrected times and the amendment page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from compliance.rulebook.jurisdictions.pennsylvania import ENTRY_TIME_PLAUSIBLE, INSPECTION_LOG
from inspections.logbook import services
from inspections.logbook.models import Entry, EntryKind, Signature
from tests.api_schema import WRITE_METHODS, operations
from tests.factories import GamingTableFactory
from tests.support.api import client_for, signature
from tests.support.logbook import ALL_PASS, event, inspect, refused
from tests.support.people import sign


def _tomorrow() -> str:
    return (timezone.now() + timedelta(days=1)).isoformat()


# The refused times, with the code and citation each is refused with.
IMPOSSIBLE = {
    "year 1": (lambda: "0001-01-01T00:00:00Z", "time_too_old", ENTRY_TIME_PLAUSIBLE),
    "year 9999": (lambda: "9999-12-31T23:59:59Z", "time_in_future", INSPECTION_LOG),
    "tomorrow": (_tomorrow, "time_in_future", INSPECTION_LOG),
    "two days ago": (lambda: (timezone.now() - timedelta(days=2)).isoformat(), "time_too_old", ENTRY_TIME_PLAUSIBLE),
}


def _time_fields(operation) -> list[str]:
    return [f.path for f in operation.body_fields if f.schema.get("format") == "date-time"]


TIMED_WRITES = [op for op in operations(WRITE_METHODS) if _time_fields(op)]


def _open(casino) -> None:
    inspect(casino)
    event(casino, "open")


def _war_table(casino):
    return GamingTableFactory(
        property=casino.property, number="W-01", game="casino_war", wheel_type=None, has_external_movable_parts=False
    )


# For each timed write: bring the table to where the write is allowed, and the body without its time.
SETUPS = {
    "POST /api/inspections/": lambda c: (
        "/api/inspections/",
        {"table": c.table.pk, "items": ALL_PASS, "signature": signature(c.floorperson)},
    ),
    "POST /api/adjustments/": lambda c: (
        "/api/adjustments/",
        {
            "table": c.table.pk,
            "kind": "adjustment",
            "part": "ball track",
            "description": "Tightened the ball track",
            "performer": signature(c.maintenance),
            "witness": signature(c.security),
        },
    ),
    "POST /api/irregularities/": lambda c: (
        _open(c),
        (
            "/api/irregularities/",
            {"table": c.table.pk, "kind": "foreign_object", "signature": signature(c.floorperson)},
        ),
    )[1],
    "POST /api/deck-changes/": lambda c: (
        "/api/deck-changes/",
        {
            "table": _war_table(c).pk,
            "decks": 6,
            "cards_per_deck": 52,
            "cover_cards_per_deck": 2,
            "back_colours": ["red"],
            "signature": signature(c.floorperson),
        },
    ),
    "POST /api/tables/{id}/cover/": lambda c: (
        f"/api/tables/{c.table.pk}/cover/",
        {"signature": signature(c.security)},
    ),
    "POST /api/tables/{id}/unlock/": lambda c: (
        event(c, "cover"),
        (f"/api/tables/{c.table.pk}/unlock/", {"signature": signature(c.security)}),
    )[1],
    "POST /api/tables/{id}/open/": lambda c: (
        inspect(c),
        (f"/api/tables/{c.table.pk}/open/", {"signature": signature(c.floorperson)}),
    )[1],
    "POST /api/tables/{id}/close/": lambda c: (
        _open(c),
        (f"/api/tables/{c.table.pk}/close/", {"signature": signature(c.floorperson)}),
    )[1],
}


def test_every_timed_write_is_covered():
    """A new endpoint that takes a time fails here until it is given a setup (and so a test)."""
    assert {str(op) for op in TIMED_WRITES} == set(SETUPS)


def _written() -> tuple[int, int]:
    return Entry.objects.count(), Signature.objects.count()


@pytest.mark.parametrize("operation", TIMED_WRITES, ids=str)
def test_every_timed_write_refuses_an_impossible_time_and_writes_nothing(casino, operation):
    [field] = _time_fields(operation)
    url, body = SETUPS[str(operation)](casino)
    client = client_for(casino.compliance)
    for name, (when, code, citation) in IMPOSSIBLE.items():
        before = _written()
        response = client.post(url, {**body, field: when()}, format="json")
        assert response.status_code == 400, (name, response.content)
        errors = response.json()["errors"]
        assert [(e["code"], e["citation"], e["field"]) for e in errors] == [(code, citation, field)], (name, errors)
        assert _written() == before, name
    # The same request with a true time is recorded: the refusals above were the time's alone.
    response = client.post(url, {**body, field: timezone.now().isoformat()}, format="json")
    assert response.status_code in (200, 201), response.content


def test_a_late_entry_within_the_bound_is_recorded_and_beyond_it_refused(casino):
    bound = timedelta(hours=settings.ENTRY_MAX_BACKDATE_HOURS)
    assert bound >= timedelta(hours=8)  # a shift's entries can still be written up at its end
    refused(
        lambda: inspect(casino, at=timezone.now() - bound - timedelta(minutes=1)),
        "time_too_old",
        ENTRY_TIME_PLAUSIBLE,
    )
    entry = inspect(casino, at=timezone.now() - bound + timedelta(minutes=1))
    assert entry.kind == EntryKind.INSPECTION


def test_the_bound_is_a_setting(casino, settings):
    settings.ENTRY_MAX_BACKDATE_HOURS = 2
    refused(lambda: inspect(casino, at=timezone.now() - timedelta(hours=3)), "time_too_old", ENTRY_TIME_PLAUSIBLE)
    inspect(casino, at=timezone.now() - timedelta(hours=1))


@pytest.mark.parametrize("name", list(IMPOSSIBLE))
def test_an_amendment_refuses_an_impossible_corrected_time(casino, name):
    when, code, citation = IMPOSSIBLE[name]
    original = inspect(casino)
    before = _written()
    response = client_for(casino.floorperson).post(
        "/api/amendments/",
        {
            "entry": original.pk,
            "reason": "Typed the wrong time",
            "correction": {"performed_at": when()},
            "signature": signature(casino.floorperson),
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert [(e["code"], e["citation"], e["field"]) for e in errors] == [(code, citation, "correction.performed_at")]
    assert _written() == before


def test_a_correction_may_move_a_time_back_within_the_bound_of_when_the_entry_was_recorded(casino):
    original = inspect(casino)
    earlier = original.recorded_at - timedelta(hours=settings.ENTRY_MAX_BACKDATE_HOURS) + timedelta(minutes=1)
    amendment = services.amendment_record(
        entry_id=original.pk,
        reason="Written up at the end of the shift",
        correction={"performed_at": earlier.isoformat()},
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    assert amendment.amends == original


def test_the_amendment_page_refuses_year_one_with_a_form_error(client, casino):
    from tests.inspections.test_web import signed

    original = inspect(casino)
    client.force_login(casino.floorperson)
    before = _written()
    response = client.post(
        f"/entries/{original.pk}/amend/",
        signed(casino.floorperson, reason="Typed the wrong time", corrected_time="0001-01-01T00:00"),
    )
    assert response.status_code == 200
    assert ENTRY_TIME_PLAUSIBLE in response.content.decode()
    assert _written() == before
