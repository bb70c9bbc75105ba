"""The Idempotency-Key request header on every API write (draft-ietf-httpapi-idempotency-key-header).

A client (a tablet on a slow network, a casino system retrying) sends `Idempotency-Key: "<unique>"`
with a POST or PATCH. The first request is carried out and its answer kept for
IDEMPOTENCY_KEY_HOURS; a repeat with the same key and the same body gets that answer again (same
status, same body, and `Idempotent-Replayed: true`) and writes nothing; the same key with another
body is refused with 422. The key's row is written in the same transaction as the request's own
writes, so two copies arriving together make one entry: the second waits for the first.

An answer that carries a credential (a view marked `answers_credential = True`: the API token's
request) is never kept: its key is ignored, so a token is never stored in clear nor replayed, and a
repeat makes a new token, as a repeat without a key does.
"""

from __future__ import annotations

import tempfile

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.http import parse_header_parameters
from rest_framework.request import Request
from rest_framework.settings import api_settings

from compliance.accounts.idempotency import fingerprint, key_valid
from compliance.accounts.services import key_answer_keep, key_claim, key_forget
from config.api.errors import _body

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DRAFT = "draft-ietf-httpapi-idempotency-key-header, Error Scenarios"
MULTIPART = "multipart/form-data"
UPLOAD_CHUNK = 64 * 1024
# The headers a replay gives again with the body.
KEPT_HEADERS = ("Content-Type", "Location")


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(_body([{"code": code, "message": message, "citation": DRAFT, "field": None}]), status=status)


def _key(request) -> str | None:
    """The header's value; the draft makes it a structured-field string, so its quotes are dropped."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return value


def answers_credential(request) -> bool:
    """Whether the view the request goes to answers with a credential (marked `answers_credential`)."""
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    return bool(getattr(getattr(view, "view_class", view), "answers_credential", False))


def _api_user(request):
    """Who the API will take the request to be from (token or session), or None: then the view
    itself answers 401 or 403 and there is nothing to keep."""
    drf_request = Request(request, authenticators=[cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES])
    # DRF writes the user it finds onto the request; the view finds it again by itself, so the
    # request is left as it came (a refused CSRF check must not sign its session user out).
    had_user, session_user = "user" in request.__dict__, request.__dict__.get("user")
    try:
        user = drf_request.user
    except Exception:  # a bad token, a missing CSRF token: the view refuses it in its own words
        user = None
    finally:
        if had_user:
            request.user = session_user
        else:
            request.__dict__.pop("user", None)
    return user if user is not None and user.is_authenticated else None


def _multipart_limit() -> int:
    """The largest body a multipart write may have: an entry with its photos, or a layout with its artwork
    (config.api.parsers)."""
    files = max(settings.PHOTO_MAX_COUNT * settings.PHOTO_MAX_BYTES, settings.LAYOUT_ARTWORK_MAX_BYTES)
    return settings.API_MAX_BODY_BYTES + files


def _multipart_fingerprint(request, boundary: bytes, spooled) -> str:
    """The fingerprint of an upload, read once in chunks into `spooled`, which the view then reads."""
    # Photos of several MB are beyond what Django keeps in memory: `spooled` spills to disk.

    def chunks():
        while chunk := request.read(UPLOAD_CHUNK):
            spooled.write(chunk)
            yield chunk

    found = fingerprint(method=request.method, path=request.path, body=chunks(), boundary=boundary)
    spooled.seek(0)
    # Django offers no public way to hand a view a body read before it: this sets the stream as
    # HttpRequest.body itself does once it has read it.
    request._stream, request._read_started = spooled, False
    return found


def _replay(row) -> HttpResponse:
    response = HttpResponse(bytes(row.response_body), status=row.response_status)
    for name, value in row.response_headers.items():
        response[name] = value
    response[REPLAYED] = "true"
    return response


class IdempotencyKeyMiddleware:
    """Every write under /api/ that carries an Idempotency-Key is made at most once per key and person."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = _key(request)
        if key is None or request.method not in WRITE_METHODS or not request.path.startswith("/api/"):
            return self.get_response(request)
        if answers_credential(request):
            return self.get_response(request)  # a credential is never kept, in clear, for a replay
        user = _api_user(request)
        if user is None:
            return self.get_response(request)
        if not key_valid(key):
            return _error(
                400,
                "idempotency_key_invalid",
                "The Idempotency-Key must be 1 to 255 printable characters (a UUID is a good choice).",
            )
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        content_type, options = parse_header_parameters(request.META.get("CONTENT_TYPE", ""))
        boundary = options.get("boundary", "").encode("ascii", "replace") if content_type == MULTIPART else b""
        if declared > (_multipart_limit() if boundary else settings.API_MAX_BODY_BYTES):
            return self.get_response(request)  # refused by the API's parser (413) before it is read
        if boundary:
            with tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE) as spooled:
                return self._once(request, user=user, key=key, found=_multipart_fingerprint(request, boundary, spooled))
        try:
            body = request.body
        except RequestDataTooBig:
            return self.get_response(request)
        return self._once(
            request, user=user, key=key, found=fingerprint(method=request.method, path=request.path, body=body)
        )

    def _once(self, request, *, user, key: str, found: str):
        """The request carried out under its key's row, or the first answer given again."""
        with transaction.atomic():
            claim = key_claim(user=user, key=key, method=request.method, path=request.path, fingerprint=found)
            if not claim.fresh:
                if not claim.same_request:
                    return _error(
                        422,
                        "idempotency_key_reused",
                        "This Idempotency-Key was already used for a different request. Use a new key for a new entry.",
                    )
                return _replay(claim.row)
            response = self.get_response(request)
            if response.status_code >= 500:
                # Nothing half-done stays: the whole request is undone, the key with it.
                transaction.set_rollback(True)
            elif 200 <= response.status_code < 300 and not response.streaming:
                key_answer_keep(
                    claim,
                    status=response.status_code,
                    body=response.content,
                    headers={name: response[name] for name in KEPT_HEADERS if response.has_header(name)},
                )
            else:
                # Refused (a rule, a wrong password): nothing was written, so the key is free for
                # the corrected request. What a refusal did record (a failed sign-in) stays.
                key_forget(claim)
        return response


def schema_idempotency_key(result, generator, request, public):
    """drf-spectacular hook: every write documents the Idempotency-Key header and its 422."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method.upper() not in WRITE_METHODS:
                continue
            operation.setdefault("parameters", []).append(
                {
                    "in": "header",
                    "name": HEADER,
                    "required": False,
                    "schema": {"type": "string", "maxLength": 255},
                    "description": "A unique key of this request (e.g. a UUID), to send it again safely: a repeat "
                    "with the same key and body gets the first answer again (with `Idempotent-Replayed: true`) and "
                    "records nothing new; the same key with another body is refused with 422. Kept for "
                    "IDEMPOTENCY_KEY_HOURS (24 by default). draft-ietf-httpapi-idempotency-key-header.",
                }
            )
            operation.setdefault("responses", {}).setdefault(
                "422", {"description": "The Idempotency-Key was already used for a different request."}
            )
    return result
