"""How often a client may ask (DRF's throttles), counted by the client's real address (config.network):
the API's per-person and per-address rates, the token endpoint's, and the sign-in page's.

The counts live in the database (shared by every web process; the request path never waits on Redis),
in one row per client and rate (accounts.ThrottleCount), read locked and written back by `throttle_hit`,
the one door of that table. This counts a sliding window the usual way: the requests allowed in the
current window of the rate, plus those of the previous window weighted by how much of it still lies
within the rate's duration (a client asking steadily at the rate is never refused; a burst is).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from django.db import IntegrityError, transaction
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
    """Count one request of `key` against `allowed` requests per `duration` seconds, its row locked:
    allowed (and counted) while the sliding estimate is below `allowed`, refused (and not counted) otherwise."""
    window = int(now // duration)
    weight = 1 - (now - window * duration) / duration  # the share of the previous window still in the rate's span
    expires = (window + 2) * duration
    try:
        with transaction.atomic():
            try:
                row = ThrottleCount.objects.select_for_update().get(key=key)
            except ThrottleCount.DoesNotExist:
                row = ThrottleCount.objects.create(
                    key=key, window_index=window, hits=1, previous=0, refused=False, expires_at=expires
                )
            else:
                current = row.hits if row.window_index == window else 0
                previous = {window: row.previous, window - 1: row.hits}.get(row.window_index, 0)
                row.refused = previous * weight + current >= allowed
                row.hits = current if row.refused else current + 1
                row.previous, row.window_index, row.expires_at = previous, window, expires
                row.save(update_fields=["hits", "previous", "refused", "window_index", "expires_at"])
    except IntegrityError:  # another request of the same client made its row first: count against that one
        return throttle_hit(key=key, allowed=allowed, duration=duration, now=now)
    if random.randrange(CULL_EVERY) == 0:
        ThrottleCount.objects.filter(expires_at__lt=now).delete()
    return Hit(hits=row.hits, previous=row.previous, refused=row.refused)


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
