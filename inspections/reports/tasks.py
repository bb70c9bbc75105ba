"""Celery tasks of the reports: each report rendered in pieces on the "reports" queue, and, every
minute, the reports whose task never reached the broker sent again."""

from celery import chord, shared_task
from django.db import DatabaseError

from inspections.reports import render, services
from inspections.reports.models import Report

RETRY = {"autoretry_for": (DatabaseError,), "retry_backoff": 2, "retry_backoff_max": 60, "max_retries": 10}


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def reports_requeue() -> int:
    return services.unsent_reports_send()


# ---- Reports: plan, then each piece rendered once, then numbered, then joined ----
# A chord runs each pass's pieces in parallel on the workers; a piece is idempotent (it rewrites
# its own work file), so one redelivered after a worker died is simply done again.
# Every message carries the report's id and at most a piece's index, never a path nor the rows: the
# steps find their files from the report's run (render.py), and the chords' callbacks are immutable
# (`si`), so no step's result is ever read as the next one's input. A message sent by anyone else (a
# row in beat's schedule, a broker write) can make a report's own run go on, never sign another file.


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def report_generate(report_id: int) -> None:
    try:
        pieces = render.plan(report_id)
        if Report.objects.filter(pk=report_id, format="csv").exists():
            render.csv_publish(report_id)
            return
    except services.ReportFinished:
        return
    except Exception as error:
        render.failed(report_id, f"{type(error).__name__}: {error}")
        raise
    # The plan's first pass in parallel (render.passes says its order), then report_pieces_stamp.
    first = render.passes(pieces)[0]
    run = Report.objects.values_list("run", flat=True).get(pk=report_id)
    chord([step_task(report_id, step) for step in first])(
        report_pieces_stamp.si(report_id).on_error(report_failed.s(report_id, run))
    )


def step_task(report_id: int, step: render.Step):
    """The task that runs a step of the plan on a worker, as an immutable signature."""
    task = {
        "segment": report_segment_entries,
        "render": report_piece_render,
        "stamp": report_piece_stamp,
    }[step.kind]
    return task.si(report_id, *step.args)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def report_segment_entries(report_id: int) -> None:
    render.segment_entries_write(report_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def report_piece_render(report_id: int, index: int) -> int:
    _path, pages = render.piece_render(report_id, index)
    return pages


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def report_pieces_stamp(report_id: int) -> None:
    """The plan's first pass is done: its second (each piece numbered, the cover with its
    attachments) in parallel, then the join."""
    report = render.running(report_id)
    _first, stamps = render.passes(render.run_pieces(report))
    chord(step_task(report_id, step) for step in stamps)(
        report_join.si(report_id).on_error(report_failed.s(report_id, report.run))
    )


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def report_piece_stamp(report_id: int, index: int) -> None:
    render.piece_stamp(report_id, index)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def report_join(report_id: int) -> None:
    try:
        render.join(report_id)
    except Exception as error:
        render.failed(report_id, f"{type(error).__name__}: {error}")
        raise


@shared_task
def report_failed(request, exc, traceback, report_id: int, run: str = "") -> None:
    """A piece failed for good (after its retries): the report says why and serves no file. A piece of
    a run planned again since (its report_generate delivered twice) fails nothing of the new run."""
    render.failed(report_id, f"{type(exc).__name__}: {exc}", run=run or None)
