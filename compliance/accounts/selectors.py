"""Which people a person may see, decided once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet

from compliance.accounts.models import LockLift, SignatureFailures, User


def people_visible_to(user) -> QuerySet[User]:
    """Staff see their property's people; regulators the people of their jurisdiction and its regulators
    (the rule: compliance.accounts.models.PersonQuerySet)."""
    return User.objects.restrict(user).select_related("property")


@dataclass(frozen=True)
class Lock:
    """A person's name with wrong passwords counted against it now: at sign-in, at signing, and
    whether either has reached its limit (locked)."""

    person: User
    sign_in_failures: int
    signature_failures: int
    sign_in_locked: bool
    signature_locked: bool

    @property
    def locked(self) -> bool:
        return self.sign_in_locked or self.signature_locked


def locks_visible_to(user, *, now: datetime) -> list[Lock]:
    """The people this person sees whose wrong passwords still count (within the cool-off), locked first."""
    since = now - settings.AXES_COOLOFF_TIME
    sign_in: dict[str, int] = {}
    for username, failures in AccessAttempt.objects.filter(attempt_time__gt=since).values_list(
        "username", "failures_since_start"
    ):
        sign_in[username] = sign_in.get(username, 0) + failures
    signing: dict[str, int] = {}
    for username, failures in SignatureFailures.objects.filter(last_failure_at__gt=since).values_list(
        "username", "failures"
    ):
        signing[username] = max(signing.get(username, 0), failures)
    people = people_visible_to(user).filter(username__in={*sign_in, *signing}).order_by("username")
    locks = [
        Lock(
            person=person,
            sign_in_failures=sign_in.get(person.username, 0),
            signature_failures=signing.get(person.username, 0),
            sign_in_locked=sign_in.get(person.username, 0) >= settings.AXES_FAILURE_LIMIT,
            signature_locked=signing.get(person.username, 0) >= settings.SIGNATURE_LOCKOUT_FAILURES,
        )
        for person in people
    ]
    return sorted(locks, key=lambda lock: not lock.locked)


def lock_lifts_visible_to(user) -> QuerySet[LockLift]:
    """The record of locks lifted, as the property's rows are seen."""
    return LockLift.objects.restrict(user).select_related("person")
