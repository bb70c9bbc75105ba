"""The sign-in pages: the project's own, with the lockout's message and the per-address limit, and
the admin site's, which goes through the same door."""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect

from compliance.accounts.auth import is_locked_out, lockout_message, lockout_seconds
from compliance.accounts.throttles import SignInRateThrottle
from config.validators import password_form_field


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
