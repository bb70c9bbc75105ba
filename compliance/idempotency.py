"""A write is made once: a repeat of it is answered with what was recorded the first time.

Two doors use it: the API's Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header,
compliance.api.idempotency) and the one-time token of every signed form (a double tap on a slow
tablet). The key's row is inserted first, in the same transaction as the write it guards, so a
second request with the same key waits on the first one's row and then reads its answer: two
entries can never come of one key, even at the same instant.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from compliance.models import IdempotencyKey, User

# What a key may be: printable ASCII, as a structured-field string may hold (RFC 8941 § 3.3.3).
KEY_MAX_LENGTH = 255


def key_valid(key: str) -> bool:
    return 0 < len(key) <= KEY_MAX_LENGTH and all(" " <= ch <= "~" for ch in key)


def fingerprint(*, method: str, path: str, body: bytes) -> str:
    """SHA-256 of what was asked: a key reused for something else is told apart from a repeat."""
    digest = hashlib.sha256()
    for part in (method.encode(), b"\n", path.encode(), b"\n", body):
        digest.update(part)
    return digest.hexdigest()


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
                row = IdempotencyKey.objects.create(
                    user=user, key=key, method=method, path=path[:500], fingerprint=fingerprint, created_at=now
                )
            return Claim(row=row, fresh=True, fingerprint=fingerprint)
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


def key_forget(claim: Claim) -> None:
    """The write was refused: the key is free again, so the corrected request may use it."""
    IdempotencyKey.objects.filter(pk=claim.row.pk).delete()


def keys_purge(*, now=None) -> int:
    """Delete the keys past their lifetime (the overdue scan's beat calls it)."""
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=keys_expired_before(now)).delete()
    return deleted
