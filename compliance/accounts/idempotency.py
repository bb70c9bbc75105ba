"""A write is made once: a repeat of it is answered with what was recorded the first time.

Two doors use it: the API's Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header,
compliance.accounts.middleware) and the one-time token of every signed form (a double tap on a slow
tablet). The key's row is inserted first, in the same transaction as the write it guards, so a
second request with the same key waits on the first one's row and then reads its answer: two
entries can never come of one key, even at the same instant. The keys' rows are written by
compliance.accounts.services (`key_claim`, `key_answer_keep`, `key_recorded_keep`, `key_forget`,
`keys_purge`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from compliance.accounts.models import IdempotencyKey
from compliance.accounts.services import key_claim, key_forget, key_recorded_keep, keys_expired_before
from compliance.rulebook import RuleViolation

T = TypeVar("T")

# What a key may be: printable ASCII, as a structured-field string may hold (RFC 8941 § 3.3.3).
KEY_MAX_LENGTH = 255


def key_valid(key: str) -> bool:
    return 0 < len(key) <= KEY_MAX_LENGTH and all(" " <= ch <= "~" for ch in key)


def fingerprint(*, method: str, path: str, body: bytes | Iterable[bytes], boundary: bytes = b"") -> str:
    """SHA-256 of what was asked: a key reused for something else is told apart from a repeat."""
    digest = hashlib.sha256()
    for part in (method.encode(), b"\n", path.encode(), b"\n"):
        digest.update(part)
    chunks = [body] if isinstance(body, bytes) else body  # in chunks: a large upload is never held whole
    # A multipart body's boundary is left out: a client sending its request again draws a new one
    # (curl, requests, a browser), and the request is still the same one.
    if not boundary:
        for chunk in chunks:
            digest.update(chunk)
        return digest.hexdigest()
    # The delimiter is "--" and the boundary (RFC 2046 § 5.1.1); it may straddle two chunks, so the
    # end of each chunk that could begin one waits for the next. NUL is no boundary character: the
    # mark put in its place never takes part in a match.
    delimiter, kept = b"--" + boundary, len(boundary) + 1
    pending = b""
    for chunk in chunks:
        pending = (pending + chunk).replace(delimiter, b"\0")
        digest.update(pending[:-kept])
        pending = pending[-kept:]
    digest.update(pending.replace(delimiter, b"\0"))
    return digest.hexdigest()


# ---- Signed forms: a one-time token in each form shown ----

FORM_KEY_PREFIX = "form:"  # a form's token and an API client's key never share a row


def form_token_new() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class AlreadyRecorded:
    """The form was sent before with this token: what it recorded, and the page that shows it."""

    recorded: str
    location: str


def _form_key(token: str) -> str:
    return FORM_KEY_PREFIX + token


def form_write_once(
    *, request, token: str, write: Callable[[], T], recorded: Callable[[T], tuple[str, str]]
) -> T | AlreadyRecorded:
    """Call `write` once per form token, in one transaction with the token's row."""
    if not token or not key_valid(token):
        return write()  # a form from before tokens: recorded as always
    refusal = None
    with transaction.atomic():
        claim = key_claim(user=request.user, key=_form_key(token), method="POST", path=request.path, fingerprint="form")
        if not claim.fresh:
            # A second submission of the same form, even one arriving at once (it waited on the
            # first's row), is shown what the first recorded instead of making a second entry.
            return AlreadyRecorded(claim.row.recorded, claim.row.response_headers.get("Location", "/"))
        try:
            result = write()
        except RuleViolation as caught:
            # The token is freed so the corrected form can be sent again; what the refusal itself
            # recorded (a wrong password counted for the lockout) is kept.
            refusal = caught
            key_forget(claim)
        else:
            # What was recorded ("#12: Inspection at table R-01") and where it is shown, in the language
            # in use: a repeat is shown it as it was said.
            text, location = recorded(result)
            key_recorded_keep(claim, recorded=text, location=location)
    if refusal is not None:
        raise refusal
    return result


def form_already_recorded(request) -> AlreadyRecorded | None:
    """Whether this POST repeats a form already recorded: asked before the page checks its state."""
    # Before, because the first submission changed that state (a filed submission is no longer a draft).
    token = request.POST.get("form_token", "") if request.method == "POST" else ""
    if not token or not key_valid(token) or not request.user.is_authenticated:
        return None
    row = (
        IdempotencyKey.objects.filter(
            user=request.user,
            key=_form_key(token),
            response_status__isnull=False,
            created_at__gte=keys_expired_before(),
        )
        .only("recorded", "response_headers")
        .first()
    )
    return AlreadyRecorded(row.recorded, row.response_headers.get("Location", "/")) if row else None


def already_recorded_redirect(request, repeat: AlreadyRecorded):
    """The page of what was recorded, saying so: the form was sent twice and recorded once."""
    # `recorded` was said in the language of the first send (the same person's, a moment before).
    messages.info(
        request,
        _("Already recorded as %(recorded)s. The form was sent twice; it is recorded once.")
        % {"recorded": repeat.recorded},
    )
    return redirect(repeat.location)
