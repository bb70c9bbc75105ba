"""The people's only write paths (the API and the admin call these): each locks the person's row,
asks the rulebook, and saves only the fields it changes. Their API tokens are made and revoked here
too, and the rows that guard the writes: the keys of repeated writes (compliance.accounts.idempotency)
and the clients' counts against their rates (compliance.accounts.throttles)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.models import AccessAttempt
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import UserManager as DjangoUserManager
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from knox.models import AuthToken

from compliance.accounts.models import IdempotencyKey, LockLift, Role, SignatureFailures, ThrottleCount, User
from compliance.casinos.selectors import properties_managed_by
from compliance.casinos.services import only_editable
from compliance.rulebook import Jurisdiction, Violation, raise_if_any, rulebook_for
from compliance.rulebook.roles import STAFF_ROLES

# What a person's row holds that a person may set; the password is set by Django's own forms
# (or at creation here), the sign-in times by Django.
PERSON_EDITABLE = (
    "username",
    "email",
    "first_name",
    "last_name",
    "full_name",
    "role",
    "credential_number",
    "property",
    "jurisdiction",
    "security_supervisor",
    "language",
    "is_active",
    "is_staff",
    "is_superuser",
)


def _person_value(person: User, name: str):
    return person.property_id if name == "property" else getattr(person, name)


def _person_changed(person: User, changes: dict) -> dict:
    def comparable(name, value):
        return value.pk if name == "property" and value is not None else value

    return {name: value for name, value in changes.items() if _person_value(person, name) != comparable(name, value)}


def _person_has_signed(person: User) -> bool:
    """A signature in the logbook or on an approval, an entry recorded, a flag resolved (the
    logbook's models by name: its app depends on this one, not the other way)."""
    entries = apps.get_model("logbook", "Entry").objects.filter(recorded_by=person)
    flags = apps.get_model("flags", "ComplianceException").objects.filter(resolved_by=person)
    return person.signatures.exists() or person.approval_signatures.exists() or entries.exists() or flags.exists()


def _person_rules(person: User) -> Jurisdiction:
    # A person without a property (property_id None) reads as None here, without a query.
    if person.property is not None:
        return rulebook_for(person.property.jurisdiction)
    return rulebook_for(person.jurisdiction or "PA")


def person_violations(*, person: User, changes: dict) -> list[Violation]:
    """Every rule a change of a person breaks, saving nothing (person_update asks it under the
    person's lock; the admin's form asks it to show the refusal beside its field)."""
    changed = _person_changed(person, changes)
    if not {"credential_number", "property", "jurisdiction"} & set(changed):
        return []
    return _person_rules(person).person_may_change(
        person=person, changed=set(changed), has_signed=_person_has_signed(person)
    )


@transaction.atomic
def administrator_create(*, manager, username, email=None, password=None, **extra_fields) -> User:
    """An administrator made by `manage.py createsuperuser` (User.objects.create_superuser), with the
    administrator role and a placeholder credential unless given. `--noinput` skips Django's password
    validation: the administrator's password is the one most worth guessing, so it meets the same
    policy as everyone's."""
    extra_fields.setdefault("role", Role.ADMIN)
    extra_fields.setdefault("credential_number", f"ADMIN-{username}")
    if password is not None:
        validate_password(password, User(username=username, email=email or ""))
    return DjangoUserManager.create_superuser(manager, username, email, password, **extra_fields)


def person_signed_in(sender, *, user: User, **kwargs) -> None:
    """django.contrib.auth's `user_logged_in`, in place of its own receiver (AccountsConfig.ready):
    the time of the person's last sign-in, that field only."""
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])


def person_password_rehash(user: User, raw_password: str) -> None:
    """A password checked against a hash of an older algorithm (User.check_password) is stored again
    with the current one, that field only, as Django's own check does."""
    user.set_password(raw_password)
    user._password = None  # type: ignore[attr-defined]  # as Django's own check: not a password change
    user.save(update_fields=["password"])


@transaction.atomic
def person_from_directory(*, username: str, sign_in: Callable[[], User | None]) -> User | None:
    """A person of the casino's directory at a sign-in or a signature (directory_backend): `sign_in` is
    django-auth-ldap's own, which creates or updates the row as the directory's groups and attributes
    say; here in one transaction, the person's row locked when it exists (two sign-ins of one person,
    or an administrator's change, one after the other). A person the product's administrator made
    inactive stays so, whatever the directory says."""
    User.objects.select_for_update().filter(username__iexact=username).exists()
    person = sign_in()
    return person if person is not None and person.is_active else None


