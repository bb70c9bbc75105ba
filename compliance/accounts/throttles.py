"""How often a client may ask (DRF's throttles), counted by the client's real address (config.network):
the API's per-person and per-address rates, the token endpoint's, and the sign-in page's.

The counts live in the database (shared by every web process; the request path never waits on Redis),
in one row per client and rate (accounts.ThrottleCount), moved by one statement a request
(`throttle_hit`, the one door of that table). DRF's own throttles keep every request's time in the
cache, which on the database cache cost six statements a request, one of them a COUNT of the whole
cache table. This counts a sliding window the usual way: the requests allowed in the current window
of the rate, plus those of the previous window weighted by how much of it still lies within the
rate's duration (a client asking steadily at the rate is never refused; a burst is).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from django.db import connection
from rest_framework import throttling
from rest_framework.throttling import SimpleRateThrottle

from compliance.accounts.models import ThrottleCount
from config.network import client_ip

# About one request in this many also deletes the rows that expired (an indexed DELETE, never a COUNT).
CULL_EVERY = 500


@dataclass(frozen=True)
class Hit:
    hits: int  # allowed in the current window, this request included if it was allowed
    previous: int  # allowed in the previous window
    refused: bool


def throttle_hit(*, key: str, allowed: int, duration: int, now: float) -> Hit:
    """Count one request of `key` against `allowed` requests per `duration` seconds, in one statement:
    allowed (and counted) while the sliding estimate is below `allowed`, refused (and not counted) otherwise."""
    window = int(now // duration)
    weight = 1 - (now - window * duration) / duration  # the share of the previous window still in the rate's span
    q = connection.ops.quote_name
    table = q(ThrottleCount._meta.db_table)
    current = "CASE WHEN t.window_index = %s THEN t.hits ELSE 0 END"
    previous = "CASE WHEN t.window_index = %s THEN t.previous WHEN t.window_index = %s THEN t.hits ELSE 0 END"
    below = f"({previous}) * %s + ({current}) < %s"
    # The table's and columns' names are the model's; every value is a parameter.
    sql = (
        f"INSERT INTO {table} AS t ({q('key')}, window_index, hits, previous, refused, expires_at) "  # noqa: S608
        "VALUES (%s, %s, 1, 0, false, %s) "
        f"ON CONFLICT ({q('key')}) DO UPDATE SET "
        f"hits = ({current}) + CASE WHEN {below} THEN 1 ELSE 0 END, "
        f"previous = {previous}, "
        f"refused = NOT ({below}), "
        "window_index = %s, expires_at = %s "
        "RETURNING hits, previous, refused"
    )
    expires = (window + 2) * duration
    below_params = [window, window - 1, weight, window, allowed]
    params = [
        key,
        window,
        expires,
        window,
        *below_params,
        window,
        window - 1,
        *below_params,
        window,
        expires,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        hits, previous_hits, refused = cursor.fetchone()
        if random.randrange(CULL_EVERY) == 0:
            cursor.execute(f"DELETE FROM {table} WHERE expires_at < %s", [now])  # noqa: S608
    return Hit(hits=hits, previous=previous_hits, refused=bool(refused))


class CountedRateThrottle(SimpleRateThrottle):
    """DRF's SimpleRateThrottle with its counts in accounts.ThrottleCount instead of the cache."""

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.now = time.time()
        self.hit = throttle_hit(
            key=f"{key}:{self.duration}", allowed=self.num_requests, duration=self.duration, now=self.now
        )
        return not self.hit.refused

    def wait(self) -> float | None:
        """Seconds until the sliding estimate falls below the rate again (at least 1)."""
        hit, duration, allowed = self.hit, self.duration, self.num_requests
        into = (self.now % duration) / duration  # how far into the current window, 0..1
        if hit.hits >= allowed:
            # Not before the next window, and then until the current window's share has shrunk enough.
            until = (1 - into) + (1 - allowed / hit.hits)
        else:
            until = (1 - (allowed - hit.hits) / hit.previous) - into
        return max(1.0, math.ceil(until * duration))


class ClientAddressMixin:
    """DRF's throttles count by `client_ip`, not by DRF's own reading of X-Forwarded-For."""

    def get_ident(self, request):
        return client_ip(request)


class AnonRateThrottle(ClientAddressMixin, throttling.AnonRateThrottle, CountedRateThrottle):
    pass


class UserRateThrottle(ClientAddressMixin, throttling.UserRateThrottle, CountedRateThrottle):
    pass


class ScopedRateThrottle(ClientAddressMixin, throttling.ScopedRateThrottle, CountedRateThrottle):
    pass


class SignInRateThrottle(CountedRateThrottle):
    """Sign-in attempts per address, whatever the names tried (rate `login`): the lockout counts
    each name apart, so a guesser trying one password on many names meets this instead."""

    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}
