import os
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.utils import translation
from hypothesis import Phase
from hypothesis import settings as hypothesis_settings

from tests import append_only as triggers
from tests import write_guard
from tests.factories import (
    GamingTableFactory,
    PropertyFactory,
    RegulatorFactory,
    configure_for_opening,
)
from tests.servers import RedisServer
from tests.support.people import bare_casino_staff, sign, staff_of  # noqa: F401 (also imported from here by older branches; import from tests.support)

ROOT = Path(__file__).resolve().parent.parent
# Where tests save the screenshots they take (tests/browser's `screenshot`, the `screenshots_dir`
# fixture): build/screenshots/, which git ignores, or LOGBOOK_SCREENSHOTS. Never docs/screenshots/:
# `make screenshots` copies them there, on purpose, when the pictures in docs/screenshots.md should change.
SCREENSHOTS = Path(os.environ.get("LOGBOOK_SCREENSHOTS") or ROOT / "build" / "screenshots").resolve()

# Hypothesis' profiles: `default` (make test, CI) is Hypothesis' own. `fast` (make test-fast, or
# `pytest --hypothesis-profile=fast`) generates fewer cases and runs no explicit examples; for the
# API fuzz (tests/security/test_fuzz.py) those are schemathesis' cases derived from the schema,
# some 100 an operation and most of its time. Its random cases still run.
hypothesis_settings.register_profile(
    "fast", max_examples=20, phases=[phase for phase in Phase if phase is not Phase.explicit]
)

NEW_YORK = ZoneInfo("America/New_York")
# Both sides of a property's local midnight: at 23:30 in New York it is already the 24th in UTC
# (04:30Z), at noon both clocks read the same date. A test that takes "today" from the server
# instead of from the property passes at one of them only.
CLOCKS = {
    "new-york-23h30-utc-tomorrow": datetime(2026, 11, 23, 23, 30, tzinfo=NEW_YORK),
    "new-york-noon": datetime(2026, 11, 24, 12, 0, tzinfo=NEW_YORK),
}
if os.environ.get("LOGBOOK_TEST_CLOCK"):  # e.g. 2026-11-23T23:30-05:00: every any_hour test at that instant only
    CLOCKS = {"LOGBOOK_TEST_CLOCK": datetime.fromisoformat(os.environ["LOGBOOK_TEST_CLOCK"])}


def pytest_generate_tests(metafunc):
    """`@pytest.mark.any_hour` (on a test or a module): the test runs once at each of CLOCKS."""
    if metafunc.definition.get_closest_marker("any_hour"):
        metafunc.parametrize("frozen_clock", list(CLOCKS.values()), ids=list(CLOCKS), indirect=True)


write_guard.install()


@pytest.fixture(autouse=True)
def _language_reset():
    """Every test starts in the default language: a page asked for in Spanish leaves Spanish active
    in the thread (the middleware activates it and nothing deactivates it), and a later test on the
    same worker that says something in the language in use would read Spanish."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path_factory):
    """Files the tests upload (a layout's artwork) or render go to a directory of their own."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")
    return settings.MEDIA_ROOT


@pytest.fixture(scope="session", autouse=True)
def signing_keys(tmp_path_factory):
    """Each test process signs checkpoints and reports with keys of its own, made in a temporary
    directory (never a developer's var/keys/): the ring, its directory, the report's key and certificate."""
    from django.conf import settings as django_settings

    from config import keyring

    directory = tmp_path_factory.mktemp("keys")
    ring = directory / "checkpoint-keyring.json"
    # Valid from long before any clock a test freezes.
    keyring.checkpoint_key_add(ring, now=datetime(2000, 1, 1, tzinfo=UTC))
    # The report certificate is issued by a compliance CA of the tests' own, its key kept apart.
    ca_directory = tmp_path_factory.mktemp("ca")
    ca_key, ca_cert = ca_directory / "compliance-ca.key", ca_directory / "compliance-ca.pem"
    keyring.report_ca_make(ca_key, ca_cert, common_name="Logbook tests compliance CA", now=datetime.now(UTC))
    key, cert = directory / "report-signing.key", directory / "report-signing.pem"
    published = directory / "report-certificates.pem"
    keyring.report_certificate_issue(
        ca_key, ca_cert, key, cert, common_name="Logbook tests", now=datetime.now(UTC), published=published
    )
    django_settings.LOGBOOK_CHECKPOINT_KEYRING = str(ring)
    django_settings.LOGBOOK_REPORT_SIGNING_KEY, django_settings.LOGBOOK_REPORT_SIGNING_CERT = str(key), str(cert)
    django_settings.LOGBOOK_REPORT_CA_CERT, django_settings.LOGBOOK_REPORT_CERTIFICATES = str(ca_cert), str(published)
    django_settings.LOGBOOK_TSA_URL = django_settings.LOGBOOK_TSA_CERTIFICATES = ""
    # The servers and workers a test starts (gunicorn, Celery) sign with the same keys.
    os.environ.update(
        LOGBOOK_CHECKPOINT_KEYRING=str(ring),
        LOGBOOK_REPORT_SIGNING_KEY=str(key),
        LOGBOOK_REPORT_SIGNING_CERT=str(cert),
        LOGBOOK_REPORT_CA_CERT=str(ca_cert),
        LOGBOOK_REPORT_CERTIFICATES=str(published),
        LOGBOOK_TSA_URL="",
    )
    return SimpleNamespace(
        directory=directory,
        ring=ring,
        report_key=key,
        report_cert=cert,
        ca_key=ca_key,
        ca_cert=ca_cert,
        report_certificates=published,
    )


@pytest.fixture(autouse=True)
def checkpoint_ledger(settings, tmp_path_factory, monkeypatch):
    """Each test's checkpoint signer keeps its own ledger (inspections/logbook/ledger.py), as do the
    servers and workers it starts: what one test signed never refuses another's database."""
    path = tmp_path_factory.mktemp("ledger") / "checkpoint-ledger.json"
    settings.LOGBOOK_CHECKPOINT_LEDGER = str(path)
    monkeypatch.setenv("LOGBOOK_CHECKPOINT_LEDGER", str(path))
    return path


@pytest.fixture
def tsa(settings, tmp_path):
    """A real RFC 3161 timestamp authority on 127.0.0.1 (tests/tsa.py), configured and trusted."""
    from tests.tsa import LocalTSA

    authority = LocalTSA(tmp_path)
    settings.LOGBOOK_TSA_URL = authority.url
    settings.LOGBOOK_TSA_CERTIFICATES = str(authority.certificate_path)
    yield authority
    authority.stop()


@pytest.fixture(autouse=True)
def writes_through_services():
    """Fails a test in which the project's code wrote a model other than through its service (tests/write_guard.py)."""
    before = len(write_guard.bypasses)
    yield
    found = write_guard.bypasses[before:]
    if found:
        pytest.fail("Written around the service:\n" + "\n".join(sorted({str(b) for b in found})), pytrace=False)


def pytest_collection_modifyitems(items):
    """A test that saves a picture through `screenshots_dir` is marked `screenshots` (make screenshots
    runs them, and the browser tests)."""
    for item in items:
        if "screenshots_dir" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.screenshots)


