"""What every page that records something is made of: a one-time token against a double tap, and the
signer's own username and password typed again (the approvals' and the logbook's forms build on these)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from compliance.accounts.idempotency import form_token_new
from compliance.accounts.signatures import SignatureInput
from compliance.rulebook import RuleViolation
from config.validators import password_form_field, printable_line


class OneTimeTokenForm(forms.Form):
    """A form that records something carries a one-time token: the same form sent twice (a double
    tap, a slow tablet sending again) is recorded once (compliance.accounts.idempotency.form_write_once)."""

    form_token = forms.CharField(widget=forms.HiddenInput, required=False, max_length=100)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A new token each time the form is shown; a refused form shown again keeps the one it was sent with.
        self.fields["form_token"].initial = form_token_new()

    def token(self) -> str:
        return self.cleaned_data.get("form_token", "")


class SignatureFields(OneTimeTokenForm):
    """The signer's own username and password, typed again now (the person at the tablet by default).
    The request goes with the signature: wrong passwords are counted against its address."""

    username = forms.CharField(label=_("Signed by (username)"), max_length=150, validators=[printable_line])
    password = password_form_field(label=_("Password"))

    def __init__(self, *args, request, **kwargs):
        kwargs["initial"] = {"username": request.user.username, **kwargs.get("initial", {})}
        super().__init__(*args, **kwargs)
        self.request = request

    def signature(self) -> SignatureInput:
        return self.signature_from("username", "password")

    def signature_from(self, username_field: str, password_field: str) -> SignatureInput:
        return SignatureInput(
            username=self.cleaned_data[username_field],
            password=self.cleaned_data[password_field],
            request=self.request,
        )

    def show(self, refusal: RuleViolation) -> None:
        """Each violation next to its field (the signature's beside the password), with its citation."""
        for violation in refusal.violations:
            field = {"signature": "password"}.get(violation.field, violation.field)
            citation = f" ({violation.cited})" if violation.citation else ""
            self.add_error(field if field in self.fields else None, f"{violation.message}{citation}")
