"""A draft's table configurations in Chromium (issue 30, item 2): a compliance manager adds one on the
Rules Submission's page, checked live as the standard one is, and gives it to a table; every page of
it fits a phone (390 px) and an upright tablet (768 px), in English and Spanish."""

from datetime import timedelta

from playwright.sync_api import expect

from compliance.approvals import services as approvals
from compliance.approvals.models import RulesSubmission
from compliance.casinos.clock import property_today
from compliance.casinos.models import GamingTable
from tests.browser.conftest import TIMEOUT_MS, login, screenshot
from tests.factories import PASSWORD, RegulatorFactory, configure_for_opening
from tests.support.people import bare_casino_staff

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}


def _draft(staff) -> RulesSubmission:
    return approvals.rules_submission_draft(
        prop=staff.property,
        game="roulette",
        effective_from=property_today(staff.property) + timedelta(days=30),
        wheel_types=["double_zero"],
        payout_odds={"straight": [35, 1], "red": [1, 1], "black": [1, 1]},
        options={},
        created_by=staff.compliance,
    )


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_compliance_manager_adds_a_table_configuration_on_the_draft_page(site, browser):
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    draft = _draft(staff)
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    login(page, site, staff.compliance.username, PASSWORD)
    page.goto(f"{site}/rules-submissions/{draft.pk}/")
    page.click("text=Add a table configuration")
    page.fill("#id_name", "Single zero, red and black")
    page.fill("#id_key", "single")
    page.check("input[name=wheel_types][value=single_zero]")
    page.fill("#id_odds_straight", "34 to 1")
    live = page.locator("#live")
    live.get_by_text("Straight:").wait_for()  # checked by the server while nothing is saved
    assert "58 Pa. Code § 617a.4(a)" in live.inner_text()
    page.fill("#id_odds_straight", "35 to 1")
    page.fill("#id_odds_red", "1 to 1")
    expect(live.get_by_text("Straight:")).to_have_count(0)
    assert "2.70" in live.inner_text()  # the house edge of 35 to 1 on a single-zero wheel
    assert _fits(page)
    screenshot(page, "rules-submission-configuration-phone")
    page.click("text=Save the configuration")
    assert "Configuration “Single zero, red and black” saved" in page.inner_text(".messages")
    assert page.locator("#configuration-single").is_visible()
    assert _fits(page)
    screenshot(page, "rules-submission-configurations-phone")
    saved = RulesSubmission.objects.get(pk=draft.pk).configurations
    assert saved == [
        {
            "key": "single",
            "name": "Single zero, red and black",
            "wheel_types": ["single_zero"],
            "payout_odds": {"straight": [35, 1], "red": [1, 1]},
            "options": {},
        }
    ]
    # The table is given the new configuration where the tables are managed.
    page.goto(f"{site}/manage/")
    assert _fits(page)
    page.click(f"a[href='/manage/tables/{staff.table.pk}/configuration/']")
    page.check("input[name=configuration][value=single]")
    assert _fits(page)
    page.click("text=Save")
    assert "now uses the configuration “single”" in page.inner_text(".messages")
    assert GamingTable.objects.get(pk=staff.table.pk).configuration == "single"
    context.close()


def test_the_configuration_pages_fit_a_phone_and_a_tablet_in_both_languages(site, browser):
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    draft = _draft(staff)
    approvals.rules_submission_configuration_save(
        submission_id=draft.pk,
        configuration={
            "key": "lightning",
            "name": "Lightning Roulette on the single-zero tables of the main floor",
            "wheel_types": ["single_zero"],
            "payout_odds": {"straight": [29, 1], "red": [1, 1]},
            "options": {"lightning_payouts": [499, 399, 349, 299, 249, 199, 149, 99, 49]},
        },
    )
    pages = [
        f"/rules-submissions/{draft.pk}/",
        f"/rules-submissions/{draft.pk}/configurations/new/",
        f"/rules-submissions/{draft.pk}/configurations/lightning/edit/",
        f"/manage/tables/{staff.table.pk}/configuration/",
        "/manage/",
    ]
    # The regulator reads the same version, its configurations and what changed, before deciding.
    regulator = RegulatorFactory()
    readers = {staff.compliance: pages, regulator: pages[:1]}
    for language in ("en-US", "es-ES"):
        for viewport in (PHONE, TABLET):
            for person, paths in readers.items():
                context = browser.new_context(viewport=viewport, locale=language)
                context.set_default_timeout(TIMEOUT_MS)
                page = context.new_page()
                login(page, site, person.username, PASSWORD)
                for path in paths:
                    page.goto(site + path)
                    assert page.get_attribute("html", "lang") == language[:2]
                    assert _fits(page), (person.username, language, viewport["width"], path)
                context.close()
