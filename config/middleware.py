"""The project's own middleware: sessions that end when idle, no caching of what a signed-in person
sees, and one log line per request."""

import logging
import time

from django.conf import settings
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django_htmx.http import HttpResponseClientRedirect

from config.network import client_ip

request_log = logging.getLogger("logbook.request")

TOUCH_EVERY_SECONDS = 60


class SessionIdleMiddleware:
    """A session ends after SESSION_COOKIE_AGE without a request from its person, without a session
    write per request: its expiry is moved on at most once a minute."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        automatic = request.headers.get("X-Auto-Refresh") == "1"
        if automatic and response.status_code == 302 and response["Location"].startswith(settings.LOGIN_URL):
            # The session has ended under a page that refreshes itself: htmx takes the whole page
            # to the sign-in form, instead of swapping the form into the tiles.
            return HttpResponseClientRedirect(response["Location"])
        # Only an existing, non-empty session (a signed-in person's), never a visitor's new one, and
        # only for a person's own request: a page refreshing itself on an idle tablet is not one.
        if session is not None and session.session_key and not session.is_empty() and not automatic:
            now = int(time.time())
            if now - session.get("_touched", 0) >= TOUCH_EVERY_SECONDS:
                session["_touched"] = now  # saved by SessionMiddleware, with a new expiry
        return response


class PreferredLanguageMiddleware:
    """The signed-in person's own language, where they chose one (accounts.User.language), over the
    browser's that LocaleMiddleware took from Accept-Language. An API request signed by a token is
    answered in the token's person's language by the API's views (config.api.viewsets)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        preferred = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        if preferred:
            translation.activate(preferred)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class NoStoreMiddleware:
    """Nothing answered to a signed-in person (a page, an API response, a report's file) is kept by
    a browser, a shared tablet's history or a proxy: `Cache-Control: no-store` and its companions.

    "Signed in" by the session or by an API token: DRF's authentication sets the request's user too.
    Static files never reach here (WhiteNoise answers them first), so they stay cacheable."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)
        return response


class RequestLogMiddleware:
    """One log line per request (logger logbook.request): method, path, status, duration, who and
    from where; what an operator looks for when a tablet says something went wrong. Never a body,
    so never a password."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.monotonic()
        response = self.get_response(request)
        user = getattr(request, "user", None)  # DRF's token authentication sets it here too
        request_log.info(
            "%s %s %s",
            request.method,
            request.path,
            response.status_code,
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.monotonic() - started) * 1000, 1),
                "user_id": user.pk if user is not None and user.is_authenticated else None,
                "client": client_ip(request),
            },
        )
        return response
