"""Lockout on a shared floor, in Chromium on a tablet (issue 20, item 4): a witness's wrong passwords
say how many attempts remain, lock their signing only, and their supervisor lifts the lock on the floor."""

from compliance.accounts.models import LockLift, User
from compliance.casinos.models import TableState
from inspections.logbook.models import TableStatus
from tests.browser.conftest import login, screenshot
from tests.factories import PASSWORD, configure_for_opening
from tests.support.people import bare_casino_staff


def test_a_witness_locked_at_signing_still_signs_in_and_a_supervisor_lifts_the_lock(site, browser, tablet_page):
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    TableStatus.objects.filter(table_id=staff.table.pk).update(state=TableState.UNLOCKED)
    User.objects.filter(pk=staff.security2.pk).update(security_supervisor=True)
    page = tablet_page
    login(page, site, staff.maintenance.username, PASSWORD)
    page.goto(f"{site}/tables/{staff.table.pk}/adjust/")
    said = []
    for _ in range(5):
        page.fill("#id_password", PASSWORD)
        page.select_option("#id_kind", "adjustment")
        page.fill("#id_part", "ball track")
        page.fill("#id_description", "Re-seated the ball track")
        page.fill("#id_witness_username", staff.security.username)
        page.fill("#id_witness_password", "not the password")
        page.click("text=Sign and record")
        said.append(page.inner_text(".has-error"))
    assert "4 more wrong password(s) from this device" in said[0]
    assert "locked for 15 minutes" in said[-1] and "signing in stays open" in said[-1]
    screenshot(page, "signature-locked-tablet")

    # The witness signs in on another tablet all the same.
    other = browser.new_page(viewport={"width": 768, "height": 1024})
    login(other, site, staff.security.username, PASSWORD)
    assert other.url.endswith("/floor/")
    other.close()

    supervisor = browser.new_page(viewport={"width": 768, "height": 1024})
    login(supervisor, site, staff.security2.username, PASSWORD)
    supervisor.click("header >> text=Locks")
    assert "signing locked" in supervisor.inner_text(".locks")
    supervisor.fill(f"#reason-{staff.security.pk}", "Asked in person at the pit; badge checked")
    supervisor.click("text=Lift the lock of")
    assert "Lock lifted for" in supervisor.inner_text(".messages")
    screenshot(supervisor, "lock-lifted-tablet")
    supervisor.close()
    assert LockLift.objects.get().person_id == staff.security.pk

    page.fill("#id_password", PASSWORD)
    page.fill("#id_witness_password", PASSWORD)
    page.click("text=Sign and record")
    assert "Recorded: Adjustment" in page.inner_text(".messages")
