"""The scan as production runs it: a real Celery worker, taking the task from a real Redis."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker

from compliance.accounts.models import Role
from compliance.casinos.models import Property
from config.celery import app as celery_app
from inspections.flags.models import ComplianceException
from inspections.flags.tasks import scan_overdue
from inspections.reports.models import Report, ReportStatus
from inspections.reports.services import report_enqueue
from scripts import run
from tests.conftest import celery_connected_to, database_url_for_tests
from tests.factories import UserFactory
from tests.servers import ROOT, wait_until
from tests.support.logbook import a_day, event, inspect
from tests.support.reports import requested


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


# ---- Reports never hold back the scan ---------------------------------------------------------


@pytest.fixture
def make_run_workers(committed_db, private_redis, settings, tmp_path):
    """The Celery workers exactly as `make run` starts them (Procfile.dev), on a Redis of this test's
    own and the test database; stopped (SIGTERM, then SIGKILL) after the test."""
    settings.MEDIA_ROOT = tmp_path / "media"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": database_url_for_tests(),
        "REDIS_URL": private_redis.url,
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "REPORT_CHUNK_ROWS": "2",
    }
    started: list[tuple[subprocess.Popen, Path]] = []

    def start() -> list[tuple[subprocess.Popen, Path]]:
        for name, argv in run.workers(sys.executable):
            log = tmp_path / f"{name}.log"
            process = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True
            )
            started.append((process, log))
        return started

    with celery_connected_to(private_redis.url, private_redis.url):
        yield start
    for process, _ in started:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    for process, _ in started:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@pytest.mark.slow
def test_with_150_reports_queued_the_scan_still_runs_at_once(committed_db, casino, make_run_workers):
    """The starvation once measured (150 report requests held the scan from 0.2 s to 65 s): the
    reports wait on a queue of their own, and the control worker takes the scan at once."""
    Property.objects.filter(pk=casino.property.pk).update(cover_grace_minutes=0)
    for _ in range(2):
        a_day(casino)  # something to render: each report is a cover and several pieces
    event(casino, "cover")
    event(casino, "unlock")
    inspect(casino)
    event(casino, "open")
    event(casino, "close")  # the wheel is due to be covered at once
    people = [casino.compliance, *(UserFactory(property=casino.property, role=Role.COMPLIANCE) for _ in range(49))]
    stuffed = [requested(casino, by=people[index % 50]) for index in range(150)]
    assert all(report_enqueue(report.pk) for report in stuffed)

    workers = make_run_workers()
    logs = lambda: "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for _, log in workers)  # noqa: E731
    wait_until(lambda: all("ready." in log.read_text(errors="replace") for _, log in workers), seconds=90, what=logs)
    wait_until(
        lambda: Report.objects.filter(status=ReportStatus.RUNNING).exists(),
        seconds=60,
        what=lambda: f"a report running\n{logs()}",
    )

    started = time.monotonic()
    result = scan_overdue.delay().get(timeout=60)
    took = time.monotonic() - started
    assert result["raised"] == 1
    assert ComplianceException.objects.filter(kind="not_covered", table=casino.table).exists()
    waiting = Report.objects.filter(status__in=(ReportStatus.QUEUED, ReportStatus.RUNNING)).count()
    print(f"the scan took {took:.2f} s with {waiting} reports still waiting or running")
    assert waiting > 100  # the reports queue was still full while the scan ran
    assert took < 10, logs()
