"""What a signed POST costs the database (the performance issue: at most 12 queries), and the
API's token check: one query, not a look at every other token of the person."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from inspections.logbook.models import Entry
from tests.inspections.test_api import signature
from tests.inspections.test_services import ALL_PASS
from tests.security.test_authentication import api_with, obtain_token

pytestmark = pytest.mark.django_db


def test_a_signed_inspection_by_token_takes_at_most_twelve_queries(casino):
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
    assert len(statements) <= 12, "\n".join(statements)
    # The table row is locked once and written back with only what the entry changed.
    (table_update,) = [sql for sql in statements if sql.startswith('UPDATE "casinos_gamingtable"')]
    assert '"number"' not in table_update and '"game"' not in table_update
    assert Entry.objects.count() == 2


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
