"""Lockout after repeated wrong passwords (django-axes), wherever a password is typed: the sign-in
page, the API's token endpoint and every signature's re-authentication (compliance.accounts.signatures)."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from compliance.accounts.services import tokens_revoke


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a locked username before any password is checked, even the right one."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        # A password checked without the request that brought it could not be counted, so it is
        # refused outright (Django's `authenticate` then answers None whatever the backends after this
        # one say): every door passes its request. A command signing on the server itself does not
        # come here (compliance.accounts.signatures.Unattended).
        if request is None:
            raise PermissionDenied("A password is only checked with the request that brought it.")
        return super().authenticate(request, username=username, password=password, **kwargs)


def api_tokens_revoke_on_password_change(sender, instance, created: bool, **kwargs) -> None:
    """A new or unusable password revokes the person's API tokens: the old one's holder may have made one."""
    # Sessions end by Django's own check of the password hash.
    if created:
        return
    # A new password (set_password, a reset, the admin's form) sets `_password`; a hash upgraded at
    # sign-in leaves it unset and changes nothing.
    if getattr(instance, "_password", None) is not None or not instance.has_usable_password():
        tokens_revoke(person_id=instance.pk)


def is_locked_out(request) -> bool:
    """Whether axes refused (or just locked) the last attempt made with this request."""
    return bool(getattr(request, "axes_locked_out", False))


def lockout_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_minutes() -> int:
    return lockout_seconds() // 60


def lockout_message(username: str) -> str:
    return _(
        "Too many wrong passwords for “%(username)s” from this device: signing in is locked for "
        "%(minutes)s minutes. A security supervisor or an administrator can lift the lock."
    ) % {"username": username, "minutes": lockout_minutes()}
