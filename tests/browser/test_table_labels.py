"""The tables' QR labels in Chromium (issue 20, item 7): the compliance manager finds the sheet on the
configuration page and gets a PDF whose codes name the table pages."""

import io

from pypdf import PdfReader

from tests.browser.conftest import login
from tests.factories import PASSWORD
from tests.support.people import bare_casino_staff


def test_a_compliance_manager_prints_the_tables_qr_labels(site, tablet_page, settings):
    settings.SITE_URL = site
    staff = bare_casino_staff("Keystone Casino")
    page = tablet_page
    login(page, site, staff.compliance.username, PASSWORD)
    page.goto(f"{site}/manage/")
    link = page.locator("text=Print the tables' QR labels (PDF)")
    response = page.request.get(site + link.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages).replace("\n", "")
    assert "Table R-01" in text and f"{site}/tables/{staff.table.pk}/" in text
    # The address on the label opens the table's page for someone signed in.
    page.goto(f"{site}/tables/{staff.table.pk}/")
    assert "Table R-01" in page.inner_text("h1")
