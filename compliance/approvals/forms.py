"""The compliance manager's and the regulator's forms: what is typed, turned into what the services take."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from compliance.accounts.forms import OneTimeTokenForm, SignatureFields
from compliance.casinos.models import WheelType
from compliance.rulebook import RuleViolation, words
from compliance.rulebook.violations import Odds, cited
from compliance.rulebook.wagers import Paytable
from config.forms import note_field
from config.validators import printable_line

# "35 to 1" in English, "35 a 1" in Spanish: either is read in every language (a manager who
# types the other language's word is not refused), and the form shows the reader's (issue 30).
ODDS = re.compile(r"^\s*(\d{1,6})\s*(?:(?:to|a|:|/)\s*(\d{1,6}))?\s*$", re.IGNORECASE)
EXAMPLE = Odds(35, 1)


class OddsField(forms.CharField):
    """Payout odds typed as "35 to 1", "35 a 1" (or "35"), kept as [35, 1]; blank means the wager is
    not offered. Shown in the reader's language ("35 a 1" in Spanish)."""

    def to_python(self, value):
        value = super().to_python(value)
        if not value:
            return None
        match = ODDS.match(value)
        if not match:
            raise ValidationError(gettext("Write the odds as “%(example)s”.") % {"example": EXAMPLE.said})
        odds = [int(match[1]), int(match[2] or 1)]
        if 0 in odds:
            raise ValidationError(
                gettext("Odds are two whole numbers above zero, as in “%(example)s”.") % {"example": EXAMPLE.said}
            )
        return odds

    def prepare_value(self, value):
        if isinstance(value, list | tuple) and len(value) == 2:
            return Odds(*value).said
        return value


class PayoutListField(forms.CharField):
    """A side wager's payouts typed as "1000, 500, 250", kept as a list of whole numbers."""

    def to_python(self, value):
        value = super().to_python(value)
        if not value:
            return None
        try:
            return [int(part) for part in re.split(r"[\s,;]+", value.strip()) if part]
        except ValueError:
            raise ValidationError(gettext("Write whole numbers separated by commas, e.g. “1000, 500, 250”.")) from None

    def prepare_value(self, value):
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value


def option_label(name: str) -> str:
    """An option's words (the rulebook's words.option_label)."""
    return gettext(words.option_label(name))


class FileForm(SignatureFields):
    pass


class DecisionForm(SignatureFields):
    decision = forms.ChoiceField(
        label=_("Decision"), choices=[("approved", _("Approve")), ("rejected", _("Reject"))], widget=forms.RadioSelect
    )
    reference = forms.CharField(label=_("The Board's reference"), max_length=100, validators=[printable_line])
    note = note_field(_("Note"), required=False)

    field_order = ["decision", "reference", "note", "username", "password"]


class RulesSubmissionForm(OneTimeTokenForm):
    """A Roulette Rules Submission as the jurisdiction's text lists it: wheel types, each wager's
    odds and each option, one field apiece (Big Six and Casino War submissions are made in the API)."""

    effective_from = forms.DateField(label=_("Effective from"), widget=forms.DateInput(attrs={"type": "date"}))
    wheel_types = forms.MultipleChoiceField(
        label=_("Wheel types"), choices=WheelType.choices, widget=forms.CheckboxSelectMultiple, required=False
    )

    def __init__(self, *args, game_rules, **kwargs):
        super().__init__(*args, **kwargs)
        self.game_rules = game_rules
        self.option_values: dict[str, dict[str, object]] = {}
        for code, wager in game_rules.WAGERS.items():
            self.fields[f"odds_{code}"] = OddsField(
                label=gettext(wager.label),
                required=False,
                help_text=gettext("at least %(odds)s") % {"odds": Odds(*wager.minimum).said},
                widget=forms.TextInput(attrs={"placeholder": gettext("not offered"), "inputmode": "text"}),
            )
        for name, rule in game_rules.OPTIONS.items():
            if isinstance(rule, Paytable) and rule.include_all:
                self.fields[f"option_{name}"] = PayoutListField(
                    label=option_label(name), required=False, help_text=rule.citation
                )
                continue
            choices = rule.choices if isinstance(rule, Paytable) else rule[0]
            citation = rule.citation if isinstance(rule, Paytable) else rule[1]
            # The form's values are strings; the submission keeps the text's own (True, "A", 2).
            self.option_values[name] = {_choice_key(choice): choice for choice in choices}
            self.fields[f"option_{name}"] = forms.ChoiceField(
                label=option_label(name),
                required=False,
                choices=[("", _("— (not in this submission)"))] + [(_choice_key(c), _choice_label(c)) for c in choices],
                help_text=citation,
            )

    @classmethod
    def initial_from(cls, submission) -> dict:
        initial = {"effective_from": submission.effective_from, "wheel_types": submission.wheel_types}
        initial |= {f"odds_{code}": odds for code, odds in submission.payout_odds.items()}
        initial |= {
            f"option_{name}": value if isinstance(value, list) else _choice_key(value)
            for name, value in submission.options.items()
        }
        return initial

    def head_fields(self):
        """The fields above the wagers: the date, or a configuration's name and key; the wheel types."""
        return [
            self[name] for name in self.fields if not name.startswith(("odds_", "option_")) and not self[name].is_hidden
        ]

    def wager_fields(self):
        return [self[name] for name in self.fields if name.startswith("odds_")]

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith("option_")]

    def content(self) -> dict:
        """What the services take: wheel types, payout odds and options, leaving out what is blank."""
        data = self.cleaned_data
        payout_odds = {
            name.removeprefix("odds_"): data[name]
            for name in self.fields
            if name.startswith("odds_") and data.get(name)
        }
        options = {}
        for name in self.fields:
            if name.startswith("option_") and data.get(name) not in (None, ""):
                option = name.removeprefix("option_")
                value = data[name]
                options[option] = self.option_values[option][value] if option in self.option_values else value
        return {"wheel_types": list(data["wheel_types"]), "payout_odds": payout_odds, "options": options}

    def field_for(self, violation_field: str | None) -> str | None:
        """The form field a violation's API field ("payout_odds.straight", "options.x") is shown at."""
        head, _, rest = (violation_field or "").partition(".")
        name = {"payout_odds": f"odds_{rest}", "options": f"option_{rest}"}.get(head, head)
        return name if name in self.fields else None