@transaction.atomic
def person_create(*, actor: User, password: str | None, **fields) -> User:
    """A new person. An administrator adds anyone; a compliance manager adds their own property's
    staff. Without a password (the admin's choice) the person cannot sign in until one is set."""
    only_editable(fields, PERSON_EDITABLE)
    if not actor.is_administrator:
        if fields.get("role") not in STAFF_ROLES or fields.get("is_staff") or fields.get("is_superuser"):
            raise PermissionDenied("A compliance manager adds security, floor, maintenance and compliance staff.")
        prop = fields.get("property")
        if prop is None or not properties_managed_by(actor).filter(pk=prop.pk).exists():
            raise PermissionDenied("A compliance manager adds staff to their own property.")
    fields.setdefault("is_staff", fields.get("role") == Role.ADMIN)
    person = User(**fields)
    if password is None:
        person.set_unusable_password()
    else:
        validate_password(password, person)
        person.set_password(password)
    person.full_clean(exclude=["password"], validate_unique=True)
    person.save(force_insert=True)
    return person


@transaction.atomic
def person_update(*, person_id: int, actor: User, changes: dict) -> User:
    """Change a person, under their row lock, by the rules: once they have signed, their credential
    number (on every signature, § 617a.2(e)) and their property or jurisdiction stay as they are."""
    only_editable(changes, PERSON_EDITABLE)
    if not actor.is_administrator:
        raise PermissionDenied("Only an administrator changes a person.")
    person = User.objects.select_for_update(of=("self",)).select_related("property").get(pk=person_id)
    changed = _person_changed(person, changes)
    if not changed:
        return person
    raise_if_any(person_violations(person=person, changes=changed))
    for name, value in changed.items():
        setattr(person, name, value)
    person.full_clean(exclude=["password"], validate_unique=True)
    person.save(update_fields=list(changed))
    return person


@transaction.atomic
def person_password_set(*, person_id: int, actor: User, password: str) -> User:
    """A new password, by the password policy, hashed with the configured hasher: set by the person
    or an administrator (Django's own forms set it in the admin and on the sign-in pages)."""
    if not (actor.is_administrator or actor.pk == person_id):
        raise PermissionDenied("Only the person or an administrator sets a password.")
    person = User.objects.select_for_update(of=("self",)).get(pk=person_id)
    validate_password(password, person)
    person.set_password(password)
    person.save(update_fields=["password"])
    return person


@transaction.atomic
def person_language_set(*, person_id: int, actor: User, language: str) -> User:
    """The language a person reads the pages, the API's refusals and their mail in ("" for their
    browser's): chosen by the person themselves or an administrator."""
    if not (actor.is_administrator or actor.pk == person_id):
        raise PermissionDenied("Only the person or an administrator chooses their language.")
    if language and language not in dict(settings.LANGUAGES):
        raise ValidationError({"language": f"“{language}” is not a language of this product."})
    person = User.objects.select_for_update(of=("self",)).get(pk=person_id)
    if person.language != language:
        person.language = language
        person.save(update_fields=["language"])
    return person


# ---- API tokens (django-rest-knox): each kept only as its digest ----


def token_create(*, person: User) -> tuple[AuthToken, str]:
    """A new API token for a person who has just given their password (one per device); the token
    itself is returned once, only its digest is kept. Their tokens that expired go now, not at every
    request (compliance.accounts.authentication)."""
    AuthToken.objects.filter(user=person, expiry__lt=timezone.now()).delete()
    return AuthToken.objects.create(user=person)


def token_expired_delete(*, token: AuthToken) -> None:
    """An expired token, presented once more: deleted (it is refused)."""
    AuthToken.objects.filter(digest=token.digest).delete()


def tokens_revoke(*, person_id: int, token_key: str | None = None) -> None:
    """Revoke one of the person's API tokens (signing out of the API), or, without a key, all of them
    (a new password, a sign-out by the session)."""
    tokens = AuthToken.objects.filter(user_id=person_id)
    if token_key is not None:
        tokens = tokens.filter(token_key=token_key)
    tokens.delete()


# ---- Locks left by wrong passwords: the signature's own count, and lifting a lock on the floor ----


def signature_failure_count(*, username: str, address: str, now: datetime, cooloff: timedelta) -> int:
    """One more wrong password typed to sign as `username` from `address`; answers the count, which
    starts again once the last failure is older than the cool-off. Kept apart from sign-in's count."""
    with transaction.atomic():
        row, created = SignatureFailures.objects.select_for_update().get_or_create(
            username=username, address=address, defaults={"failures": 1, "last_failure_at": now}
        )
        if created:
            return 1
        row.failures = 1 if row.last_failure_at <= now - cooloff else row.failures + 1
        row.last_failure_at = now
        row.save(update_fields=["failures", "last_failure_at"])
        return row.failures


