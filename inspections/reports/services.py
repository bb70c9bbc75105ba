"""The reports' only write paths (docs/architecture.md: Reports): asked for, handed to the workers,
generated, downloaded and logged.

`report_request` and `report_download` are the writes the API and the pages call,
`report_request_local` the operator's (`manage.py render_report`); the rest are the steps of a
generation (`render` calls them: a run started, its progress, its verdict, its pieces, the file
published or the report failed). `kinds` says what each report holds, `render` how it becomes a
PDF or CSV, `tasks` where it runs.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files import File
from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Least
from django.http import FileResponse, Http404
from django.utils import timezone

from compliance.casinos.clock import property_today
from compliance.casinos.models import Property
from compliance.rulebook import raise_if_any
from compliance.rulebook import reports as policy
from compliance.rulebook.violations import LimitReached
from inspections.logbook.chain import ChainReport
from inspections.logbook.models import Checkpoint
from inspections.reports.models import Report, ReportDownload, ReportPiece, ReportStatus

log = logging.getLogger(__name__)


class ReportFinished(Exception):
    """The report was generated already (a task delivered twice): nothing to do."""


class RunRefused(Exception):
    """A step asked of a report that is not being rendered by this run (done, failed, or planned
    again since), or of a piece whose file is not as its run wrote it: nothing is rendered or signed."""


# How long a report waiting or being generated counts against its person's and property's limits:
# far longer than any report takes (100,000 entries: about 8 minutes), behind the few a property
# may have waiting at once.
PENDING_COUNTS_FOR = timedelta(hours=6)


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


# The task a report's generation starts with, sent by its name (tasks.py runs render, which writes
# through this module: the name keeps the two apart, as beat's schedule does).
REPORT_GENERATE = "inspections.reports.tasks.report_generate"


def report_enqueue(report_id: int) -> bool:
    """Hand the report to the workers and mark it sent; with the broker down it stays queued, unsent."""
    try:
        # No result to wait for (the report's row tells how it went): the request never subscribes
        # to the result store, whose reconnection attempts would hold it while Redis is down.
        current_app.send_task(REPORT_GENERATE, args=(report_id,), retry=False, ignore_result=True)
    except Exception as error:  # the broker is down: the report waits, queued
        log.warning("report %s stays queued: %s", report_id, error)
        return False
    Report.objects.filter(pk=report_id).update(sent=True)
    return True


def unsent_reports_send() -> int:
    """Send the reports whose task never reached the broker (Redis was down): beat, every minute."""
    unsent = Report.objects.filter(status=ReportStatus.QUEUED, sent=False).values_list("pk", flat=True)
    return sum(report_enqueue(pk) for pk in unsent[:100])


# ---- A generation's steps (render.py): each a single statement on the report's row or a piece's ----


def report_run_start(report_id: int) -> Report:
    """A new run of the report: what an earlier run (a task delivered twice) left is never joined
    into this one. ReportFinished for a report done or failed."""
    report = Report.objects.select_related("property", "requested_by").get(pk=report_id)
    if report.status in (ReportStatus.DONE, ReportStatus.FAILED):
        raise ReportFinished(f"report {report_id} is already {report.status}")
    report.run = secrets.token_hex(16)
    Report.objects.filter(pk=report_id).update(status=ReportStatus.RUNNING, progress=1, error="", run=report.run)
    return report


def report_checkpoint_set(report: Report, checkpoint: Checkpoint | None) -> None:
    """The signed checkpoint the report's cover prints (its receipt)."""
    report.checkpoint = checkpoint
    Report.objects.filter(pk=report.pk).update(checkpoint=checkpoint)


def report_planned(report: Report, *, rows: int, steps: int, pieces: list[tuple[int, list]] | None) -> None:
    """The plan's size (its rows, its steps) and, for a PDF, its pieces (index, keys) for this run."""
    Report.objects.filter(pk=report.pk).update(rows=rows, chunks_total=steps, chunks_done=0, progress=5)
    if pieces is not None:
        ReportPiece.objects.filter(report=report).delete()
        ReportPiece.objects.bulk_create(
            ReportPiece(report=report, run=report.run, index=index, keys=keys) for index, keys in pieces
        )


def report_progress_set(report_id: int, value: float) -> None:
    Report.objects.filter(pk=report_id).update(progress=min(value, 100))


def report_step_done(report_id: int) -> None:
    """One piece of one pass is done: progress moves from 10 (planned) to 95 (joined next)."""
    Report.objects.filter(pk=report_id).update(
        chunks_done=F("chunks_done") + 1,
        progress=Least(Value(95.0), Value(10.0) + (F("chunks_done") + 1) * Value(85.0) / F("chunks_total")),
    )


def report_chain_verdict(report_id: int, verified: ChainReport) -> None:
    """The chain's verdict over the period, as the cover and the list show it."""
    Report.objects.filter(pk=report_id).update(
        chain_intact=verified.ok,
        chain_head=verified.head_hash,
        chain_broken_seq=verified.broken_seq,
        chain_broken_reason=verified.reason,
        chain_from=verified.start,
        chain_to_seq=verified.entries_checked,
        chain_rows_read=verified.rows_read,
    )


def report_piece_rendered(piece_id: int, *, pages: int, sha256: str) -> None:
    ReportPiece.objects.filter(pk=piece_id).update(pages=pages, rendered_sha256=sha256, numbered_sha256="")


def report_piece_numbered(piece_id: int, *, sha256: str) -> None:
    ReportPiece.objects.filter(pk=piece_id).update(numbered_sha256=sha256)


def report_publish(report: Report, path: Path, *, name: str, sha256: str, pages: int | None, signed_by: str) -> None:
    """The file published as the report, once: only by the run that rendered it, while it runs (a
    report done is never published again, a run planned again since never publishes the old one's).
    The report's row is locked; its pieces' rows go."""
    with transaction.atomic():
        current = Report.objects.select_for_update().get(pk=report.pk)
        if current.status != ReportStatus.RUNNING or current.run != report.run:
            raise RunRefused(f"report {report.pk} is {current.status}, not this run's to publish")
        with path.open("rb") as handle:
            report.file.save(name, File(handle), save=False)
        Report.objects.filter(pk=report.pk).update(
            file=report.file.name,
            signed_by=signed_by[:300],
            sha256=sha256,
            size=path.stat().st_size,
            pages=pages,
            status=ReportStatus.DONE,
            progress=100,
            finished_at=timezone.now(),
        )
    ReportPiece.objects.filter(report=report).delete()


def report_fail(report_id: int, error: str, *, run: str | None = None) -> bool:
    """The report failed: it says why, and no file of it is ever served. A report done stays done
    (a failure reported late, or by a message someone else sent, does not take it back); given a run,
    only that run's failure fails the report. Whether it failed now."""
    unfinished = Report.objects.filter(pk=report_id, status__in=(ReportStatus.QUEUED, ReportStatus.RUNNING))
    changed = (unfinished if run is None else unfinished.filter(run=run)).update(
        status=ReportStatus.FAILED, error=error[:2000], finished_at=timezone.now()
    )
    if changed:
        ReportPiece.objects.filter(report_id=report_id).delete()
    return bool(changed)
