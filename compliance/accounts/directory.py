"""The casino's directory (LDAP), the part that needs no LDAP library: whether one is configured, and
the refusal when it cannot be asked. The backend itself (django-auth-ldap, python-ldap, installed from
requirements-directory.txt) is compliance.accounts.directory_backend, imported only when
LDAP_SERVER_URI is set: a machine without the directory's libraries runs everything else."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _


class DirectoryUnavailable(Exception):
    """The directory could not be asked (down, unreachable, refusing the product's own bind): nothing
    is decided about the password, so nothing is counted and nothing is written."""


def unavailable_message() -> str:
    return _(
        "The casino's directory cannot be reached, so no directory password can be checked now: try again "
        "in a minute. Nothing was recorded. A local administrator account still signs in."
    )


def directory_configured() -> bool:
    return bool(getattr(settings, "AUTH_LDAP_SERVER_URI", ""))
