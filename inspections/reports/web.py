"""The reports in the browser: ask for one, follow it as it is generated, download it."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from compliance.accounts.idempotency import AlreadyRecorded, already_recorded_redirect, form_write_once
from compliance.casinos.clock import viewer_today
from compliance.casinos.selectors import properties_visible_to
from compliance.rulebook import RuleViolation
from compliance.rulebook.violations import LimitReached
from inspections.logbook.web import require_may
from inspections.reports import services as reports
from inspections.reports.forms import PROPERTY_CHOICES, ReportForm
from inspections.reports.selectors import reports_visible_to


def _require_reports(user) -> None:
    require_may(user, "reports.request", "Reports")


@login_required
def report_list(request):
    """Ask for a report, and follow the property's reports as they are generated."""
    _require_reports(request.user)
    properties = properties_visible_to(request.user).order_by("name", "pk")
    # A property chosen on the floor's summary (`property`): the form offers it alone.
    if request.GET.get("property", "").isdigit():
        properties = properties.filter(pk=int(request.GET["property"]))
    # At most the list's length and one more: a large jurisdiction's form asks for a licence number.
    shown = list(properties[: PROPERTY_CHOICES + 1])
    # The last seven days at the property, not in UTC (at 22:30 in New York it is already tomorrow).
    today = viewer_today(shown)
    initial = {"period_from": today - timedelta(days=7), "period_to": today - timedelta(days=1)}
    form = ReportForm(request.POST or None, properties=properties, shown=shown, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            report = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: reports.report_request(
                    requested_by=request.user,
                    property=data["property"],
                    kind=data["kind"],
                    format=data["format"],
                    period_from=data["period_from"],
                    period_to=data["period_to"],
                    tables=data["table_list"],
                ),
                recorded=lambda report: (_("report #%(number)s") % {"number": report.pk}, reverse("reports")),
            )
        except RuleViolation as refusal:
            # The API's refusal, on the form (a 429 when too many reports are waiting at once).
            form.show(refusal)
            status = 429 if isinstance(refusal, LimitReached) else 200
        else:
            if isinstance(report, AlreadyRecorded):
                return already_recorded_redirect(request, report)
            messages.success(
                request, _("Report #%(number)s asked for: it is being generated below.") % {"number": report.pk}
            )
            return redirect("reports")
    else:
        status = 200
    recent = reports_visible_to(request.user).prefetch_related("tables")[:30]
    return render(request, "floor/reports.html", {"form": form, "reports": recent}, status=status)


@login_required
def report_row(request, pk: int):
    """htmx: one report's row, polled every two seconds until it is done or failed."""
    _require_reports(request.user)
    report = get_object_or_404(reports_visible_to(request.user), pk=pk)
    return render(request, "floor/_report_row.html", {"report": report})


@login_required
def report_file(request, pk: int):
    _require_reports(request.user)
    return reports.report_download(report=get_object_or_404(reports_visible_to(request.user), pk=pk), user=request.user)
