"""Beat's scheduler: django-celery-beat's schedule in the database, of which only the tasks named
here are ever sent, each without arguments.

The schedule's rows (made by each app's migration, shown read-only in the admin) say when; this
module says what. A row someone inserted in the database (its administrator, anyone with its
credentials) naming another task, or arguments, options or headers of its own, is never sent to the
workers: beat logs it and skips it. Product policy: a periodic task takes no arguments, so a row can
only ask for one of these to run sooner or later, never for anything else.
"""

from __future__ import annotations

import json
import logging

from django_celery_beat.schedulers import DatabaseScheduler

log = logging.getLogger(__name__)

# Every task beat may send: each takes no arguments and decides its own work from the database.
BEAT_TASKS = frozenset(
    {
        "inspections.flags.tasks.scan_overdue",
        "inspections.flags.tasks.send_digests",
        "inspections.logbook.tasks.checkpoint_grown",
        "inspections.reports.tasks.reports_requeue",
        "compliance.accounts.tasks.idempotency_keys_purge",
        "compliance.approvals.tasks.rejected_artwork_purge",
        "celery.backend_cleanup",  # Celery's own: it forgets expired results
    }
)


def _empty(text: str | None, empty) -> bool:
    try:
        return json.loads(text or json.dumps(empty)) == empty
    except ValueError:
        return False


def beat_row_refusal(row) -> str | None:
    """Why beat never sends this row of the schedule, or None when it may."""
    if row.task not in BEAT_TASKS:
        return f"task {row.task!r} is not one beat may send"
    if not _empty(row.args, []) or not _empty(row.kwargs, {}):
        return "a periodic task takes no arguments"
    if not _empty(row.headers, {}) or row.queue or row.exchange or row.routing_key:
        return "a periodic task is sent with the application's own routing and headers"
    return None


class AllowlistScheduler(DatabaseScheduler):
    """DatabaseScheduler, sending only the rows beat_row_refusal lets through."""

    def enabled_models(self):
        allowed = []
        for row in super().enabled_models():
            refusal = beat_row_refusal(row)
            if refusal is None:
                allowed.append(row)
            else:
                log.error("beat skips the schedule's row %r: %s", row.name, refusal)
        return allowed
