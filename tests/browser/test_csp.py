"""The Content Security Policy (no inline script or style) holds on every main page in Chromium."""

import pytest

from tests.browser.conftest import login
from tests.factories import PASSWORD, RegulatorFactory, configure_for_opening
from tests.support.people import bare_casino_staff

PAGES = {
    "security": ["/floor/", "/tables/{table}/", "/tables/{table}/inspect/", "/tables/{table}/unlock/", "/flags/"],
    "compliance": ["/manage/", "/manage/rules/new/", "/manage/layouts/new/", "/reports/"],
    "regulator": ["/", "/approvals/", "/reports/", "/api/docs/"],
}


@pytest.mark.parametrize("role", sorted(PAGES))
def test_no_page_breaks_the_content_security_policy(site, page, role):
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    person = RegulatorFactory() if role == "regulator" else getattr(staff, role)
    violations = []
    page.on("console", lambda message: "Content Security Policy" in message.text and violations.append(message.text))
    login(page, site, person.username, PASSWORD)
    for path in PAGES[role]:
        response = page.goto(site + path.format(table=staff.table.pk))
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        if path == "/manage/rules/new/":  # the live check: htmx's request and swap
            page.fill("#id_odds_straight", "34 to 1")
            page.locator("#live").get_by_text("Straight:").wait_for()
        if path == "/api/docs/":
            page.locator(".swagger-ui").wait_for()
        page.wait_for_load_state("networkidle")
    assert violations == []
