"""Where a request comes from, read once: the address that sign-in failures, throttles and the
request log count against (the people's app and the kernel's middleware both ask it)."""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_ip(request) -> str | None:
    """The address failures and throttles are counted against: the client's.

    X-Forwarded-For is believed only when the connection itself comes from one of our proxies
    (TRUSTED_PROXIES): a client that reaches gunicorn directly writes whatever it likes there. Each
    proxy appends the address it saw, so the right-most entry that is not one of our proxies is the
    client as our outermost proxy saw it; anything left of it came from the client."""
    remote = request.META.get("REMOTE_ADDR")
    if not _is_trusted_proxy(remote):
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    for address in reversed(forwarded):
        if not _is_trusted_proxy(address):
            return address if _parse(address) is not None else remote
    return remote


def _parse(address: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address or "")
    except ValueError:
        return None


def _is_trusted_proxy(address: str | None) -> bool:
    parsed = _parse(address)
    return parsed is not None and any(parsed in network for network in settings.TRUSTED_PROXIES)
