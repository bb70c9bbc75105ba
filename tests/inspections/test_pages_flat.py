"""Flat in tables and history (the performance issue's goal 3): the floor page, a table's page and the
flags page cost the same queries with one table and a short history as with many tables, a longer
history and more flags; and so does the signed step through the form."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import PASSWORD, GamingTableFactory, flag_raised
from tests.support.logbook import ALL_PASS, event, inspect

pytestmark = pytest.mark.django_db

PAGES = ["/floor/", "/tables/{table}/", "/flags/", "/flags/?status=resolved"]


def queries(client, url: str) -> int:
    client.get(url)  # the session and anything cached once, as for a person who reads the page again
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200, url
    return len(captured.captured_queries)


def grown(casino, *, tables: int, days: int, start: int = 0) -> None:
    """More tables, each flagged (one open, one resolved), and `days` of history on the first table."""
    now = timezone.now()
    for n in range(start, start + tables):
        table = GamingTableFactory(property=casino.property, number=f"G-{n:02d}")
        flag_raised(table, due_at=now - timedelta(minutes=30 + n))
        flag_raised(table, due_at=now - timedelta(days=1, minutes=n), status="resolved", resolution="cleared",
                    resolved_at=now)  # fmt: skip
    for _ in range(days):
        inspect(casino)
        event(casino, "open")
        event(casino, "close")


@pytest.mark.parametrize("page", PAGES)
def test_a_floor_page_costs_the_same_queries_whatever_the_tables_and_the_history(client, casino, page):
    client.force_login(casino.security)
    url = page.format(table=casino.table.pk)
    grown(casino, tables=1, days=1)  # a flag of each status and an entry: every list has a row to prefetch for
    small = queries(client, url)
    grown(casino, tables=12, days=10, start=1)
    assert queries(client, url) == small


def step_queries(client, url: str, form: dict) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        answer = client.post(url, form, follow=True)
    assert answer.redirect_chain and answer.status_code == 200
    # The test's own transaction turns the service's into a savepoint: not a query of the request.
    return [query["sql"] for query in captured.captured_queries if "SAVEPOINT" not in query["sql"]]


def test_the_signed_step_through_the_form_costs_the_same_queries_whatever_the_history(client, casino):
    """The step as the floor signs it: the form's POST, its redirect and the table page (the API's
    signed POST keeps its twelve in tests/security/test_request_queries.py)."""
    client.force_login(casino.security)
    form = {"username": casino.security.username, "password": PASSWORD, **{code: "pass" for code in ALL_PASS}}
    url = f"/tables/{casino.table.pk}/inspect/"
    grown(casino, tables=1, days=1)
    step_queries(client, url, form)  # each side measures a second step in a row
    small = step_queries(client, url, form)
    grown(casino, tables=12, days=10, start=1)
    step_queries(client, url, form)
    assert len(step_queries(client, url, form)) == len(small), "\n".join(small)


def test_the_signed_step_reads_the_flags_it_cured_and_raised_through_the_table(client, casino):
    """The flags the entry cured and raised, read once, by the table (its index): none by the curing
    entry alone, which no index leads with (every flag of every property would be scanned)."""
    client.force_login(casino.security)
    form = {"username": casino.security.username, "password": PASSWORD, **{code: "pass" for code in ALL_PASS}}
    grown(casino, tables=2, days=1)
    statements = step_queries(client, f"/tables/{casino.table.pk}/inspect/", form)
    flags = [sql for sql in statements if sql.startswith("SELECT") and 'FROM "flags_complianceexception"' in sql]
    wheres = [sql.split(" WHERE ", 1)[1] for sql in flags if " WHERE " in sql]
    cured = [where for where in wheres if '"cured_by_entry_id"' in where]
    assert len(cured) == 1, "\n".join(flags)
    assert '"flags_complianceexception"."table_id" =' in cured[0], cured[0]
