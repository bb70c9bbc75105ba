"""Celery task of the casinos: the tables' QR label sheet, rendered on the "reports" queue (never in
a web request). The message carries the sheet's id only; what it holds is read from its row."""

from celery import shared_task
from django.db import DatabaseError

from compliance.casinos import services

RETRY = {"autoretry_for": (DatabaseError,), "retry_backoff": 2, "retry_backoff_max": 60, "max_retries": 10}


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY)
def label_sheet_generate(sheet_id: int) -> None:
    services.label_sheet_render(sheet_id)
