"""Lockout after repeated wrong passwords (django-axes), wherever a password is typed: the sign-in
page, the API's token endpoint and every signature's re-authentication (compliance.signatures)."""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import views as auth_views


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a locked username before any password is checked, even the right one.

    Only where a request brings the password: a management command run on the server (seed_demo)
    has no remote guesser to lock out, and no address to count against."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def client_ip(request) -> str | None:
    """The address failures are counted against: the client's, as our TLS proxy reports it."""
    if settings.SECURE_PROXY_SSL_HEADER:
        # The proxy appends the address it saw; anything left of it came from the client.
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR")


def is_locked_out(request) -> bool:
    """Whether axes refused (or just locked) the last attempt made with this request."""
    return bool(getattr(request, "axes_locked_out", False))


def lockout_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_minutes() -> int:
    return lockout_seconds() // 60


def lockout_message(username: str) -> str:
    return (
        f"Too many wrong passwords for “{username}” from this device: signing in is locked for "
        f"{lockout_minutes()} minutes. An administrator can lift the lock."
    )


class LoginView(auth_views.LoginView):
    """Django's sign-in page, which says so when the name is locked (HTTP 429) instead of
    "wrong password"."""

    redirect_authenticated_user = True

    def form_invalid(self, form):
        if not is_locked_out(self.request):
            return super().form_invalid(form)
        username = form.data.get("username", "")
        form.errors.clear()
        form.add_error(None, lockout_message(username))
        response = self.render_to_response(self.get_context_data(form=form))
        response.status_code = 429
        response["Retry-After"] = str(lockout_seconds())
        return response
