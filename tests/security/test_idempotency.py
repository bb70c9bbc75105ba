"""Idempotency-Key on every API write (draft-ietf-httpapi-idempotency-key-header): a repeat with the
same key gets the first answer again and writes nothing; the key reused for another body is a 422."""

from __future__ import annotations

import itertools
import threading
from datetime import timedelta

import pytest
import time_machine
from django.apps import apps
from django.db import connection
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from compliance.accounts.models import IdempotencyKey
from compliance.accounts.services import keys_purge
from compliance.rulebook import pa
from inspections.flags.models import ComplianceException
from inspections.logbook.models import Entry
from tests.compliance.test_layouts import BASIC
from tests.compliance.test_rules_submissions import STANDARD
from tests.factories import PASSWORD, GamingTableFactory, UserFactory, artwork_upload, flag_raised
from tests.support.api import client_for, signature
from tests.support.logbook import ALL_PASS, event, inspect

WRITE_METHODS = ("post", "put", "patch", "delete")


def write_endpoints() -> set[tuple[str, str]]:
    """Every write the API offers, read from its OpenAPI schema (the URLconf's routes)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        (method, path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in WRITE_METHODS
    }


def row_counts() -> dict[str, int]:
    """How many rows each of the project's tables holds (the keys' own table aside)."""
    models = itertools.chain.from_iterable(
        apps.get_app_config(label).get_models()
        for label in ("casinos", "accounts", "approvals", "logbook", "flags", "reports", "knox")
    )
    return {model._meta.label: model.objects.count() for model in models if model is not IdempotencyKey}


def signed(user) -> dict:
    return {"signature": signature(user)}


def _table_in(casino, *events, inspected=False):
    for kind in events:
        event(casino, kind)
    if inspected:
        inspect(casino)
    return casino.table


def _draft(casino) -> dict:
    body = {
        "property": casino.property.pk,
        "game": "roulette",
        "effective_from": timezone.localdate(timezone=casino.property.zone).isoformat(),
        "wheel_types": ["double_zero"],
        "payout_odds": STANDARD,
        "options": {"touchdown_paytable": "A"},
    }
    response = client_for(casino.compliance).post("/api/rules-submissions/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _layout(casino) -> dict:
    body = {
        "property": casino.property.pk,
        "game": "roulette",
        "name": "Keystone 2027",
        "features": BASIC,
        "tables": [casino.table.pk],
    }
    response = client_for(casino.compliance).post(
        "/api/layouts/", {**body, "artwork": artwork_upload()}, format="multipart"
    )
    assert response.status_code == 201, response.content
    return response.json()


def _flag(casino) -> ComplianceException:
    now = timezone.now()
    return flag_raised(casino.table, due_at=now)


# For each write: who sends it, where, and a body that is accepted (setting up what it needs).
def _requests(casino, regulator):
    c = casino
    return {
        ("post", "/api/adjustments/"): lambda: (
            c.maintenance,
            "/api/adjustments/",
            {
                "table": _table_in(c, "cover", "unlock").pk,
                "kind": "adjustment",
                "part": "rotor",
                "description": "Levelled",
                "performer": signature(c.maintenance),
                "witness": signature(c.security),
            },
        ),
        ("post", "/api/amendments/"): lambda: (
            c.floorperson,
            "/api/amendments/",
            {
                "entry": event(c, "cover").pk,
                "reason": "Wrong time",
                "correction": {"at": timezone.now().isoformat()},
                **signed(c.security),
            },
        ),
        ("post", "/api/auth/token/"): lambda: (
            None,
            "/api/auth/token/",
            {"username": c.security.username, "password": PASSWORD},
        ),
        ("post", "/api/auth/token/revoke/"): lambda: (c.security, "/api/auth/token/revoke/", {}),
        ("post", "/api/balls/"): lambda: (
            c.compliance,
            "/api/balls/",
            {"property": c.property.pk, "serial": "B-77", "material": "non_metallic", "diameter_inches": "0.8125"},
        ),
        ("post", "/api/deck-changes/"): lambda: (
            c.floorperson,
            "/api/deck-changes/",
            {
                "table": _casino_war(c).pk,
                "decks": 6,
                "cards_per_deck": 52,
                "cover_cards_per_deck": 2,
                "back_colours": ["red"],
                **signed(c.floorperson),
            },
        ),
        ("post", "/api/exceptions/{id}/acknowledge/"): lambda: (
            c.compliance,
            f"/api/exceptions/{_flag(c).pk}/acknowledge/",
            {"note": "Covered now", **signed(c.compliance)},
        ),
        ("post", "/api/exceptions/{id}/resolve/"): lambda: (
            c.compliance,
            f"/api/exceptions/{_flag(c).pk}/resolve/",
            {"note": "Covered now", **signed(c.compliance)},
        ),
        ("post", "/api/inspections/"): lambda: (
            c.floorperson,
            "/api/inspections/",
            {"table": _table_in(c, "cover", "unlock").pk, "items": ALL_PASS, **signed(c.floorperson)},
        ),
        ("post", "/api/irregularities/"): lambda: (
            c.floorperson,
            "/api/irregularities/",
            {
                "table": _table_in(c, "cover", "unlock", inspected=True) and event(c, "open").table_id,
                "kind": "same_direction",
                **signed(c.floorperson),
            },
        ),
        ("post", "/api/layouts/"): lambda: (
            c.compliance,
            "/api/layouts/",
            {
                "property": c.property.pk,
                "game": "roulette",
                "name": "Keystone 2027",
                "features": BASIC,
                "tables": [c.table.pk],
                "artwork": artwork_upload(),
            },
        ),
        ("post", "/api/layouts/{id}/decision/"): lambda: (
            regulator,
            f"/api/layouts/{_layout(c)['id']}/decision/",
            {"decision": "approved", "reference": "BGO-L-9", **signed(regulator)},
        ),
        ("post", "/api/people/"): lambda: (
            c.compliance,
            "/api/people/",
            {
                "username": "newguard",
                "full_name": "New Guard",
                "role": "security",
                "credential_number": "BC-777",
                "password": "a-long-enough-passphrase",
            },
        ),
        ("post", "/api/properties/"): lambda: (
            UserFactory(role="admin", property=None, is_staff=True),
            "/api/properties/",
            {"name": "Erie Casino", "licence_number": "PA-99", "jurisdiction": "PA", "time_zone": "America/New_York"},
        ),
        ("patch", "/api/properties/{id}/"): lambda: (
            c.compliance,
            f"/api/properties/{c.property.pk}/",
            {"cover_grace_minutes": 20},
        ),
        ("post", "/api/reports/"): lambda: (
            c.compliance,
            "/api/reports/",
            {"kind": "inspection_register", "property": c.property.pk, "from": "2026-11-01", "to": "2026-11-02"},
        ),
        ("post", "/api/rules-submissions/"): lambda: (
            c.compliance,
            "/api/rules-submissions/",
            {
                "property": c.property.pk,
                "game": "roulette",
                "effective_from": "2030-01-01",
                "wheel_types": ["double_zero"],
                "payout_odds": STANDARD,
                "options": {},
            },
        ),
        ("patch", "/api/rules-submissions/{id}/"): lambda: (
            c.compliance,
            f"/api/rules-submissions/{_draft(c)['id']}/",
            {"options": {"touchdown_paytable": "B"}},
        ),
        ("post", "/api/rules-submissions/{id}/decision/"): lambda: (
            regulator,
            f"/api/rules-submissions/{_filed(c)['id']}/decision/",
            {"decision": "approved", "reference": "BGO-9", **signed(regulator)},
        ),
        ("post", "/api/rules-submissions/{id}/file/"): lambda: (
            c.compliance,
            f"/api/rules-submissions/{_draft(c)['id']}/file/",
            signed(c.compliance),
        ),
        ("post", "/api/tables/"): lambda: (
            c.compliance,
            "/api/tables/",
            {"property": c.property.pk, "number": "R-09", "game": "roulette", "wheel_type": "single_zero"},
        ),
        ("patch", "/api/tables/{id}/"): lambda: (
            c.compliance,
            f"/api/tables/{c.table.pk}/",
            {"has_external_movable_parts": False},
        ),
        ("post", "/api/tables/{id}/close/"): lambda: (
            c.floorperson,
            f"/api/tables/{_table_in(c, 'cover', 'unlock', inspected=True) and event(c, 'open').table_id}/close/",
            signed(c.floorperson),
        ),
        ("post", "/api/tables/{id}/cover/"): lambda: (
            c.security,
            f"/api/tables/{c.table.pk}/cover/",
            signed(c.security),
        ),
        ("post", "/api/tables/{id}/open/"): lambda: (
            c.floorperson,
            f"/api/tables/{_table_in(c, 'cover', 'unlock', inspected=True).pk}/open/",
            signed(c.floorperson),
        ),
        ("post", "/api/tables/{id}/unlock/"): lambda: (
            c.security,
            f"/api/tables/{_table_in(c, 'cover').pk}/unlock/",
            signed(c.security),
        ),
        ("post", "/api/wheels/"): lambda: (
            c.compliance,
            "/api/wheels/",
            {
                "property": c.property.pk,
                "serial": "W-77",
                "wheel_type": "single_zero",
                "diameter_inches": "32",
                "number_order": _single_zero_order(),
                "colours": pa.ring_colours(pa.SINGLE_ZERO_ORDER),
                "compartments": "ring",
            },
        ),
    }


def _single_zero_order() -> list[str]:
    return list(pa.SINGLE_ZERO_ORDER)


def _casino_war(casino):
    return GamingTableFactory(property=casino.property, number="CW-1", game="casino_war", wheel_type=None)


def _filed(casino) -> dict:
    submission = _draft(casino)
    response = client_for(casino.compliance).post(
        f"/api/rules-submissions/{submission['id']}/file/", signed(casino.compliance), format="json"
    )
    assert response.status_code == 200, response.content
    return submission


def _client(user) -> APIClient:
    return client_for(user) if user is not None else APIClient()


def _send(client, method, path, body, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    # A body with a file (a layout's artwork) is sent as multipart, from its start each time.
    files = [value for value in body.values() if hasattr(value, "seek")] if isinstance(body, dict) else []
    for file in files:
        file.seek(0)
    return getattr(client, method)(path, body, format="multipart" if files else "json", **headers)


def test_the_table_below_covers_every_write_of_the_api(casino, regulator):
    assert set(_requests(casino, regulator)) == write_endpoints()


@pytest.mark.parametrize("endpoint", sorted(write_endpoints()), ids=lambda e: f"{e[0].upper()} {e[1]}")
def test_a_repeat_with_the_same_key_gets_the_first_answer_and_writes_nothing(casino, regulator, media, endpoint):
    method = endpoint[0]
    user, path, body = _requests(casino, regulator)[endpoint]()
    client = _client(user)
    first = _send(client, method, path, body, key='"tablet-7-0001"')
    assert 200 <= first.status_code < 300, first.content
    before = row_counts()
    again = _send(client, method, path, body, key='"tablet-7-0001"')
    after = row_counts()
    if user is None:
        # Signing in to the API is nobody's yet: no key is kept. Each sign-in is a new token for
        # its device (knox), and nothing else is written.
        assert again.status_code == first.status_code
        assert after.pop("knox.AuthToken") == before.pop("knox.AuthToken") + 1
        assert after == before
        return
    assert after == before
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def _open_inspection(casino):
    _table_in(casino, "cover", "unlock")
    return {"table": casino.table.pk, "items": ALL_PASS, **signed(casino.floorperson)}


def test_without_a_key_a_repeat_is_a_second_entry(casino):
    client = client_for(casino.floorperson)
    body = _open_inspection(casino)
    assert [_send(client, "post", "/api/inspections/", body).status_code for _ in range(2)] == [201, 201]
    assert Entry.objects.filter(kind="inspection").count() == 2


def test_the_same_key_with_another_body_is_refused_with_422(casino):
    client = client_for(casino.floorperson)
    body = _open_inspection(casino)
    assert _send(client, "post", "/api/inspections/", body, key="k-1").status_code == 201
    other = _send(client, "post", "/api/inspections/", {**body, "notes": "second look"}, key="k-1")
    assert other.status_code == 422
    (error,) = other.json()["errors"]
    assert error["code"] == "idempotency_key_reused" and error["field"] is None
    assert error["citation"] == "draft-ietf-httpapi-idempotency-key-header, Error Scenarios"
    assert Entry.objects.filter(kind="inspection").count() == 1


def test_a_key_is_a_persons_own(casino):
    body = _open_inspection(casino)
    assert _send(client_for(casino.floorperson), "post", "/api/inspections/", body, key="k-1").status_code == 201
    # Another person's key of the same name is another key: their request is made.
    assert (
        _send(
            client_for(casino.security), "post", "/api/inspections/", {**body, **signed(casino.security)}, key="k-1"
        ).status_code
        == 201
    )
    assert Entry.objects.filter(kind="inspection").count() == 2


def test_a_refused_request_leaves_its_key_free_for_the_corrected_one(casino):
    client = client_for(casino.floorperson)
    body = _open_inspection(casino)
    wrong = {**body, "signature": signature(casino.floorperson, "not-my-password")}
    assert _send(client, "post", "/api/inspections/", wrong, key="k-1").status_code == 400
    assert _send(client, "post", "/api/inspections/", body, key="k-1").status_code == 201
    assert Entry.objects.filter(kind="inspection").count() == 1


def test_a_key_is_forgotten_after_its_lifetime(casino, settings):
    settings.IDEMPOTENCY_KEY_HOURS = 24
    client = client_for(casino.floorperson)
    body = _open_inspection(casino)
    assert _send(client, "post", "/api/inspections/", body, key="k-1").status_code == 201
    with time_machine.travel(timezone.now() + timedelta(hours=25)):
        again = _send(client, "post", "/api/inspections/", body, key="k-1")
    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert Entry.objects.filter(kind="inspection").count() == 2


@pytest.mark.parametrize("key", ["", "x" * 256, "naïve"])
def test_a_malformed_key_is_refused(casino, key):
    response = _send(client_for(casino.floorperson), "post", "/api/inspections/", _open_inspection(casino), key=key)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "idempotency_key_invalid"
    assert not Entry.objects.filter(kind="inspection").exists()


def test_two_copies_sent_at_once_make_one_entry(committed_db, casino):
    """A double tap on a slow network: both copies arrive together; the second waits for the first."""
    body = _open_inspection(casino)
    results: list = [None, None]
    barrier = threading.Barrier(2)

    def send(index):
        try:
            client = APIClient()
            client.force_authenticate(casino.floorperson)
            barrier.wait()
            results[index] = _send(client, "post", "/api/inspections/", body, key="double-tap")
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.status_code for r in results) == [201, 201], [r.content for r in results]
    assert results[0].content == results[1].content
    assert sorted(r.has_header("Idempotent-Replayed") for r in results) == [False, True]
    assert Entry.objects.filter(kind="inspection").count() == 1


def test_the_minutely_scan_purges_keys_past_their_lifetime(casino):
    client = client_for(casino.floorperson)
    assert _send(client, "post", "/api/inspections/", _open_inspection(casino), key="k-1").status_code == 201
    assert keys_purge() == 0
    assert keys_purge(now=timezone.now() + timedelta(hours=25)) == 1
    assert not IdempotencyKey.objects.exists()


def test_the_schema_documents_the_header_on_every_write(casino):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for method, path in write_endpoints():
        operation = schema["paths"][path][method]
        assert "Idempotency-Key" in {p["name"] for p in operation["parameters"] if p["in"] == "header"}
        assert "422" in operation["responses"]


def test_the_admin_shows_the_kept_answers_and_makes_none(client, casino):
    assert (
        _send(
            client_for(casino.floorperson), "post", "/api/inspections/", _open_inspection(casino), key="k-1"
        ).status_code
        == 201
    )
    client.force_login(UserFactory(role="admin", property=None, is_staff=True, is_superuser=True))
    page = client.get("/admin/accounts/idempotencykey/")
    assert page.status_code == 200 and "/api/inspections/" in page.content.decode()
    assert client.get("/admin/accounts/idempotencykey/add/").status_code == 403


def test_a_browser_write_without_its_csrf_token_is_refused_as_before(casino):
    """The key changes nothing of the API's own checks: a session's write needs its CSRF token."""
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(casino.floorperson)
    body = _open_inspection(casino)
    for key in (None, "k-1"):
        response = _send(browser, "post", "/api/inspections/", body, key=key)
        assert response.status_code == 403 and "CSRF" in response.json()["errors"][0]["message"]
    assert not Entry.objects.filter(kind="inspection").exists()


def test_a_bad_token_with_a_key_is_a_401(casino):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token nope")
    response = _send(client, "post", "/api/inspections/", _open_inspection(casino), key="k-1")
    assert response.status_code == 401
    assert not IdempotencyKey.objects.exists()


def test_a_body_over_the_limit_is_the_parsers_413_and_nothing_is_kept(casino, settings):
    settings.API_MAX_BODY_BYTES = 1024
    body = {**_open_inspection(casino), "notes": "x" * 2000}
    response = _send(client_for(casino.floorperson), "post", "/api/inspections/", body, key="k-1")
    assert response.status_code == 413
    assert not IdempotencyKey.objects.exists() and not Entry.objects.filter(kind="inspection").exists()


# ---- A credential is never kept (issue 32, item 5) ----

CREDENTIAL_FIELDS = {"token", "password", "secret", "key"}


def test_a_token_asked_for_with_a_key_is_never_kept_nor_replayed(casino):
    """Signed in with a token, a client asks for another with an Idempotency-Key: the new token is not
    stored in the keys' table (in clear, for 24 hours), and a repeat is a new token, never the old one."""
    credentials = {"username": casino.security.username, "password": PASSWORD}
    token = APIClient().post("/api/auth/token/", credentials, format="json").json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    first = _send(client, "post", "/api/auth/token/", credentials, key='"token-1"')
    again = _send(client, "post", "/api/auth/token/", credentials, key='"token-1"')
    assert first.status_code == again.status_code == 200, first.content
    assert first.json()["token"] != again.json()["token"] and "Idempotent-Replayed" not in again
    kept = b"".join(bytes(row.response_body or b"") for row in IdempotencyKey.objects.all())
    assert first.json()["token"].encode() not in kept and not IdempotencyKey.objects.filter(key="token-1").exists()


def test_an_uploads_fingerprint_is_the_same_whatever_its_boundary_and_however_it_is_read():
    from django.test.client import encode_multipart

    from compliance.accounts.idempotency import fingerprint

    def body(boundary: str) -> bytes:
        return encode_multipart(boundary, {"data": '{"table": 4}', "note": "--not-a-boundary"})

    def seen(boundary: str, size: int) -> str:
        raw = body(boundary)
        chunks = (raw[at : at + size] for at in range(0, len(raw), size))
        return fingerprint(method="POST", path="/api/inspections/", body=chunks, boundary=boundary.encode())

    # Every split of the stream, the delimiter cut anywhere across two chunks, reads as one.
    found = {seen(boundary, size) for boundary in ("b0", "a-much-longer-boundary-7f3e") for size in range(1, 40)}
    assert len(found) == 1
    other = encode_multipart("b0", {"data": '{"table": 5}', "note": "--not-a-boundary"})
    assert fingerprint(method="POST", path="/api/inspections/", body=other, boundary=b"b0") not in found