def signature_failures_clear(*, username: str, address: str) -> None:
    """A right password before the limit starts the count again (as sign-in's does)."""
    SignatureFailures.objects.filter(username=username, address=address).delete()


def lock_lift(*, actor: User, person_id: int, reason: str, now: datetime) -> LockLift:
    """A security supervisor (of the person's property) or an administrator lifts the locks that wrong
    passwords left on a person's name, sign-in and signatures, from every address; logged, append-only."""
    if not actor.may("lockouts.lift"):
        raise PermissionDenied("Lifting a lock needs a security supervisor or an administrator.")
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": "Say why the lock is lifted (who asked, how they were identified)."})
    with transaction.atomic():
        person = User.objects.all().restrict(actor).select_for_update(of=("self",)).get(pk=person_id)
        sign_in = AccessAttempt.objects.filter(username=person.username)
        signature = SignatureFailures.objects.filter(username=person.username)
        counts = (
            sum(sign_in.values_list("failures_since_start", flat=True)),
            sum(signature.values_list("failures", flat=True)),
        )
        sign_in.delete()
        signature.delete()
        return LockLift.objects.create(
            lifted_by=actor,
            lifter_name=actor.display_name,
            lifter_credential=actor.credential_number,
            person=person,
            property_id=person.property_id,
            sign_in_attempts=counts[0],
            signature_failures=counts[1],
            reason=reason,
            lifted_at=now,
        )


# ---- Repeated writes: the keys' rows (compliance.accounts.idempotency) ----


def keys_expired_before(now=None):
    return (now or timezone.now()) - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)


@dataclass
class Claim:
    """The key's row, locked until the transaction ends: `fresh` when this request is the first."""

    row: IdempotencyKey
    fresh: bool
    fingerprint: str

    @property
    def same_request(self) -> bool:
        return self.row.fingerprint == self.fingerprint


def key_claim(*, user: User, key: str, method: str, path: str, fingerprint: str) -> Claim:
    """Insert the key's row, or lock the one already there. Call inside a transaction.

    On PostgreSQL, an insert that collides with a key another transaction has just inserted waits
    until that transaction ends: the second tap of a double tap waits for the first one's answer.
    A key older than IDEMPOTENCY_KEY_HOURS is forgotten and the request made anew.
    """
    for _attempt in range(3):
        now = timezone.now()
        try:
            with transaction.atomic():
                created = IdempotencyKey.objects.create(
                    user=user, key=key, method=method, path=path[:500], fingerprint=fingerprint, created_at=now
                )
            return Claim(row=created, fresh=True, fingerprint=fingerprint)
        except IntegrityError:
            pass
        row = IdempotencyKey.objects.select_for_update().filter(user=user, key=key).first()
        if row is None:  # forgotten between the two statements: try again
            continue
        if row.created_at < keys_expired_before(now) or row.response_status is None:
            # Expired, or left by a request that answered nothing to replay: this one starts anew.
            row.delete()
            continue
        return Claim(row=row, fresh=False, fingerprint=fingerprint)
    raise IntegrityError(f"Idempotency key {key!r} could not be claimed.")


def key_answer_keep(claim: Claim, *, status: int, body: bytes, headers: dict[str, str]) -> None:
    """The answer a claimed key gets again on a repeat: kept in the write's own transaction."""
    claim.row.response_status = status
    claim.row.response_body = body
    claim.row.response_headers = headers
    claim.row.save(update_fields=["response_status", "response_body", "response_headers"])


def key_recorded_keep(claim: Claim, *, recorded: str, location: str) -> None:
    """A signed form's key: what it recorded, in words, and the page that shows it (a repeat is sent there)."""
    claim.row.response_status = 303
    claim.row.recorded = recorded[:300]
    claim.row.response_headers = {"Location": location}
    claim.row.save(update_fields=["response_status", "recorded", "response_headers"])


def key_forget(claim: Claim) -> None:
    """The write was refused: the key is free again, so the corrected request may use it."""
    IdempotencyKey.objects.filter(pk=claim.row.pk).delete()


def keys_purge(*, now=None) -> int:
    """Delete the keys past their lifetime (the overdue scan's beat calls it)."""
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=keys_expired_before(now)).delete()
    return deleted


# ---- Rates: a client's count (compliance.accounts.throttles) ----

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
