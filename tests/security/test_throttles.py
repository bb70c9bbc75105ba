"""The throttles' counts (compliance.accounts.throttles): a row read locked and written a request, a sliding window,
refusals not counted, expired rows culled by time; never a COUNT of a whole table."""

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from compliance.accounts import services, throttles
from compliance.accounts.models import ThrottleCount
from compliance.accounts.services import throttle_hit

pytestmark = pytest.mark.django_db

MINUTE = 60
START = 1_800_000_000.0  # a window's first second (divisible by 60)


def hits(key: str, times: list[float], allowed: int = 5) -> list[bool]:
    """Whether each request, at each time, was allowed."""
    return [not throttle_hit(key=key, allowed=allowed, duration=MINUTE, now=at).refused for at in times]


def test_a_burst_beyond_the_rate_is_refused_and_the_refusals_are_not_counted():
    assert hits("burst", [START + n for n in range(8)]) == [True] * 5 + [False] * 3
    row = ThrottleCount.objects.get(key="burst")
    assert (row.hits, row.previous, row.refused) == (5, 0, True)


def test_a_client_asking_steadily_at_the_rate_is_never_refused():
    # 5 a minute, one every 12 s, over five minutes.
    assert all(hits("steady", [START + 12 * n + 1 for n in range(25)]))


def test_the_previous_window_counts_as_much_as_it_still_lies_within_the_rate():
    assert all(hits("slide", [START + 50 + n for n in range(5)]))
    # 15 s into the next window, about three quarters of the previous five still count: two more.
    assert hits("slide", [START + 75, START + 76, START + 77]) == [True, True, False]
    # 45 s in, about a quarter of them, with the two of this window: two more.
    assert hits("slide", [START + 105, START + 106, START + 107]) == [True, True, False]


def test_a_window_long_past_counts_nothing():
    assert all(hits("old", [START + n for n in range(5)]))
    assert hits("old", [START + 3 * MINUTE + n for n in range(6)]) == [True] * 5 + [False]


def statements(captured) -> list[str]:
    """The statements' first words, the savepoints of the test's own transaction left out."""
    return [query["sql"].split()[0] for query in captured if "SAVEPOINT" not in query["sql"]]


def test_each_request_reads_and_writes_its_own_row_without_a_count_and_expired_rows_are_culled():
    hits("expired", [START])
    with mock.patch.object(services.random, "randrange", return_value=1), CaptureQueriesContext(connection) as q:
        hits("counted", [START + 3 * MINUTE])
    assert statements(q.captured_queries) == ["SELECT", "INSERT"]
    assert not [query for query in q.captured_queries if "COUNT(" in query["sql"].upper()]
    with mock.patch.object(services.random, "randrange", return_value=0), CaptureQueriesContext(connection) as q:
        hits("counted", [START + 3 * MINUTE + 1])
    assert statements(q.captured_queries) == ["SELECT", "UPDATE", "DELETE"]
    if connection.vendor == "postgresql":
        (read,) = [query["sql"] for query in q.captured_queries if query["sql"].startswith("SELECT")]
        assert read.endswith("FOR UPDATE")  # the row locked while it is counted
    assert set(ThrottleCount.objects.values_list("key", flat=True)) == {"counted"}


def test_a_refused_request_says_when_to_come_back(casino, monkeypatch):
    monkeypatch.setitem(throttles.SimpleRateThrottle.THROTTLE_RATES, "user", "5/minute")
    client = APIClient()
    client.force_authenticate(casino.security)
    with mock.patch.object(throttles.time, "time", return_value=START + 30):
        assert [client.get("/api/tables/").status_code for _ in range(6)] == [200] * 5 + [429]
        throttled = client.get("/api/tables/")
    # Not before the next window (30 s), and then until the current window's five weigh less than five.
    assert throttled.status_code == 429 and 30 <= int(throttled["Retry-After"]) <= 60
