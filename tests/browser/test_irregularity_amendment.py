"""The floor logbook in Chromium: a "no spin" with a new ball at an open table, then an amendment."""

from datetime import timedelta
from decimal import Decimal

import pytest

from compliance.casinos.models import Ball
from inspections.logbook.models import Entry, EntryKind
from tests.browser.conftest import login, screenshot
from tests.factories import PASSWORD, configure_for_opening
from tests.support.logbook import event, inspect
from tests.support.people import bare_casino_staff


@pytest.fixture
def open_table(site):
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    staff.inspection = inspect(staff)
    event(staff, "open")
    staff.spare = Ball.objects.create(
        property=staff.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    return staff


def test_a_floorperson_records_a_no_spin_and_amends_the_inspection(site, page, open_table):
    staff = open_table
    login(page, site, staff.floorperson.username, PASSWORD)
    page.goto(f"{site}/tables/{staff.table.pk}/")

    page.click(".actions >> text=No spin")
    page.check("input[name='kind'][value='ball_left_wheel']")
    page.check("#id_ball_replaced")
    page.select_option("#id_new_ball", str(staff.spare.pk))
    page.fill("#id_notes", "Ball jumped onto the layout")
    page.fill("#id_password", PASSWORD)
    screenshot(page, "irregularity-form")
    page.click("text=Sign and record")
    assert "Recorded: Irregularity" in page.inner_text(".messages")
    assert "B-SPARE" in page.inner_text(".approvals")

    # Half an hour before it was logged, as the property reads it: within the hours an entry may be
    # back-dated (ENTRY_MAX_BACKDATE_HOURS).
    corrected = (staff.inspection.recorded_at - timedelta(minutes=30)).astimezone(staff.property.zone)
    typed = corrected.strftime("%Y-%m-%dT%H:%M")
    page.click(f"a[href='/entries/{staff.inspection.pk}/amend/']")
    assert f"#{staff.inspection.seq} · Inspection" in page.inner_text(".amended")
    page.fill("#id_reason", "Notes left out at the time")
    page.fill("#id_corrected_time", typed)
    page.fill("#id_corrected_notes", "Ball checked with the compass")
    page.fill("#id_password", PASSWORD)
    screenshot(page, "amendment-form")
    page.fill("#id_password", "not the password")
    page.click("text=Sign and record")
    assert "is wrong" in page.inner_text(".has-error")
    assert page.input_value("#id_reason") == "Notes left out at the time"
    assert page.input_value("#id_corrected_time") == typed
    assert page.input_value("#id_corrected_notes") == "Ball checked with the compass"

    page.fill("#id_password", PASSWORD)
    page.click("text=Sign and record")
    assert "Recorded: Amendment" in page.inner_text(".messages")
    amendment = Entry.objects.get(kind=EntryKind.AMENDMENT)
    assert amendment.amends_id == staff.inspection.pk
    # The time typed, in New York, with its offset.
    assert amendment.details["correction"] == {
        "performed_at": corrected.replace(second=0, microsecond=0).isoformat(),
        "notes": "Ball checked with the compass",
    }
    staff.table.refresh_from_db()
    assert staff.table.ball == staff.spare
