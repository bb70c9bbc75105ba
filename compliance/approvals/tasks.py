"""Celery tasks of the approvals: the retention rule for rejected layouts' artwork, daily."""

from celery import shared_task
from django.db import DatabaseError

from compliance.approvals.services import rejected_artwork_purge as purge


@shared_task(acks_late=True, reject_on_worker_lost=True, autoretry_for=(DatabaseError,), max_retries=10)
def rejected_artwork_purge() -> int:
    """The artwork files of layouts rejected longer ago than their retention are removed
    (compliance/rulebook/artwork.py, ARTWORK_RETENTION_POLICY); the layouts keep their hashes."""
    return len(purge())