class ConfigurationForm(RulesSubmissionForm):
    """A table configuration besides the standard one: its name, its key (given once: tables name
    it), and the standard one's fields (wheel types, each wager's odds, each option)."""

    name = forms.CharField(label=_("Name of the configuration"))
    key = forms.CharField(
        label=_("Key"),
        help_text=_(
            "What a table names to use this configuration: lower-case letters, digits, “-” and “_”, "
            "starting with a letter. It stays as made."
        ),
    )

    def __init__(self, *args, new: bool, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["effective_from"]
        if not new:
            del self.fields["key"]
        self.order_fields(["name", "key", "wheel_types"])

    @classmethod
    def initial_from(cls, configuration) -> dict:  # type: ignore[override]
        initial = {"name": configuration.name, "key": configuration.key, "wheel_types": configuration.wheel_types}
        initial |= {f"odds_{code}": odds for code, odds in configuration.payout_odds.items()}
        initial |= {
            f"option_{name}": value if isinstance(value, list) else _choice_key(value)
            for name, value in configuration.options.items()
        }
        return initial

    def configuration(self) -> dict:
        """What the service takes: the configuration as the API's `configurations` holds it."""
        found = {"name": self.cleaned_data["name"], **self.content()}
        if "key" in self.fields:
            found["key"] = self.cleaned_data["key"]
        return found

    def field_for(self, violation_field: str | None) -> str | None:
        """A violation of the submission's n-th configuration ("configurations.2.payout_odds.straight")
        is shown at this form's own field."""
        head, _, rest = (violation_field or "").partition(".")
        if head == "configurations":
            violation_field = rest.partition(".")[2]
        return super().field_for(violation_field)


class TableConfigurationForm(OneTimeTokenForm):
    """Which of its game's table configurations a table uses (the casinos' table_update writes it)."""

    configuration = forms.ChoiceField(label=_("Configuration"), widget=forms.RadioSelect)

    def __init__(self, *args, choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["configuration"].choices = choices

    def show(self, refusal: RuleViolation) -> None:
        for violation in refusal.violations:
            citation = f" ({cited(violation.citation)})" if violation.citation else ""
            self.add_error("configuration", f"{violation.message}{citation}")


def _choice_key(choice) -> str:
    if isinstance(choice, bool):
        return "yes" if choice else "no"
    return str(choice)


def _choice_label(choice) -> str:
    if isinstance(choice, bool):
        return gettext("Offered") if choice else gettext("Not offered")
    return str(choice)


class LayoutForm(OneTimeTokenForm):
    name = forms.CharField(label=_("Name of the layout"), max_length=200, validators=[printable_line])
    features = forms.MultipleChoiceField(label=_("What the layout shows"), widget=forms.CheckboxSelectMultiple)
    tables = forms.ModelMultipleChoiceField(
        label=_("Tables it is used on"), queryset=None, widget=forms.CheckboxSelectMultiple
    )
    # Checked by the rule (compliance.rulebook.artwork), which names the policy, when submitted.
    artwork = forms.FileField(
        label=_("Artwork of the layout"),
        required=False,
        allow_empty_file=True,
        help_text=_("A PDF, PNG or JPEG file: what the regulator sees before deciding."),
        widget=forms.FileInput(attrs={"accept": "application/pdf,image/png,image/jpeg"}),
    )

    def __init__(self, *args, features, tables, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["features"].choices = [(f, capfirst(gettext(words.feature_label(f)))) for f in sorted(features)]
        self.fields["tables"].queryset = tables
        self.fields["tables"].label_from_instance = lambda table: f"{table.number} ({table.get_game_display()})"

    def show(self, refusal: RuleViolation) -> None:
        for violation in refusal.violations:
            field = (violation.field or "").split(".")[0]
            citation = f" ({violation.cited})" if violation.citation else ""
            self.add_error(field if field in self.fields else None, f"{violation.message}{citation}")
