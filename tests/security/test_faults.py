"""Faults injected for real: the database connection lost in the middle of an entry, a Celery worker
killed in the middle of a report, Redis stopped while the floor keeps logging. Nothing recorded is
lost, nothing half-written stays, and the background work catches up."""

import http.client as http_client
import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client
from pypdf import PdfReader
from rest_framework.test import APIClient

from compliance.casinos.clock import local_date
from compliance.casinos.models import GamingTable, Property, TableState
from config.api.errors import DATABASE_UNAVAILABLE
from inspections.flags.models import ComplianceException
from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry, Signature
from inspections.reports.models import Report, ReportStatus
from inspections.reports.services import report_enqueue, report_request
from tests.conftest import celery_connected_to, database_url_for_tests
from tests.factories import PASSWORD
from tests.servers import ROOT, free_port, gunicorn_start, wait_until
from tests.support.api import signature
from tests.support.logbook import ALL_PASS, a_day, event, inspect
from tests.support.reports import requested

pytestmark = pytest.mark.slow
needs_postgresql = pytest.mark.skipif(
    "postgresql" not in settings.DATABASES["default"]["ENGINE"],
    reason="needs PostgreSQL (DATABASE_URL), as in CI: the fault is a PostgreSQL backend terminated mid-transaction",
)


# ---- The database lost mid-request ----------------------------------------------------------


def post_inspection_api(casino):
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(casino.floorperson)
    return client.post(
        "/api/inspections/",
        {"table": casino.table.pk, "items": ALL_PASS, "signature": signature(casino.floorperson)},
        format="json",
    )


def post_inspection_form(casino):
    client = Client(raise_request_exception=False)
    client.force_login(casino.floorperson)
    form = {**{code: "pass" for code in ALL_PASS}, "username": casino.floorperson.username, "password": PASSWORD}
    return client.post(f"/tables/{casino.table.pk}/inspect/", form)


@needs_postgresql
@pytest.mark.parametrize("post", [post_inspection_api, post_inspection_form], ids=["api", "form"])
def test_the_database_lost_after_the_entry_is_written_answers_503_and_keeps_nothing(committed_db, casino, post):
    """What each connection sees when PostgreSQL restarts: its backend terminated. Here it happens
    after everything of the entry is written (the entry, its signature, the chain head, the table),
    at the COMMIT of the request's transaction."""
    event(casino, "cover")
    event(casino, "unlock")
    entries, head = Entry.objects.count(), Property.objects.get(pk=casino.property.pk).chain.head
    # Another session holds the property's row still, so the request stops at its COMMIT: the entry's
    # foreign key to its property is checked there (deferred), and waits.
    holder = connections.create_connection("default")
    with holder.cursor() as cursor:
        cursor.execute("BEGIN")
        cursor.execute(f"SELECT 1 FROM {Property._meta.db_table} WHERE id = %s FOR UPDATE", [casino.property.pk])
    answer = {}

    def send():
        try:
            answer["response"] = post(casino)
        finally:
            connections.close_all()  # this thread's connection, for the test database's teardown

    request = threading.Thread(target=send)
    request.start()
    try:
        with connection.cursor() as cursor:

            def stuck_backend():
                cursor.execute(
                    "SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
                )
                return cursor.fetchone()

            pid, query = wait_until(
                stuck_backend, seconds=30, what="the request's COMMIT waiting on the property's row"
            )
            assert query == "COMMIT", query
            # Written, not yet committed: the request's transaction holds the entry.
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE pid = %s AND relation = %s::regclass AND mode = 'RowExclusiveLock'",
                [pid, Signature._meta.db_table],
            )
            assert cursor.fetchone()[0] == 1
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        with holder.cursor() as cursor:
            cursor.execute("ROLLBACK")
        holder.close()
        request.join(timeout=60)

    response = answer["response"]
    assert response.status_code == 503 and response["Retry-After"] == "5"
    if post is post_inspection_api:
        [error] = response.json()["errors"]
        assert error["code"] == "database_unavailable" and "nothing was recorded" in error["message"]
    else:
        assert "nothing was recorded" in response.content.decode()
    # Nothing of the entry stayed: no row, no signature, the chain and the table as they were.
    assert Entry.objects.count() == entries
    assert Property.objects.get(pk=casino.property.pk).chain.head == head
    assert GamingTable.objects.get(pk=casino.table.pk).state == TableState.UNLOCKED
    assert chain_verify(property_id=casino.property.pk).ok
    # The next request has a new connection, and the inspection is recorded once.
    assert post(casino).status_code in (201, 302)
    assert Entry.objects.filter(kind="inspection").count() == 1
    assert chain_verify(property_id=casino.property.pk).ok


