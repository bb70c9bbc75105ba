"""Electronic signatures (docs/architecture.md: Signatures): the signer re-enters their password at the moment of signing,
and what is stored is bound to a SHA-256 of a canonical form of what was signed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest
from django.utils import timezone

from compliance.accounts.auth import lockout_minutes
from compliance.accounts.directory import DirectoryUnavailable, directory_configured
from compliance.accounts.models import SignatureFailures, User
from compliance.accounts.services import signature_failure_count, signature_failures_clear
from compliance.rulebook import RuleViolation, raise_if_any, rulebook_for
from compliance.rulebook.signatures import password_within_limit, signature_directory_unavailable
from config.network import client_ip
from config.validators import PASSWORD_MAX_LENGTH
from logbook_proof.formats import canonical  # the one canonical JSON of the proof format


class Unattended:
    """Stands in for the request when a command signs on the server itself (seed_demo): nobody typed
    the password, so there is no guesser to lock out and no address to count against. Named
    explicitly by the caller; never the default."""

    def __init__(self, command: str):
        self.command = command

    def __repr__(self) -> str:
        return f"Unattended({self.command!r})"


@dataclass(frozen=True)
class SignatureInput:
    """A signature as typed on the screen: a username and that person's password, and the request
    that brought them, which every wrong password is counted against (the lockout). There is no
    default: a caller without a request (a management command) says so with `Unattended`."""

    username: str
    password: str
    request: HttpRequest | Unattended = field(compare=False, repr=False)

    def __post_init__(self):
        # A forgotten request would sign without the lockout: refuse to build such a signature.
        if not isinstance(self.request, HttpRequest | Unattended):
            raise TypeError(f"A signature needs the HttpRequest that brought it (or Unattended), not {self.request!r}")


def content_digest(value) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def signer_authenticate(
    *, signature: SignatureInput, field: str, jurisdiction: str | Callable[[], str], in_logbook: bool
) -> User:
    """The named person re-authenticates now; a wrong password, or a name locked after too many, refuses."""
    # A refusal names the field and the rule that asks for the signature: the inspection log's for an
    # entry of the logbook (`in_logbook`), the product's policy for anything else signed.
    # Whatever brought it: a password beyond the limit is never hashed (nor counted as a failure).
    raise_if_any([password_within_limit(password=signature.password, field=field, max_length=PASSWORD_MAX_LENGTH)])

    def rules():  # asked only for a refusal: the jurisdiction may cost a query
        return rulebook_for(jurisdiction() if callable(jurisdiction) else jurisdiction)

    if isinstance(signature.request, Unattended):
        # On the server, by a command: the password is checked, nothing is counted.
        user = ModelBackend().authenticate(None, username=signature.username, password=signature.password)
        if user is None:
            raise RuleViolation(
                [rules().signature_invalid(field=field, username=signature.username, in_logbook=in_logbook)]
            )
        return user
    # A typed signature has its own count, per name and address, apart from sign-in's (django-axes):
    # a witness's wrong password on another person's tablet locks signing as them there, never their
    # signing in. A locked name is refused before any password is checked, even the right one.
    address = client_ip(signature.request) or ""
    limit, cooloff = settings.SIGNATURE_LOCKOUT_FAILURES, settings.AXES_COOLOFF_TIME

    def locked():
        return rules().signature_locked_out(
            field=field, username=signature.username, minutes=lockout_minutes(), in_logbook=in_logbook
        )

    # One read of the person and of the count: it says whether the name is locked here, and whether a
    # right password has anything to clear (most signatures have none: no further query).
    person, counted = _signer_and_count(username=signature.username, address=address)
    if counted is not None and _locked(counted):
        raise RuleViolation([locked()])
    # As ModelBackend.authenticate, not django.contrib.auth.authenticate: that one would count the
    # failure for sign-in too.
    try:
        user = _password_checked(person, signature)
    except DirectoryUnavailable:
        # Nothing is decided about the password: not counted, nothing recorded.
        raise RuleViolation(
            [signature_directory_unavailable(field=field, username=signature.username, in_logbook=in_logbook)]
        ) from None
    if user is None:
        failures = signature_failure_count(
            username=signature.username, address=address, now=timezone.now(), cooloff=cooloff
        )
        if failures >= limit:
            raise RuleViolation([locked()])
        raise RuleViolation(
            [
                rules().signature_invalid(
                    field=field,
                    username=signature.username,
                    in_logbook=in_logbook,
                    remaining=limit - failures,
                    minutes=lockout_minutes(),
                )
            ]
        )
    if counted is not None:
        signature_failures_clear(username=signature.username, address=address)
    return user


def _signer_and_count(*, username: str, address: str) -> tuple[User | None, SignatureFailures | None]:
    """The person named, and the wrong passwords typed to sign as that name from `address`."""
    # One query: the count is a subquery of the person's row.
    count = SignatureFailures.objects.filter(username=OuterRef("username"), address=address).order_by()
    person = (
        User._default_manager.filter(username=username)
        .annotate(
            signature_failures=Subquery(count.values("failures")[:1]),
            signature_last_failure_at=Subquery(count.values("last_failure_at")[:1]),
        )
        .first()
    )
    if person is None:  # a second query, only on the way to a refusal
        return None, SignatureFailures.objects.filter(username=username, address=address).first()
    if person.signature_failures is None:
        return person, None
    return person, SignatureFailures(
        username=username,
        address=address,
        failures=person.signature_failures,
        last_failure_at=person.signature_last_failure_at,
    )


def _password_checked(person: User | None, signature: SignatureInput) -> User | None:
    """ModelBackend.authenticate's check of a person already read: the password, and an active account."""
    password = signature.password
    if person is not None and person.has_usable_password():
        if person.check_password(password) and ModelBackend().user_can_authenticate(person):
            return person
        return None
    # A person without a local password (or nobody of that name) is asked of the casino's directory,
    # now: a password it changed, a person it disabled or took out of every mapped group, cannot sign.
    if directory_configured():
        # Imported here: django-auth-ldap is installed only where a directory is (requirements-directory.txt).
        from compliance.accounts.directory_backend import DirectoryBackend

        return DirectoryBackend().authenticate(signature.request, username=signature.username, password=password)
    User().set_password(password)  # Django's #20760: a name that does not exist takes as long to refuse
    return None


def _locked(counted: SignatureFailures) -> bool:
    """The limit reached within the cool-off."""
    return (
        counted.failures >= settings.SIGNATURE_LOCKOUT_FAILURES
        and counted.last_failure_at > timezone.now() - settings.AXES_COOLOFF_TIME
    )


def signature_locked(*, username: str, address: str) -> bool:
    """Whether signing as `username` from `address` is locked: the limit reached within the cool-off."""
    counted = SignatureFailures.objects.filter(username=username, address=address).first()
    return counted is not None and _locked(counted)
