"""The overdue scan's flags in Chromium: seen on the floor, resolved by the compliance manager."""

from compliance.casinos.models import GamingTable
from inspections.flags import overdue
from inspections.flags.models import ComplianceException
from tests.browser.conftest import login, screenshot
from tests.conftest import bare_casino_staff
from tests.factories import PASSWORD, configure_for_opening
from tests.inspections.test_services import event, inspect


def test_a_wheel_left_uncovered_is_flagged_on_the_floor_and_resolved(site, tablet_page):
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    inspect(staff)
    event(staff, "open")
    event(staff, "close")
    overdue.scan(now=GamingTable.objects.get(pk=staff.table.pk).cover_due_at)
    page = tablet_page
    login(page, site, staff.security.username, PASSWORD)
    tile = page.locator(".tile.flagged")
    assert "Overdue: Wheel not covered" in tile.inner_text() and "§ 617a.2(f)" in tile.inner_text()
    screenshot(page, "floor-flagged")
    page.click("header >> text=Sign out")

    login(page, site, staff.compliance.username, PASSWORD)
    page.click("header >> text=Flags")
    screenshot(page, "flags")
    page.click("a.button >> text=Resolve")
    page.fill("#id_note", "Wheel covered at 09:40; the officer was briefed.")
    page.fill("#id_password", PASSWORD)
    page.click("text=Sign and resolve")
    assert "resolved, signed" in page.inner_text(".messages")
    assert ComplianceException.objects.get().resolver_name == staff.compliance.display_name
