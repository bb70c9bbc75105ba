"""What a signed POST costs the database (the performance issue: at most 12 queries), and the
API's token check: one query, not a look at every other token of the person."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry
from tests.security.test_authentication import api_with, obtain_token
from tests.support.api import signature
from tests.support.logbook import ALL_PASS

pytestmark = pytest.mark.django_db


def test_a_signed_inspection_by_token_takes_at_most_twelve_statements(casino):
    token = obtain_token(casino.floorperson)["token"]
    client = api_with(token)
    body = {"table": casino.table.pk, "items": ALL_PASS, "signature": signature(casino.floorperson)}
    assert client.post("/api/inspections/", body, format="json").status_code == 201
    with CaptureQueriesContext(connection) as queries:
        response = client.post("/api/inspections/", body, format="json")
    assert response.status_code == 201, response.content
    assert len(response.json()["signatures"]) == 1
    # The test's own transaction turns the service's into a savepoint: not a query of the request.
    statements = [query["sql"] for query in queries.captured_queries if "SAVEPOINT" not in query["sql"]]
    shown = "\n".join(statements)
    # The token; the throttle's count (its row read locked, then written); the table as the serializer
    # checks it is visible; the signer and their count of wrong passwords, in one; the table and the
    # chain head locked, in one.
    assert sum('FROM "knox_authtoken"' in sql for sql in statements) == 1, shown
    throttle = [sql for sql in statements if '"accounts_throttlecount"' in sql]
    assert [sql.split()[0] for sql in throttle] == ["SELECT", "UPDATE"], shown
    (signer,) = [sql for sql in statements if 'FROM "accounts_user"' in sql]
    assert '"accounts_signaturefailures"' in signer
    assert not [sql for sql in statements if sql.startswith('SELECT "accounts_signaturefailures"')], shown
    (lock,) = [
        sql
        for sql in statements
        if sql not in throttle and ("FOR UPDATE" in sql or 'INNER JOIN "logbook_chainhead"' in sql)
    ]
    assert 'INNER JOIN "logbook_chainhead"' in lock
    if connection.vendor == "postgresql":
        # The table with its logbook status (logbook.TableStatus), then the chain head.
        assert lock.endswith('FOR UPDATE OF "casinos_gamingtable", "logbook_tablestatus", "logbook_chainhead"'), lock
    # The entry, its signature, the chain head and the table's changed columns, a statement each, and
    # the flags the entry cured: at most twelve in all.
    for write in ('INSERT INTO "logbook_entry"', 'INSERT INTO "logbook_signature"', 'UPDATE "logbook_chainhead"'):
        assert sum(sql.startswith(write) for sql in statements) == 1, shown
    # The table's changed columns are its logbook status's (logbook.TableStatus).
    (table_update,) = [sql for sql in statements if sql.startswith('UPDATE "logbook_tablestatus"')]
    assert len(statements) <= 12, shown
    # The table row is written back with only what the entry changed.
    assert '"number"' not in table_update and '"game"' not in table_update
    assert Entry.objects.count() == 2
    assert chain_verify(property_id=casino.table.property_id).ok


def test_a_token_is_checked_in_one_query_and_expired_tokens_go_at_the_next_sign_in(casino):
    old = obtain_token(casino.security)["token"]
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    token = obtain_token(casino.security)["token"]
    assert AuthToken.objects.count() == 1  # the expired one went with the new sign-in
    with CaptureQueriesContext(connection) as queries:
        assert api_with(token).get("/api/properties/").status_code == 200
    assert sum('FROM "knox_authtoken"' in query["sql"] for query in queries.captured_queries) == 1
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))
    assert api_with(token).get("/api/properties/").status_code == 401
    assert api_with(old).get("/api/properties/").status_code == 401
    assert AuthToken.objects.count() == 0  # presented once expired, deleted
    assert APIClient().get("/api/properties/").status_code in (401, 403)
