"""The tables' QR labels in Chromium (issue 20, item 7; issue 32, item 3): the compliance manager
finds the sheet on the configuration page, asks for it, watches a real Celery worker render it (never
the web request), and opens a PDF whose codes name the table pages."""

import io

from pypdf import PdfReader

from tests.browser.conftest import login
from tests.factories import PASSWORD
from tests.inspections.test_overdue_worker import celery_on_redis  # noqa: F401 - a fixture
from tests.support.people import bare_casino_staff


def test_a_compliance_manager_prints_the_tables_qr_labels(site, tablet_page, settings, celery_on_redis):  # noqa: F811
    settings.SITE_URL = site
    staff = bare_casino_staff("Keystone Casino")
    page = tablet_page
    login(page, site, staff.compliance.username, PASSWORD)
    page.goto(f"{site}/manage/")
    page.click("text=Print the tables' QR labels (PDF)")
    page.click('button:has-text("Labels of tables 1 to 1")')
    assert "being generated" in page.inner_text(".messages")
    link = page.locator("a.button", has_text="Open the PDF")
    link.wait_for(timeout=60_000)  # the row polled every 2 s
    response = page.request.get(site + link.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages).replace("\n", "")
    assert "Table R-01" in text and f"{site}/tables/{staff.table.pk}/" in text
    # The address on the label opens the table's page for someone signed in.
    page.goto(f"{site}/tables/{staff.table.pk}/")
    assert "Table R-01" in page.inner_text("h1")
