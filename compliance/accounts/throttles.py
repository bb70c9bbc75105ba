"""How often a client may ask (DRF's throttles), counted by the client's real address (config.network):
the API's per-person and per-address rates, the token endpoint's, and the sign-in page's.

The counts live in the database (shared by every web process; the request path never waits on Redis),
in one row per client and rate (accounts.ThrottleCount), read locked and written back by
`compliance.accounts.services.throttle_hit`. This counts a sliding window the usual way: the requests allowed in the
current window of the rate, plus those of the previous window weighted by how much of it still lies
within the rate's duration (a client asking steadily at the rate is never refused; a burst is).
"""

from __future__ import annotations

import math
import time

from rest_framework import throttling
from rest_framework.throttling import SimpleRateThrottle

from compliance.accounts.services import throttle_hit
from config.network import client_ip


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
