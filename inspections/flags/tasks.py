"""Celery tasks of the flags: the overdue scan (every minute) and the morning digest (checked every minute).

Both are idempotent: a worker killed mid-task leaves the transaction rolled back, and with late
acknowledgement the task runs again on another worker; the flags' unique constraint and the
claimed digest day (flags.Digest) make a second run add nothing twice. A flag is marked `notified_at` only once
its mail went out, so a run lost in between mails that flag again rather than never.
"""

from celery import shared_task
from django.db import DatabaseError

from inspections.flags import services

RETRY = {"autoretry_for": (DatabaseError,), "retry_backoff": 2, "retry_backoff_max": 60, "max_retries": 10}


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def scan_overdue() -> dict:
    found = services.scan()
    found["notified"] = services.notify_new_flags()
    return found


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def send_digests() -> int:
    return services.send_digests()