@pytest.fixture
def screenshots_dir() -> Path:
    """The folder to save screenshots in (SCREENSHOTS), made if missing."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(autouse=True)
def frozen_clock(request):
    """For an any_hour test: the clock set to its CLOCKS value and ticking on from there, from
    before its data is made (autouse fixtures come first). Only this process's clock: a server or
    worker the test starts keeps the real time. Other tests: the real clock."""
    at = getattr(request, "param", None)
    if at is None:
        yield None
        return
    # Given in UTC: time-machine would otherwise also move the process's local zone (TZ) to New
    # York, and hide exactly the `date.today()` of a server that runs in UTC.
    with time_machine.travel(at.astimezone(UTC), tick=True) as traveller:
        yield traveller


def beat_scheduler():
    """The configured beat scheduler, not started. Its finaliser is cancelled: at garbage collection it
    would sync and close the database connection (django-celery-beat's close_old_connections), in
    whatever test then runs."""
    from celery.utils.imports import symbol_by_name
    from django.conf import settings as django_settings

    from config.celery import app

    scheduler = symbol_by_name(django_settings.CELERY_BEAT_SCHEDULER)(app=app, lazy=True)
    scheduler._finalize.cancel()
    return scheduler


@pytest.fixture
def beat_started(db):
    """Beat as it starts: the configured scheduler writes settings.CELERY_BEAT_SCHEDULE into its tables.

    What its setup_schedule does for each entry (ModelEntry.from_entry), without reading the schedule
    back: that read syncs with close_old_connections, which closes the test's connection inside its
    transaction."""
    scheduler = beat_scheduler()
    for name, fields in scheduler.app.conf.beat_schedule.items():
        scheduler.Entry.from_entry(name, app=scheduler.app, **fields)
    return scheduler


@pytest.fixture
def casino(db):
    """A Pennsylvania property with one person of each floor role and a double-zero table."""
    staff = staff_of(PropertyFactory(name="Keystone Casino"))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01"), created_by=staff.compliance
    )
    return staff


@pytest.fixture
def other_casino(db):
    staff = staff_of(PropertyFactory(name="Other Casino"))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01"), created_by=staff.compliance
    )
    return staff


@pytest.fixture
def regulator(db):
    return RegulatorFactory()


@pytest.fixture
def _logbook_triggers_restored(django_db_blocker):
    yield
    with django_db_blocker.unblock():
        triggers.install(connection)


@pytest.fixture
def committed_db(_logbook_triggers_restored, transactional_db, django_db_blocker):
    """Real commits (for threads and other processes); the logbook is emptied after the test.

    The flush that empties the database after a transactional test would be refused by the
    append-only triggers, so they are dropped just for it and put back right after.
    """
    yield
    with django_db_blocker.unblock():
        triggers.drop(connection)


@pytest.fixture(scope="session")
def redis_url():
    """A real Redis: the machine's (REDIS_URL, as in CI), else one of the session's own."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    server = RedisServer().start()
    yield server.url
    server.stop()


@pytest.fixture
def private_redis():
    """A Redis of this test's alone: it may stop it, and what it leaves queued reaches no other test."""
    server = RedisServer().start()
    yield server
    server.stop()


def database_url_for_tests() -> str:
    """The test database as a DATABASE_URL, for the servers and workers a test starts."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextmanager
def celery_connected_to(broker_url: str, backend_url: str | None = None):
    """The project's Celery app on another broker (and result backend) within the block: its cached
    connection pools and backend are dropped on the way in and on the way out."""
    from config.celery import app

    def forget():
        app._pool = None
        app.amqp._producer_pool = None
        app._backend_cache = None
        app._local.__dict__.pop("backend", None)

    saved = {"broker_url": app.conf.broker_url, "result_backend": app.conf.result_backend}
    forget()
    app.conf.update(broker_url=broker_url, result_backend=backend_url or saved["result_backend"])
    try:
        yield
    finally:
        app.conf.update(saved)
        forget()