def test_while_the_database_is_down_every_request_answers_503_in_its_format():
    """During a PostgreSQL restart no connection can be made at all: gunicorn in production mode,
    its DATABASE_URL on a port where nothing listens."""
    closed = free_port()
    env = {
        **{key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"},
        "DEBUG": "false",
        "SECRET_KEY": "faults-test-" + "x" * 40,
        "SECURE_SSL_REDIRECT": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{closed}/logbook",
    }
    server, port = gunicorn_start(env, workers=1)
    try:
        api = http(port, "GET", "/api/tables/", headers={"Authorization": "Token 0123456789abcdef"})
        page = http(port, "GET", "/floor/", headers={"Cookie": "sessionid=0123456789abcdefghijklmnopqrstuv"})
    finally:
        server.terminate()
        server.wait(timeout=30)
    status, headers, body = api
    assert status == 503 and headers["Retry-After"] == "5"
    [error] = json.loads(body)["errors"]
    assert error == {"code": "database_unavailable", "message": DATABASE_UNAVAILABLE, "citation": None, "field": None}
    status, headers, body = page
    assert status == 503 and "nothing was recorded" in body


def http(port: int, method: str, path: str, *, headers=None):
    connection = http_client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request(method, path, headers=headers or {})
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read().decode()


# ---- Workers and Redis ---------------------------------------------------------------------


class Celery:
    """`celery -A config <command>` in a process group of its own, on the test database."""

    def __init__(self, command: str, *, env: dict[str, str], log: Path):
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", command, "--loglevel", "INFO", *self.ARGS[command]],
            cwd=ROOT,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", **env},
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    ARGS = {
        "worker": ["--concurrency", "2", "--without-gossip", "--without-mingle", "--prefetch-multiplier", "1"],
        "beat": ["--max-interval", "1"],
    }

    def kill(self) -> None:
        """SIGKILL to the whole group: the worker and its pool, as when its machine is lost."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@pytest.fixture
def start_celery(committed_db, private_redis, settings, tmp_path):
    """Start workers and beat on the private Redis, sharing this test's MEDIA_ROOT."""
    settings.MEDIA_ROOT = tmp_path / "media"
    env = {
        "DATABASE_URL": database_url_for_tests(),
        "REDIS_URL": private_redis.url,
        "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        "REPORT_CHUNK_ROWS": "2",
        # Redis hands a dead worker's task on after 5 s here (900 s in production).
        "CELERY_VISIBILITY_TIMEOUT": "5",
    }
    started = []

    def start(command: str) -> Celery:
        process = Celery(command, env=env, log=tmp_path / f"{command}-{len(started)}.log")
        started.append(process)
        return process

    with celery_connected_to(private_redis.url, private_redis.url):
        yield start
    for process in started:
        process.stop()


def download(casino, report: Report):
    client = APIClient()
    client.force_authenticate(casino.compliance)
    return client.get(f"/api/reports/{report.pk}/download/")


def test_a_worker_killed_during_a_report_is_replaced_and_no_half_file_is_served(committed_db, casino, start_celery):
    for _ in range(4):
        a_day(casino)  # 24 entries in all: 12 pieces of 2 rows, and a cover
    first = start_celery("worker")
    report = requested(casino)
    assert report_enqueue(report.pk)

    def rendering():
        report.refresh_from_db()
        return report.status == ReportStatus.RUNNING and 10 < report.progress < 90

    wait_until(rendering, seconds=90, what=lambda: f"the report half rendered\n{first.output()}")
    first.kill()
    report.refresh_from_db()
    killed_at = report.progress
    assert report.status == ReportStatus.RUNNING and not report.file
    assert download(casino, report).status_code == 404  # never a half file

    second = start_celery("worker")

    def finished():
        report.refresh_from_db()
        return report.status in (ReportStatus.DONE, ReportStatus.FAILED)

    wait_until(finished, seconds=120, what=lambda: f"the report finished by the second worker\n{second.output()}")
    assert report.status == ReportStatus.DONE, report.error
    response = download(casino, report)
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    pdf = PdfReader(io.BytesIO(body))
    assert len(pdf.pages) == report.pages and report.rows == Entry.objects.count()
    assert f"Page {report.pages} of {report.pages}" in pdf.pages[-1].extract_text()
    assert response["X-Content-SHA256"] == report.sha256
    print(f"killed at {killed_at} %, finished by the second worker: {report.pages} pages")


def test_redis_stopped_while_the_floor_keeps_logging_then_everything_catches_up(
    committed_db, casino, private_redis, start_celery
):
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    # The scan and the reports' resend every 2 s instead of every minute (the schedule is data, editable in the admin; an
    # earlier transactional test's flush may have emptied it).
    every_2s, _ = IntervalSchedule.objects.get_or_create(every=2, period=IntervalSchedule.SECONDS)
    for task in ("inspections.flags.tasks.scan_overdue", "inspections.reports.tasks.reports_requeue"):
        PeriodicTask.objects.update_or_create(task=task, defaults={"name": f"{task} (test)", "interval": every_2s})
    Property.objects.filter(pk=casino.property.pk).update(cover_grace_minutes=0)
    start_celery("worker")
    start_celery("beat")

    private_redis.stop()
    # The floor goes on: an opening and a closing, every entry signed and chained, and a report asked for.
    event(casino, "cover")
    event(casino, "unlock")
    inspect(casino)
    event(casino, "open")
    event(casino, "close")  # the wheel is now due to be covered at once
    report = report_request(
        requested_by=casino.compliance,
        property=casino.property,
        kind="inspection_register",
        format="csv",
        # The property's dates of its entries, as the report reads its period (not UTC's: at
        # 22:30 in New York the entries are on the 23rd, their UTC date the 24th).
        period_from=local_date(Entry.objects.earliest("occurred_at").occurred_at, casino.property.zone),
        period_to=local_date(Entry.objects.latest("occurred_at").occurred_at, casino.property.zone),
    )
    report.refresh_from_db()
    assert Entry.objects.count() == 5 and chain_verify(property_id=casino.property.pk).ok
    assert (report.status, report.sent) == (ReportStatus.QUEUED, False)
    assert not ComplianceException.objects.exists()

    private_redis.start()  # an empty Redis, as after a restart: nothing was kept in it
    flag = wait_until(
        lambda: ComplianceException.objects.filter(kind="not_covered", table=casino.table).first(),
        seconds=90,
        what="the scan's flag after Redis came back",
    )
    assert flag.citation == "58 Pa. Code § 617a.2(f)"

    def report_done():
        report.refresh_from_db()
        return report.status == ReportStatus.DONE

    wait_until(report_done, seconds=90, what="the queued report sent and rendered")
    assert report.rows == 5
    assert Entry.objects.count() == 5 and chain_verify(property_id=casino.property.pk).ok
