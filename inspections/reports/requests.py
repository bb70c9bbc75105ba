"""Audit reports (docs/architecture.md: Reports): asked for, generated in the background, downloaded and logged.

`report_request` and `report_download` are the write paths the API and the pages call,
`report_request_local` the operator's (`manage.py render_report`);
`kinds` says what each report holds, `render` how it becomes a PDF or CSV.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import FileResponse, Http404
from django.utils import timezone

from compliance.casinos.clock import property_today
from compliance.casinos.models import Property
from compliance.rulebook import raise_if_any
from compliance.rulebook import reports as policy
from compliance.rulebook.violations import LimitReached
from inspections.reports.models import Report, ReportDownload, ReportKind, ReportStatus
from inspections.reports.tasks import report_enqueue

log = logging.getLogger(__name__)

# How long a report waiting or being generated counts against its person's and property's limits:
# far longer than any report takes (100,000 entries: about 8 minutes), behind the few a property
# may have waiting at once.
PENDING_COUNTS_FOR = timedelta(hours=6)


def report_problems(*, kind: str, prop, period_from, period_to, tables) -> dict[str, str]:
    """What is wrong with a request for a report, by field (the API and the page both ask)."""
    problems = {}
    if period_from > period_to:
        problems["from"] = "The period starts after it ends."
    if any(table.property_id != prop.pk for table in tables):
        problems["tables"] = "Every table must be of the report's property."
    elif kind == ReportKind.TABLE_HISTORY and not tables:
        problems["tables"] = "A table history names its table(s)."
    return problems


def report_request(*, requested_by, tables=(), **fields) -> Report:
    """Record the request and queue its generation once committed; the request never waits for it.

    Refused (nothing written) when the period is longer than REPORT_MAX_DAYS or lies outside
    2000-01-01 to the property's tomorrow (400), or when the
    person or the property already has its limit of reports waiting or running (429): one person's
    requests never fill the workers for everyone. With Redis down the report stays queued, unsent
    (the web request still succeeds), and the beat's next tick after the broker is back sends it.
    """
    prop = fields["property"]
    with transaction.atomic():
        # Lock the person, then the property: two requests at once cannot both take the last place.
        get_user_model().objects.select_for_update().filter(pk=requested_by.pk).exists()
        Property.objects.select_for_update().filter(pk=prop.pk).exists()
        raise_if_any(
            [
                policy.report_period_within(
                    period_from=fields["period_from"],
                    period_to=fields["period_to"],
                    max_days=settings.REPORT_MAX_DAYS,
                ),
                policy.report_period_plausible(
                    period_from=fields["period_from"], period_to=fields["period_to"], today=property_today(prop)
                ),
            ]
        )
        # A report still waiting after PENDING_COUNTS_FOR was lost (its task gone with a Redis that
        # lost its data): it holds no worker, so it no longer holds its person's place either.
        pending = Report.objects.filter(
            status__in=(ReportStatus.QUEUED, ReportStatus.RUNNING),
            requested_at__gte=timezone.now() - PENDING_COUNTS_FOR,
        )
        too_many = policy.report_pending_within(
            mine=pending.filter(requested_by=requested_by).count(),
            max_mine=settings.REPORT_MAX_PENDING_PER_PERSON,
            of_property=pending.filter(property=prop).count(),
            max_of_property=settings.REPORT_MAX_PENDING_PER_PROPERTY,
            property_name=prop.name,
        )
        if too_many:
            raise LimitReached([too_many])
        report = Report.objects.create(requested_by=requested_by, **fields)
        report.tables.set(tables)
        transaction.on_commit(lambda: report_enqueue(report.pk))
    return report


@transaction.atomic
def report_request_local(*, requested_by, tables=(), **fields) -> Report:
    """A report an operator renders here and now (`manage.py render_report`): recorded as asked for
    and never queued, so the workers' limits on waiting reports do not apply."""
    report = Report.objects.create(requested_by=requested_by, **fields)
    report.tables.set(tables)
    return report


def report_download(*, report: Report, user) -> FileResponse:
    """The finished file, and a log line of who took which file (by its hash) when."""
    if report.status != ReportStatus.DONE or not report.file:
        raise Http404(f"Report {report.pk} is {report.get_status_display().lower()}: there is no file to download yet.")
    ReportDownload.objects.create(report=report, downloaded_by=user, sha256=report.sha256)
    response = FileResponse(report.file.open("rb"), as_attachment=True, filename=report.file.name.rsplit("/", 1)[-1])
    response["X-Content-SHA256"] = report.sha256
    return response
