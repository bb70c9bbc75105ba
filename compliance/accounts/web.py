"""The sign-in pages: the project's own, with the lockout's message and the per-address limit, and
the admin site's, which goes through the same door."""

from urllib.parse import urlencode, urlsplit, urlunsplit

from axes.handlers.proxy import AxesProxyHandler
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from compliance.accounts.auth import is_locked_out, lockout_message, lockout_minutes, lockout_seconds
from compliance.accounts.directory import DirectoryUnavailable, unavailable_message
from compliance.accounts.selectors import lock_lifts_visible_to, locks_visible_to
from compliance.accounts.services import lock_lift, person_language_set
from compliance.accounts.throttles import SignInRateThrottle
from config.validators import password_form_field, printable_line


class SignInForm(AuthenticationForm):
    """Django's, with the password bounded: one beyond the limit is refused as a form error before
    it is hashed, and is not counted toward the lockout (no password was tried)."""

    password = password_form_field(label="Password")

    def clean(self):
        try:
            return super().clean()
        except DirectoryUnavailable:
            # A directory that cannot be asked decides nothing: no failure counted, nobody signed in.
            raise forms.ValidationError(unavailable_message(), code="directory_unavailable") from None


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
            message = _("Too many sign-in attempts from this device: try again in %(seconds)s seconds.") % {
                "seconds": wait
            }
            return self._refused(form, message, wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if not is_locked_out(self.request):
            return self.render_to_response(
                self.get_context_data(form=form, remaining=sign_in_attempts_left(self.request, form))
            )
        return self._refused(form, lockout_message(form.data.get("username", "")), lockout_seconds())

    def _refused(self, form, message: str, retry_after: int):
        response = self.render_to_response(self.get_context_data(form=form, refusal=message))
        response.status_code = 429
        response["Retry-After"] = str(retry_after)
        return response


def sign_in_attempts_left(request, form) -> str:
    """After a wrong password: how many more this name may have from this device before signing in
    is locked (django-axes' count, per name and address), or nothing when no password was tried."""
    username = form.data.get("username", "")
    if not username or not form.data.get("password") or "password" in form.errors:
        return ""
    if form.has_error(NON_FIELD_ERRORS, "directory_unavailable"):
        return ""  # no password was decided on: nothing counted
    failures = AxesProxyHandler.get_failures(request, {"username": username})
    remaining = max(settings.AXES_FAILURE_LIMIT - failures, 0)
    return ngettext(
        "%(remaining)d more wrong password for “%(username)s” from this device and signing in is locked "
        "for %(minutes)d minutes.",
        "%(remaining)d more wrong passwords for “%(username)s” from this device and signing in is locked "
        "for %(minutes)d minutes.",
        remaining,
    ) % {"remaining": remaining, "username": username, "minutes": lockout_minutes()}


def admin_login(request):
    """The admin site signs in through the project's own page too, so that it has one door with the
    lockout's message and the per-address limit, not a second one without them."""
    if request.user.is_authenticated:
        if request.user.is_staff:
            return redirect("admin:index")
        raise PermissionDenied("The admin site is for administrators; your role does not include it.")
    return redirect(f"{settings.LOGIN_URL}?{urlencode({'next': request.GET.get('next', '/admin/')})}")


class LockLiftForm(forms.Form):
    person = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=gettext_lazy("Why the lock is lifted"),
        max_length=200,
        validators=[printable_line],
        help_text=gettext_lazy("Who asked, and how you know it is them."),
    )


@login_required
def locks(request):
    """The floor's page of locked names (sign-in and signatures): a security supervisor, or an
    administrator, lifts one with a reason, and the lifting is logged (LockLift, append-only)."""
    if not request.user.may("lockouts.lift"):
        raise PermissionDenied(_("Lifting a lock needs a security supervisor or an administrator."))
    now = timezone.now()
    form = LockLiftForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        visible = {lock.person.pk for lock in locks_visible_to(request.user, now=now)}
        if form.cleaned_data["person"] not in visible:
            raise Http404
        lifted = lock_lift(
            actor=request.user, person_id=form.cleaned_data["person"], reason=form.cleaned_data["reason"], now=now
        )
        messages.success(
            request,
            _("Lock lifted for %(name)s: they may sign in and sign again. This is logged.")
            % {"name": lifted.person.display_name},
        )
        return redirect("locks")
    return render(
        request,
        "accounts/locks.html",
        {
            "locks": locks_visible_to(request.user, now=now),
            "lifts": lock_lifts_visible_to(request.user)[:20],
            "form": form,
            "minutes": lockout_minutes(),
        },
    )


class LanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=gettext_lazy("Language of your pages and mail"),
        required=False,
        widget=forms.RadioSelect,
        help_text=gettext_lazy("Your browser's language is used until you choose one."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each language named in itself ("Español"), as a person looks for their own.
        self.fields["language"].choices = [("", _("Your browser's language")), *settings.LANGUAGES]


@login_required
def language(request):
    """A person chooses the language of their pages, the API's refusals and their flags' mail (or
    their browser's): their own preference, kept on their row by the service."""
    form = LanguageForm(request.POST or None, initial={"language": request.user.language})
    # Back to the page the menu's link was followed from (the link itself carries no address: one
    # per page would make every page's menu a new page to visit).
    back = request.POST.get("next") or request.GET.get("next") or request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = ""
    back = urlunsplit(("", "", *urlsplit(back)[2:4], "")) if back else ""
    if back.startswith(reverse("language")):
        back = ""
    if request.method == "POST" and form.is_valid():
        person = person_language_set(
            person_id=request.user.pk, actor=request.user, language=form.cleaned_data["language"]
        )
        # Said at once in the language chosen (the browser's where the choice is none).
        translation.activate(person.language or translation.get_language_from_request(request))
        messages.success(request, _("Language saved."))
        return redirect(back or "home")
    return render(request, "accounts/language.html", {"form": form, "next": back})
