"""Celery tasks of the logbook: the signed checkpoints (beat asks every minute; a logbook that
grew is signed once its last checkpoint is LOGBOOK_CHECKPOINT_MINUTES old).

Idempotent: a second run finds nothing grown since the checkpoint the first one made.
"""

from celery import shared_task
from django.db import DatabaseError

from inspections.logbook import checkpoints, services

RETRY = {"autoretry_for": (DatabaseError,), "retry_backoff": 2, "retry_backoff_max": 60, "max_retries": 10}


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def checkpoint_grown() -> dict:
    try:
        return services.checkpoint_grown()
    except checkpoints.CheckpointKeyMissing as missing:
        return {"signed": [], "refused": [], "unsigned": str(missing)}
