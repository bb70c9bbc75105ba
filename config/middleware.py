"""Sessions that end after a while without a request (SESSION_COOKIE_AGE), without writing the
session on every request: its expiry is moved on at most once a minute."""

import time

TOUCH_EVERY_SECONDS = 60


class SessionIdleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # Only an existing, non-empty session (a signed-in person's), never a visitor's new one.
        if session is not None and session.session_key and not session.is_empty():
            now = int(time.time())
            if now - session.get("_touched", 0) >= TOUCH_EVERY_SECONDS:
                session["_touched"] = now  # saved by SessionMiddleware, with a new expiry
        return response
