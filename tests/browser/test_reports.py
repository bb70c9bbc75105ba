"""A regulator asks for last week's register, watches it progress, and downloads it (Chromium,
the live server, and a real Celery worker on Redis generating it through the chords)."""

from datetime import timedelta

from django.utils import timezone
from pypdf import PdfReader

from inspections.logbook.models import Entry
from inspections.reports.models import ReportDownload
from tests.browser.conftest import login, screenshot
from tests.factories import PASSWORD, RegulatorFactory
from tests.inspections.test_overdue_worker import celery_on_redis  # noqa: F401 - a fixture
from tests.reporting import history, media  # noqa: F401 - fixtures


def test_a_regulator_generates_watches_and_downloads_a_register(site, page, media, history, celery_on_redis):  # noqa: F811
    regulator = RegulatorFactory()
    login(page, site, regulator.username, PASSWORD)
    page.click("header >> text=Reports")
    today = timezone.localdate(timezone=history.property.zone)
    page.fill("#id_period_from", str(today - timedelta(days=7)))
    page.fill("#id_period_to", str(today))
    page.click('button:has-text("Generate")')
    assert "being generated" in page.inner_text(".messages")
    screenshot(page, "reports")
    page.locator("a.button", has_text="Download").wait_for(timeout=60_000)  # polled every 2 s
    row = page.inner_text("tbody tr")
    assert "Done" in row and "chain verified intact" in row and f"{Entry.objects.count()} rows" in row
    screenshot(page, "reports-done")
    with page.expect_download() as caught:
        page.click("a.button >> text=Download")
    path = caught.value.path()
    text = "".join(p.extract_text() for p in PdfReader(path).pages)
    for entry in Entry.objects.all():
        assert entry.description[:20] in text
    assert ReportDownload.objects.get().downloaded_by == regulator
