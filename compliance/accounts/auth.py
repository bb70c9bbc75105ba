"""Lockout after repeated wrong passwords (django-axes), wherever a password is typed: the sign-in
page, the API's token endpoint and every signature's re-authentication (compliance.accounts.signatures)."""

from __future__ import annotations

from urllib.parse import urlencode

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from knox.models import AuthToken
from rest_framework import throttling
from rest_framework.throttling import SimpleRateThrottle

from config.network import client_ip
from config.validators import password_form_field


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a locked username before any password is checked, even the right one.

    A password checked without the request that brought it could not be counted, so it is refused
    outright (Django's `authenticate` then answers None whatever the backends after this one would
    say): every door passes its request. A command signing on the server itself does not come here
    (compliance.accounts.signatures.Unattended)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            raise PermissionDenied("A password is only checked with the request that brought it.")
        return super().authenticate(request, username=username, password=password, **kwargs)


class ClientAddressMixin:
    """DRF's throttles count by `client_ip`, not by DRF's own reading of X-Forwarded-For."""

    def get_ident(self, request):
        return client_ip(request)


class AnonRateThrottle(ClientAddressMixin, throttling.AnonRateThrottle):
    pass


class UserRateThrottle(ClientAddressMixin, throttling.UserRateThrottle):
    pass


class ScopedRateThrottle(ClientAddressMixin, throttling.ScopedRateThrottle):
    pass


def api_tokens_revoke_on_password_change(sender, instance, created: bool, **kwargs) -> None:
    """A new password (set_password, a reset, the admin's form) or an unusable one revokes every API
    token of the person: whoever had the old password may have made one. Sessions end by Django's
    own check of the password hash. A hash upgraded at sign-in changes nothing (`_password` unset)."""
    if created:
        return
    if getattr(instance, "_password", None) is not None or not instance.has_usable_password():
        AuthToken.objects.filter(user=instance).delete()


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


class SignInRateThrottle(SimpleRateThrottle):
    """Sign-in attempts per address, whatever the names tried (rate `login`): the lockout counts
    each name apart, so a guesser trying one password on many names meets this instead."""

    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class SignInForm(AuthenticationForm):
    """Django's, with the password bounded: one beyond the limit is refused as a form error before
    it is hashed, and is not counted toward the lockout (no password was tried)."""

    password = password_form_field(label="Password")


class LoginView(auth_views.LoginView):
    """Django's sign-in page, which says so (HTTP 429, Retry-After) when the name is locked, or
    when this address has tried too often, instead of "wrong password"."""

    redirect_authenticated_user = True
    form_class = SignInForm

    def post(self, request, *args, **kwargs):
        throttle = SignInRateThrottle()
        if not throttle.allow_request(request, self):
            # Refused before the form is checked: no password is tried, no failure counted.
            wait = int(throttle.wait() or 1)
            form = self.form_class(request, initial={"username": request.POST.get("username", "")})
            message = f"Too many sign-in attempts from this device: try again in {wait} seconds."
            return self._refused(form, message, wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if not is_locked_out(self.request):
            return super().form_invalid(form)
        return self._refused(form, lockout_message(form.data.get("username", "")), lockout_seconds())

    def _refused(self, form, message: str, retry_after: int):
        response = self.render_to_response(self.get_context_data(form=form, refusal=message))
        response.status_code = 429
        response["Retry-After"] = str(retry_after)
        return response


def admin_login(request):
    """The admin site signs in through the project's own page too, so that it has one door with the
    lockout's message and the per-address limit, not a second one without them."""
    if request.user.is_authenticated:
        if request.user.is_staff:
            return redirect("admin:index")
        raise PermissionDenied("The admin site is for administrators; your role does not include it.")
    return redirect(f"{settings.LOGIN_URL}?{urlencode({'next': request.GET.get('next', '/admin/')})}")
