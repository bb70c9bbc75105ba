"""What a regulator or compliance manager asks a report for."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from compliance.approvals.forms import OneTimeTokenForm
from compliance.rulebook import RuleViolation
from inspections.reports.models import ReportKind
from inspections.reports.requests import report_problems


class ReportForm(OneTimeTokenForm):
    """What a regulator or compliance manager asks for: kind, property, period, tables, format."""

    kind = forms.ChoiceField(label=_("Report"), choices=ReportKind.choices)
    property = forms.ModelChoiceField(label=_("Property"), queryset=None, empty_label=None)
    period_from = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    period_to = forms.DateField(label=_("To (included)"), widget=forms.DateInput(attrs={"type": "date"}))
    tables = forms.CharField(
        label=_("Tables"),
        required=False,
        help_text=_("Table numbers separated by commas, e.g. R-01, R-04; empty: all."),
    )
    format = forms.ChoiceField(label=_("Format"), choices=[("pdf", _("PDF (with its CSV inside)")), ("csv", _("CSV"))])

    def __init__(self, *args, properties, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["property"].queryset = properties

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
            citation = f" ({violation.citation})" if violation.citation else ""
            self.add_error(field if field in self.fields else None, f"{violation.message}{citation}")
