"""The compliance manager's and the regulator's pages in Chromium: a draft checked live, a layout approved."""

from playwright.sync_api import expect

from compliance.approvals.models import LayoutSubmission, RulesSubmission
from tests.browser.conftest import login, screenshot
from tests.factories import PASSWORD, RegulatorFactory, layout_submitted
from tests.support.people import bare_casino_staff


def test_a_compliance_manager_sees_a_drafts_violations_as_the_form_changes(site, page):
    staff = bare_casino_staff("Keystone Casino")
    login(page, site, staff.compliance.username, PASSWORD)
    assert page.inner_text("h1") == "Keystone Casino"  # the compliance manager's home
    screenshot(page, "compliance-home")
    page.click("text=New Rules Submission draft")
    page.check("input[name=wheel_types][value=double_zero]")
    page.fill("#id_odds_straight", "34 to 1")
    live = page.locator("#live")
    live.get_by_text("Straight:").wait_for()  # checked by the server while nothing is saved
    assert "58 Pa. Code § 617a.4(a)" in live.inner_text()
    assert not RulesSubmission.objects.exists()
    page.fill("#id_odds_straight", "35 to 1")
    expect(live.get_by_text("Straight:")).to_have_count(0)
    assert "5.26" in live.inner_text()  # the house edge of 35 to 1 on a double-zero wheel
    page.select_option("#id_option_touchdown_paytable", "A")
    page.fill("#id_odds_split", "17")
    live.get_by_text("Split").wait_for()
    screenshot(page, "rules-submission-draft")
    page.click("text=Save draft")
    assert "Draft version 1 saved" in page.inner_text(".messages")
    saved = RulesSubmission.objects.get()
    assert saved.payout_odds == {"straight": [35, 1], "split": [17, 1]} and saved.options == {"touchdown_paytable": "A"}
    assert saved.violations == []


def test_a_regulator_approves_a_layout(site, page):
    staff = bare_casino_staff("Keystone Casino")
    layout = layout_submitted(staff)
    regulator = RegulatorFactory()
    login(page, site, regulator.username, PASSWORD)
    page.click("header >> text=Approvals")
    screenshot(page, "approvals-queue")
    page.click("text=Layout “Keystone standard layout”")
    # The regulator sees the artwork before deciding: loaded from the layout's own page (CSP: 'self').
    artwork = page.locator("figure.artwork img")
    artwork.wait_for()
    assert artwork.evaluate("img => img.decode().then(() => img.naturalWidth)") == 240
    assert layout.artwork_sha256 in page.inner_text("dl.approvals")
    page.check("input[name=decision][value=approved]")
    page.fill("#id_reference", "PGCB-L-2026-17")
    page.fill("#id_password", "not-my-password")
    page.click("text=Sign the decision")
    assert "is wrong" in page.inner_text(".has-error")
    assert page.input_value("#id_reference") == "PGCB-L-2026-17"
    page.fill("#id_password", PASSWORD)
    screenshot(page, "layout-decision")
    page.click("text=Sign the decision")
    assert "approved, signed (PGCB-L-2026-17)" in page.inner_text(".messages")
    layout = LayoutSubmission.objects.get(pk=layout.pk)
    assert layout.status == "approved" and layout.signatures.get().signer == regulator
