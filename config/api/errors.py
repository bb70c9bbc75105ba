"""One exception handler turns every refusal into docs/api.md's body:
{"errors": [{"code", "message", "citation", "field"}]}."""

from __future__ import annotations

import sys
from typing import Protocol, runtime_checkable

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.module_loading import import_string
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


@runtime_checkable
class Refusal(Protocol):
    """A refusal by the rules, as this handler answers it (compliance.rulebook.RuleViolation is one;
    the kernel imports no app, so it asks the exception): its violations, each with `as_dict()` giving
    code, message, citation and field; a 400 unless it names its own `http_status`."""

    violations: list


def _citation_of(code: str) -> str:
    """A field's refusal's citation by its code: the product's policy on typed text, which the
    rulebook keeps (settings.API_ERROR_CITATION)."""
    return import_string(settings.API_ERROR_CITATION)(code)


def _same_cause() -> dict[str, str]:
    """The codes that refuse the same thing (settings.API_ERROR_SAME_CAUSE)."""
    return import_string(settings.API_ERROR_SAME_CAUSE)


def _flatten(detail, field: str | None = None) -> list[dict]:
    """DRF's nested error details, as a flat list with dotted field names."""
    if isinstance(detail, dict):
        errors = []
        for key, value in detail.items():
            name = None if key in ("non_field_errors", "detail") else (f"{field}.{key}" if field else str(key))
            errors.extend(_flatten(value, name if key not in ("non_field_errors",) else field))
        return errors
    if isinstance(detail, list):
        errors = []
        for index, value in enumerate(detail):
            # A list of messages keeps the field; a list of objects numbers them.
            errors.extend(_flatten(value, f"{field}.{index}" if isinstance(value, dict | list) else field))
        return errors
    code = getattr(detail, "code", None) or "invalid"
    # A field's refusal cites the product's policy on typed text (config.validators) or on the
    # request's form: every error names its citation.
    return [{**_error(code, str(detail), field=field), "citation": _citation_of(code)}]


def _once(errors: list[dict]) -> list[dict]:
    """One error per field and cause: a NUL is refused by our validator and by the framework's own, a
    length by the serializer's and the model's; the person reads it once (our words, when both)."""
    same_cause = _same_cause()
    order = list(same_cause)
    ranked = sorted(errors, key=lambda e: order.index(e["code"]) if e["code"] in same_cause else len(order))
    seen, kept = set(), set()
    for error in ranked:
        key = (error["field"], same_cause.get(error["code"], (error["code"], error["message"])))
        if key not in seen:
            seen.add(key)
            kept.add(id(error))
    return [error for error in errors if id(error) in kept]


def _error(code: str, message: str, *, field: str | None = None) -> dict:
    """One error that is not a rule's (a rule's comes from Violation.as_dict, with its citation)."""
    return {"code": code, "message": message, "citation": None, "field": field}


def _body(errors: list[dict]) -> dict:
    return {"errors": errors}


def exception_handler(exc, context):
    """The error body, said in the person's own language where they chose one (a request signed by a
    token meets its person only in the view, after LocaleMiddleware took the browser's)."""
    with translation.override(_language_of(context.get("request"))):
        return _answer(exc, context)


def _language_of(request) -> str:
    # The person DRF authenticated is set on the Django request too: read there, so that asking
    # never authenticates again (the error may be the authentication's own).
    user = getattr(getattr(request, "_request", request), "user", None)
    preferred = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
    return preferred or translation.get_language()


def _answer(exc, context):
    if isinstance(exc, Refusal):
        # A limit of the product's own that frees itself (LimitReached) is a 429; every other refusal a 400.
        code = getattr(exc, "http_status", status.HTTP_400_BAD_REQUEST)
        return Response(_body([v.as_dict() for v in exc.violations]), status=code)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(detail=exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, exceptions.ParseError):
        return Response(
            _body([_error("malformed_request", f"The request body could not be read: {exc.detail}")]),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)  # a service's refusal keeps its words
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = _body(_once(_flatten(exc.detail)))
    elif isinstance(exc, exceptions.APIException):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        response.data = _body([_error(code, str(exc.detail))])
    return response


def not_found(request, exception=None):
    """An unknown address under /api/ answers in the API's format; elsewhere Django's page."""
    if request.path.startswith("/api/"):
        return JsonResponse(_body([_error("not_found", f"There is no {request.path} in this API.")]), status=404)
    return defaults.page_not_found(request, exception)


DATABASE_UNAVAILABLE = (
    "The logbook's database could not be reached, so nothing was recorded. Send it again in a moment; "
    "if this goes on, tell the duty manager."
)


def server_error(request):
    """An unexpected error. When the database was lost (restarted, unreachable) it says so, with
    a 503 that invites a retry: the transaction was rolled back whole, so nothing half-written
    stays behind. Everything else is Django's 500, in the API's format under /api/."""
    api = request.path.startswith("/api/")
    error = sys.exc_info()[1]  # Django calls this handler while handling the exception
    if not isinstance(error, OperationalError | InterfaceError):
        if api:
            return JsonResponse(_body([_error("server_error", "Something went wrong on the server.")]), status=500)
        return defaults.server_error(request)
    if api:
        response = JsonResponse(_body([_error("database_unavailable", DATABASE_UNAVAILABLE)]), status=503)
    else:
        response = render(request, "503.html", {"message": DATABASE_UNAVAILABLE}, status=503)
    response["Retry-After"] = "5"
    return response
