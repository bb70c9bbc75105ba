"""The register's keyset pages (docs/api.md, "Pagination"): no COUNT unless asked for, the same rows
as the numbered pages, walked both ways by the links, the same cost on every page."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from inspections.flags.models import ComplianceException
from inspections.logbook.models import Entry
from tests.factories import flag_raised
from tests.support.api import client_for
from tests.support.logbook import event, inspect

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(casino):
    for _ in range(8):
        inspect(casino)
        event(casino, "open")
        event(casino, "close")
    return casino


def walk(client, url: str, direction: str) -> list[list[int]]:
    pages = []
    while url:
        answer = client.get(url)
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert "count" not in body
        pages.append([row["seq"] for row in body["results"]])
        url = body[direction]
    return pages


def test_keyset_pages_walk_the_register_both_ways_without_a_count(history):
    client = client_for(history.security)
    everything = [
        row["seq"] for row in client.get("/api/logbook/", {"count": "true", "page_size": 500}).json()["results"]
    ]
    assert everything == list(Entry.objects.order_by("occurred_at", "seq").values_list("seq", flat=True))
    assert len(everything) == 24
    forward = walk(client, "/api/logbook/?page_size=5", "next")
    assert [len(page) for page in forward] == [5, 5, 5, 5, 4]
    assert [seq for page in forward for seq in page] == everything
    first = client.get("/api/logbook/?page_size=5").json()
    assert first["previous"] is None
    last = client.get("/api/logbook/?page_size=5").json()
    while last["next"]:
        last = client.get(last["next"]).json()
    backward = walk(client, last["previous"], "previous")
    assert [seq for page in reversed(backward) for seq in page] == everything[:20]


def test_a_keyset_page_costs_the_same_queries_wherever_it_is_and_counts_nothing(history):
    client = client_for(history.security)
    first = client.get("/api/logbook/?page_size=5").json()
    third = client.get(client.get(first["next"]).json()["next"])
    assert third.status_code == 200

    def statements(url: str) -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return [query["sql"] for query in captured.captured_queries]

    at_start = statements("/api/logbook/?page_size=5")
    further = statements(first["next"])
    assert len(at_start) == len(further)
    assert not any("COUNT(" in sql.upper() for sql in at_start + further)
    assert any("COUNT(" in sql.upper() for sql in statements("/api/logbook/?page_size=5&count=true"))


def test_the_numbered_pages_still_answer_with_their_count(history):
    client = client_for(history.security)
    body = client.get("/api/logbook/", {"page": 2, "page_size": 10}).json()
    assert body["count"] == 24 and len(body["results"]) == 10 and body["previous"] and body["next"]


@pytest.mark.parametrize("cursor", ["x", "bm90IGpzb24", "WyJuZXh0IiwgWzEsIDIsIDNdXQ", "WyJzaWRld2F5cyIsIFtdXQ"])
def test_a_cursor_not_made_by_the_api_is_a_404_in_the_api_format(casino, cursor):
    answer = client_for(casino.security).get("/api/logbook/", {"cursor": cursor})
    assert answer.status_code == 404
    assert answer.json()["errors"][0]["message"].startswith("Invalid cursor")


def test_the_flags_list_walks_newest_first_both_ways_without_a_count(casino):
    now = timezone.now()
    for n in range(7):
        flag_raised(
            casino.table,
            due_at=now - timedelta(hours=n + 1),
            detected_at=now - timedelta(minutes=n // 2),  # ties on the time: the id decides
            status="resolved" if n else "open",
            resolution="cleared" if n else "",
        )
    newest_first = list(ComplianceException.objects.order_by("-detected_at", "-id").values_list("id", flat=True))
    client = client_for(casino.security)
    pages = [[row["id"] for row in page] for page in walk_rows(client, "/api/exceptions/?page_size=3", "next")]
    assert [flag for page in pages for flag in page] == newest_first
    last = client.get("/api/exceptions/?page_size=3").json()
    while last["next"]:
        last = client.get(last["next"]).json()
    backward = [[row["id"] for row in page] for page in walk_rows(client, last["previous"], "previous")]
    assert [flag for page in reversed(backward) for flag in page] == newest_first[:6]


def walk_rows(client, url: str, direction: str) -> list[list[dict]]:
    pages = []
    while url:
        body = client.get(url).json()
        assert "count" not in body
        pages.append(body["results"])
        url = body[direction]
    return pages
