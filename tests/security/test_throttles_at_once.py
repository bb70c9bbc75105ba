"""The throttles' counts (compliance.accounts.throttles) under requests at once: each counted once."""

import threading

from django.db import connection

from compliance.accounts.models import ThrottleCount
from compliance.accounts.services import throttle_hit

MINUTE = 60
START = 1_800_000_000.0  # a window's first second (divisible by 60)


def test_requests_of_one_client_at_once_are_each_counted_once(committed_db):
    """Its row is locked while counted (a new row made by one of them, the others counting against it):
    no count is lost to another's write."""
    clients, each = 4, 5
    barrier = threading.Barrier(clients)

    def ask():
        try:
            barrier.wait()
            for _ in range(each):
                throttle_hit(key="together", allowed=1000, duration=MINUTE, now=START + 1)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert ThrottleCount.objects.get(key="together").hits == clients * each
