"""Celery tasks of the accounts: answers kept for repeated writes forgotten after their lifetime."""

from celery import shared_task
from django.db import DatabaseError

from compliance.accounts.services import keys_purge


@shared_task(acks_late=True, reject_on_worker_lost=True, autoretry_for=(DatabaseError,), max_retries=10)
def idempotency_keys_purge() -> int:
    """Answers kept for repeated writes (Idempotency-Key, form tokens) are forgotten after their lifetime."""
    return keys_purge()
