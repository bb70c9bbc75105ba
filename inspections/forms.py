"""The floor's one-screen forms: what is typed, and where a refusal's words go back."""

from __future__ import annotations

from django import forms

from compliance.rulebook import RuleViolation
from compliance.signatures import SignatureInput


class SignedForm(forms.Form):
    """Every form ends with a signature: the signer's username (the person at the tablet by default)
    and their password, typed again now."""

    username = forms.CharField(label="Signed by (username)", max_length=150)
    password = forms.CharField(label="Password", widget=forms.PasswordInput(render_value=False), strip=False)

    # Where a violation's `field` is shown on this form.
    FIELD_FOR = {"signature": "password", "table": None}

    def signature(self) -> SignatureInput:
        return SignatureInput(username=self.cleaned_data["username"], password=self.cleaned_data["password"])

    def show(self, refusal: RuleViolation) -> None:
        """Each violation next to its field, in words and with its citation; the typed values stay."""
        for violation in refusal.violations:
            field = violation.field
            target = self.FIELD_FOR.get(field, field) if field else None
            if target and target.startswith("items."):
                target = target.removeprefix("items.")
            if target not in self.fields:
                target = None
            citation = f" ({violation.citation})" if violation.citation else ""
            self.add_error(target, f"{violation.message}{citation}")


class TableEventForm(SignedForm):
    pass


class InspectionForm(SignedForm):
    notes = forms.CharField(label="Notes", required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, checklist=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.checklist = checklist
        items = {}
        for item in checklist:
            items[item.code] = forms.ChoiceField(
                label=item.label,
                choices=[("pass", "Pass"), ("fail", "Fail")],
                widget=forms.RadioSelect,
                help_text=item.citation,
            )
        # The checklist first, then notes and the signature.
        self.fields = {**items, **self.fields}

    def items(self) -> dict[str, bool]:
        return {item.code: self.cleaned_data[item.code] == "pass" for item in self.checklist}


class AdjustmentForm(SignedForm):
    kind = forms.ChoiceField(
        label="What was done", choices=[("adjustment", "Adjustment"), ("replacement", "Replacement")]
    )
    part = forms.CharField(label="Part", max_length=200)
    description = forms.CharField(label="Description", widget=forms.Textarea(attrs={"rows": 2}))
    witness_username = forms.CharField(label="Security witness (username)", max_length=150)
    witness_password = forms.CharField(
        label="Witness's password", widget=forms.PasswordInput(render_value=False), strip=False
    )

    FIELD_FOR = {"performer": "password", "witness": "witness_password", "table": None}

    def witness(self) -> SignatureInput:
        return SignatureInput(
            username=self.cleaned_data["witness_username"], password=self.cleaned_data["witness_password"]
        )
