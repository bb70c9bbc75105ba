"""What a regulator or compliance manager asks a report for."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from compliance.approvals.forms import OneTimeTokenForm
from compliance.rulebook import RuleViolation
from inspections.reports.models import ReportKind
from inspections.reports.selectors import report_problems

# A person who sees more properties than this (a regulator of a large jurisdiction) names the property by
# its licence number instead of choosing it from a list: the page never lists the whole jurisdiction.
PROPERTY_CHOICES = 25


class PropertyField(forms.Field):
    """A property among `properties`: chosen from `shown` (their ids), or named by its licence number
    when `shown` is None. Read from the database only when the form is sent."""

    def __init__(self, *, properties: QuerySet, shown: list | None, **kwargs):
        self.properties = properties
        if shown is None:
            kwargs.setdefault("help_text", _("The property's licence number, as the floor's summary shows it."))
            widget: forms.Widget = forms.TextInput(attrs={"autocomplete": "off"})
        else:
            widget = forms.Select(choices=[(prop.pk, prop.name) for prop in shown])
        self.by_licence = shown is None
        super().__init__(widget=widget, **kwargs)

    def to_python(self, value):
        value = str(value or "").strip()
        if not value:
            return None
        if self.by_licence:
            found = self.properties.filter(licence_number=value).first()
        else:
            found = self.properties.filter(pk=int(value)).first() if value.isdigit() else None
        if found is None:
            raise ValidationError(
                _("No property of yours has this licence number.")
                if self.by_licence
                else _("Choose one of the properties."),
                code="invalid_choice",
            )
        return found


class ReportForm(OneTimeTokenForm):
    """What a regulator or compliance manager asks for: kind, property, period, tables, format."""

    kind = forms.ChoiceField(label=_("Report"), choices=ReportKind.choices)
    property = forms.Field(label=_("Property"))  # PropertyField, made in __init__
    period_from = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    period_to = forms.DateField(label=_("To (included)"), widget=forms.DateInput(attrs={"type": "date"}))
    tables = forms.CharField(
        label=_("Tables"),
        required=False,
        help_text=_("Table numbers separated by commas, e.g. R-01, R-04; empty: all."),
    )
    format = forms.ChoiceField(label=_("Format"), choices=[("pdf", _("PDF (with its CSV inside)")), ("csv", _("CSV"))])

    def __init__(self, *args, properties: QuerySet, shown: list, **kwargs):
        """`shown`: the first properties of `properties` (at most PROPERTY_CHOICES + 1)."""
        super().__init__(*args, **kwargs)
        listed = shown if len(shown) <= PROPERTY_CHOICES else None
        self.fields["property"] = PropertyField(
            properties=properties, shown=listed, label=self.fields["property"].label
        )

    def clean(self):
        data = super().clean()
        prop = data.get("property")
        if prop is None or "period_from" not in data or "period_to" not in data:
            return data
        numbers = [n.strip() for n in data.get("tables", "").split(",") if n.strip()]
        tables = list(prop.tables.filter(number__in=numbers))
        unknown = sorted(set(numbers) - {t.number for t in tables})
        if unknown:
            self.add_error("tables", f"{prop.name} has no table {', '.join(unknown)}.")
        data["table_list"] = tables
        problems = report_problems(
            kind=data["kind"], prop=prop, period_from=data["period_from"], period_to=data["period_to"], tables=tables
        )
        for field, message in problems.items():
            self.add_error({"from": "period_from", "to": "period_to"}.get(field, field), message)
        return data

    def show(self, refusal: RuleViolation) -> None:
        """The service's refusal next to its field (the whole form's when it names none), with its citation."""
        for violation in refusal.violations:
            field = {"from": "period_from", "to": "period_to"}.get(violation.field, violation.field)
            citation = f" ({violation.cited})" if violation.citation else ""
            self.add_error(field if field in self.fields else None, f"{violation.message}{citation}")
