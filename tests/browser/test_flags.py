"""The overdue scan's flags in Chromium: seen on the floor, acknowledged by the compliance manager, cured by the cover."""

from compliance.casinos.models import GamingTable
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from tests.browser.conftest import login, screenshot
from tests.factories import PASSWORD, configure_for_opening
from tests.support.logbook import event, inspect
from tests.support.people import bare_casino_staff


def test_a_wheel_left_uncovered_is_flagged_on_the_floor_acknowledged_and_open_until_covered(site, tablet_page):
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    inspect(staff)
    event(staff, "open")
    event(staff, "close")
    flag_services.scan(now=GamingTable.objects.get(pk=staff.table.pk).status.cover_due_at)
    page = tablet_page
    login(page, site, staff.security.username, PASSWORD)
    tile = page.locator(".tile.flagged")
    assert "Overdue: Wheel not covered" in tile.inner_text() and "§ 617a.2(f)" in tile.inner_text()
    screenshot(page, "floor-flagged")
    page.click("header >> text=Sign out")

    login(page, site, staff.compliance.username, PASSWORD)
    page.click("header >> text=Flags")
    screenshot(page, "flags")
    page.click("a.button >> text=Acknowledge")
    page.fill("#id_note", "Security is on the way to cover the wheel.")
    page.fill("#id_password", PASSWORD)
    page.click("text=Sign and acknowledge")
    assert "acknowledged, signed" in page.inner_text(".messages")
    flag = ComplianceException.objects.get()
    assert flag.status == "open" and flag.history.get().actor_name == staff.compliance.display_name
    assert "Open, acknowledged" in page.inner_text(f'tr[data-flag="{flag.pk}"]')
