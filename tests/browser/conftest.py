"""Browser tests: Debian's Chromium, driven by Playwright, against pytest-django's live server.

No browser is ever downloaded (no `playwright install`): Playwright launches the system's Chromium,
which `.ci/run` installs. Where it is missing the browser tests are skipped, with the reason in the
summary.

    def test_something(site, page):
        login(page, site, user.username, PASSWORD)
        page.goto(site + "/floor/")
        screenshot(page, "floor")
"""

import asyncio
from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import sync_playwright

from compliance.casinos.models import TableState
from inspections.logbook.models import TableStatus
from tests.conftest import SCREENSHOTS
from tests.factories import configure_for_opening
from tests.support.people import bare_casino_staff

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Playwright waits up to 30 s for each action by default; a page of this project that takes a
# tenth of that is already broken, and a failing test should say so soon.
TIMEOUT_MS = 10_000
DESKTOP = {"width": 1280, "height": 800}
TABLET = {"width": 768, "height": 1024}

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    """Every test in this folder is a browser test: `-m browser` selects them, `-m "not browser"` skips them."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


# Playwright's sync API runs an asyncio event loop in a greenlet of this thread, and marks it as
# running between its calls too (its own code needs that). In a thread with a running loop Django
# refuses the ORM (SynchronousOnlyOperation), and keeps the thread's database connections apart
# from the ones it uses outside the loop. So the loop is marked running only while a browser test
# runs, not between them (the rest of the suite never sees it); during the test the ORM is allowed
# and uses the very connections pytest-django set up, closed and flushed as usual after the test.
# The live server answers in threads of their own, which see no loop.


@pytest.fixture(scope="session")
def _playwright():
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Chromium at {CHROMIUM}: apt-get install chromium (.ci/run does)")
    playwright = sync_playwright().start()
    loop = asyncio.get_running_loop()
    try:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    except BaseException:
        playwright.stop()
        raise
    asyncio._set_running_loop(None)
    yield browser, loop
    asyncio._set_running_loop(loop)
    browser.close()
    playwright.stop()  # the loop ends, and is no longer marked running


@pytest.fixture(scope="session")
def browser(_playwright):
    """Chromium, started once for the session."""
    return _playwright[0]


@pytest.fixture(autouse=True)
def _playwright_loop(request, monkeypatch):
    if "browser" not in request.fixturenames:
        yield
        return
    _, loop = request.getfixturevalue("_playwright")
    outside = {alias: connections[alias] for alias in connections}
    asyncio._set_running_loop(loop)
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    for alias, connection in outside.items():
        connections[alias] = connection
    yield
    for alias in connections:
        if connections[alias] is not outside[alias]:
            connections[alias].close()
        del connections[alias]
    asyncio._set_running_loop(None)


def new_page(browser, viewport):
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(TIMEOUT_MS)
    return context, context.new_page()


@pytest.fixture
def page(browser):
    """A fresh page (no cookies) on a desktop screen, 1280×800."""
    context, page = new_page(browser, DESKTOP)
    yield page
    context.close()


@pytest.fixture
def tablet_page(browser):
    """A fresh page (no cookies) on a tablet held upright, 768×1024."""
    context, page = new_page(browser, TABLET)
    yield page
    context.close()


@pytest.fixture
def transactional_db(_logbook_triggers_restored, transactional_db):
    """Puts the append-only triggers back only after the flush that ends a live-server test.

    pytest-django sets up the transactional database of a test that uses `live_server` before any
    other fixture (from an autouse fixture of its own), so it would be torn down, flushed, after
    `committed_db`'s `_logbook_triggers_restored` had put the triggers back: the flush would be
    refused (always on PostgreSQL, whose TRUNCATE trigger fires on empty tables too).
    """
    return transactional_db


@pytest.fixture
def site(committed_db, live_server) -> str:
    """The live server's address, e.g. http://localhost:38111, with no slash at the end.

    What the test writes is committed, so that the server's thread sees it; the database is emptied
    after the test.
    """
    return live_server.url


@pytest.fixture
def locked(site):
    """A table closed for the night, its wheel covered and locked, ready for the morning."""
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    TableStatus.objects.filter(table_id=staff.table.pk).update(state=TableState.LOCKED)
    return staff


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    """Saves the whole page (or only what the screen shows) as <name>.png in SCREENSHOTS
    (tests/conftest.py: build/screenshots/)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=path, full_page=full_page)
    return path


def login(page, site: str, username: str, password: str, *, path: str = "/login/") -> None:
    """Signs in through the login form at `path` (Django's LoginView: #id_username, #id_password).

    Returns once the page the form leads to has loaded; on a wrong password that is the form again.
    """
    page.goto(site + path)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    form = page.locator("form", has=page.locator("#id_username"))
    with page.expect_navigation():
        form.locator("button:not([type]), [type=submit]").first.click()
