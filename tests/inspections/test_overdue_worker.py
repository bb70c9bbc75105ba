"""The scan as production runs it: a real Celery worker, taking the task from a real Redis."""

import pytest
from celery.contrib.testing.worker import start_worker

from compliance.models import Property
from config.celery import app as celery_app
from inspections.models import ComplianceException
from inspections.tasks import scan_overdue
from tests.conftest import celery_connected_to
from tests.inspections.test_services import event, inspect


@pytest.fixture
def celery_on_redis(redis_url):
    with (
        celery_connected_to(redis_url, redis_url),
        start_worker(celery_app, pool="solo", perform_ping_check=False, loglevel="WARNING", shutdown_timeout=30),
    ):
        yield


def test_a_worker_raises_the_flag_of_a_wheel_left_uncovered(committed_db, casino, celery_on_redis):
    Property.objects.filter(pk=casino.property.pk).update(cover_grace_minutes=0)
    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    result = scan_overdue.delay().get(timeout=60)
    assert result["raised"] == 1
    flag = ComplianceException.objects.get()
    assert (flag.kind, flag.table_id, flag.status) == ("not_covered", casino.table.pk, "open")
