"""How often a client may ask (DRF's throttles), counted by the client's real address (config.network):
the API's per-person and per-address rates, the token endpoint's, and the sign-in page's."""

from rest_framework import throttling
from rest_framework.throttling import SimpleRateThrottle

from config.network import client_ip


class ClientAddressMixin:
    """DRF's throttles count by `client_ip`, not by DRF's own reading of X-Forwarded-For."""

    def get_ident(self, request):
        return client_ip(request)


class AnonRateThrottle(ClientAddressMixin, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(ClientAddressMixin, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(ClientAddressMixin, throttling.ScopedRateThrottle):
    pass


class SignInRateThrottle(SimpleRateThrottle):
    """Sign-in attempts per address, whatever the names tried (rate `login`): the lockout counts
    each name apart, so a guesser trying one password on many names meets this instead."""

    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}
