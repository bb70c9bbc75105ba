"""The floor logbook in Chromium: a security officer opens a table on a tablet, and the refusals."""

import pytest

from compliance.accounts.models import Role
from compliance.casinos.models import TableState
from inspections.logbook.models import Entry, TableStatus
from tests.browser.conftest import login, screenshot
from tests.factories import PASSWORD, RegulatorFactory, UserFactory


def sign_and_record(page, username: str, password: str = PASSWORD) -> None:
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("text=Sign and record")


def test_a_security_officer_opens_a_table_on_a_tablet(site, tablet_page, locked):
    page = tablet_page
    login(page, site, locked.security.username, PASSWORD)
    assert page.url.endswith("/floor/")
    screenshot(page, "floor-dashboard-tablet")
    page.click(f"a[href='/tables/{locked.table.pk}/']")
    page.click(".actions >> text=Unlock")
    sign_and_record(page, locked.security.username)
    assert "Recorded: Wheel unlocked" in page.inner_text(".messages")

    page.click(".actions >> text=Adjust or replace")
    page.fill("#id_username", locked.maintenance.username)
    page.fill("#id_password", PASSWORD)
    page.select_option("#id_kind", "adjustment")
    page.fill("#id_part", "ball track")
    page.fill("#id_description", "Re-seated the ball track ring")
    page.fill("#id_witness_username", locked.security.username)
    page.fill("#id_witness_password", PASSWORD)
    page.click("text=Sign and record")
    assert "Recorded: Adjustment" in page.inner_text(".messages")

    page.click(".actions >> text=Inspect")
    for code in ("ball_non_magnetic", "no_magnet_or_contrivance", "wheel_level_and_rotating", "parts_secure"):
        page.check(f"input[name='{code}'][value='pass']")
    screenshot(page, "inspection-form")
    sign_and_record(page, locked.security.username)
    assert "Recorded: Inspection" in page.inner_text(".messages")

    page.click(".actions >> text=Open")
    sign_and_record(page, locked.security.username)
    assert "Recorded: Table opened" in page.inner_text(".messages")
    screenshot(page, "table-page")
    for action, message in (("Close", "Table closed"), ("Cover and lock", "Wheel covered and locked")):
        page.click(f".actions >> text={action}")
        sign_and_record(page, locked.security.username)
        assert f"Recorded: {message}" in page.inner_text(".messages")
    assert list(Entry.objects.values_list("kind", flat=True).order_by("seq")) == [
        "unlock",
        "adjustment",
        "inspection",
        "open",
        "close",
        "cover",
    ]


def test_opening_without_an_inspection_shows_the_citation(site, page, locked):
    TableStatus.objects.filter(table_id=locked.table.pk).update(state=TableState.UNLOCKED)
    login(page, site, locked.floorperson.username, PASSWORD)
    page.goto(f"{site}/tables/{locked.table.pk}/open/")
    # Said before any password is typed: the form is not shown.
    assert page.locator("#id_password").count() == 0
    alert = page.inner_text("[role=alert]")
    assert "58 Pa. Code § 617a.2(a)" in alert and "no passing inspection" in alert
    screenshot(page, "refused-opening")
    assert not Entry.objects.exists()


def test_a_wrong_witness_password_is_refused_and_the_form_kept(site, page, locked):
    TableStatus.objects.filter(table_id=locked.table.pk).update(state=TableState.UNLOCKED)
    login(page, site, locked.maintenance.username, PASSWORD)
    page.goto(f"{site}/tables/{locked.table.pk}/adjust/")
    page.fill("#id_password", PASSWORD)
    page.fill("#id_part", "rotor")
    page.fill("#id_description", "New rotor fitted")
    page.fill("#id_witness_username", locked.security.username)
    page.fill("#id_witness_password", "not-the-password")
    page.click("text=Sign and record")
    assert "is wrong" in page.inner_text(".has-error")
    assert page.input_value("#id_part") == "rotor"
    assert page.input_value("#id_description") == "New rotor fitted"
    assert not Entry.objects.exists()


@pytest.mark.parametrize("role", [Role.SECURITY, Role.FLOORPERSON, Role.MAINTENANCE, Role.COMPLIANCE, Role.REGULATOR])
def test_each_role_has_a_home(site, page, locked, role):
    person = RegulatorFactory() if role == Role.REGULATOR else UserFactory(property=locked.property, role=role)
    login(page, site, person.username, PASSWORD)
    heading = page.inner_text("h1")
    homes = {Role.REGULATOR: "Properties of your jurisdiction", Role.COMPLIANCE: locked.property.name}
    assert heading == homes.get(role, "Floor")
    assert person.credential_number in page.inner_text("header")


def test_the_dashboard_fits_a_768_px_tablet(site, tablet_page, locked):
    login(tablet_page, site, locked.security.username, PASSWORD)
    width = tablet_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 768
    screenshot(tablet_page, "login-then-floor")


def test_the_floor_refreshes_its_tiles_itself_marked_as_automatic(site, tablet_page, locked):
    """The tiles come back every 30 s (htmx, under the CSP), with the header that keeps an idle
    tablet's session from being moved on; the clock is Playwright's, so nobody waits."""
    page = tablet_page
    page.clock.install()
    login(page, site, locked.security.username, PASSWORD)
    state = page.locator(f"a[href='/tables/{locked.table.pk}/'] .state")
    assert state.inner_text() == "Closed, wheel covered and locked"
    TableStatus.objects.filter(table_id=locked.table.pk).update(state=TableState.UNLOCKED)  # another tablet
    with page.expect_request(lambda request: request.url.endswith("/floor/")) as refresh:
        page.clock.run_for("00:31")
    assert refresh.value.headers.get("x-auto-refresh") == "1"
    page.wait_for_function(
        "selector => document.querySelector(selector).innerText === 'Unlocked'",
        arg=f"a[href='/tables/{locked.table.pk}/'] .state",
    )
    assert page.url.endswith("/floor/") and page.locator("#tiles").count() == 1


def reddish(locator, prop: str) -> bool:
    """Whether the element's computed colour `prop` is more red than green."""
    rgb = locator.evaluate(f"el => getComputedStyle(el)[{prop!r}]")
    red, green, _blue = (int(part) for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return red > green


def test_a_failed_inspection_and_an_adjustment_in_play_are_answered_at_once(site, tablet_page, locked):
    """Issue 20, item 3: no green "Recorded" for a failed inspection; an adjustment at an open table says
    to stop play, with its citation, and its flag is on the next page, not a minute later."""
    page = tablet_page
    TableStatus.objects.filter(table_id=locked.table.pk).update(state=TableState.UNLOCKED)
    login(page, site, locked.floorperson.username, PASSWORD)
    page.goto(f"{site}/tables/{locked.table.pk}/")
    page.click(".actions >> text=Inspect")
    for code in ("ball_non_magnetic", "no_magnet_or_contrivance", "wheel_level_and_rotating"):
        page.check(f"input[name='{code}'][value='pass']")
    page.check("input[name='parts_secure'][value='fail']")
    sign_and_record(page, locked.floorperson.username)
    failed = page.locator(".messages li.error")
    assert "Inspection FAILED" in failed.inner_text() and "58 Pa. Code § 617a.2(a)" in failed.inner_text()
    assert page.locator(".messages li.success").count() == 0
    # Shown as a refusal is, not in the green of a success: a red ground, red words.
    assert reddish(failed, "background-color") and reddish(failed, "color")
    assert page.locator(".actions >> text=Open").count() == 0  # not offered: explained instead
    assert "may not open until an inspection passes" in page.inner_text(".not-offered")

    page.click(".actions >> text=Inspect")
    for code in ("ball_non_magnetic", "no_magnet_or_contrivance", "wheel_level_and_rotating", "parts_secure"):
        page.check(f"input[name='{code}'][value='pass']")
    sign_and_record(page, locked.floorperson.username)
    page.click(".actions >> text=Open")
    sign_and_record(page, locked.floorperson.username)
    # § 617a.2(d): a part may be replaced at any time; the form says first what that does to play.
    page.click(".actions >> text=Adjust or replace")
    assert "an adjustment or replacement now voids its inspection" in page.inner_text("[role=alert]")
    page.fill("#id_username", locked.maintenance.username)
    page.fill("#id_password", PASSWORD)
    page.select_option("#id_kind", "replacement")
    page.fill("#id_part", "ball deflector")
    page.fill("#id_description", "Replaced a cracked deflector")
    page.fill("#id_witness_username", locked.security.username)
    page.fill("#id_witness_password", PASSWORD)
    page.click("text=Sign and record")
    said = page.inner_text(".messages")
    assert "Inspection void: stop play at table R-01 and inspect it." in said and "58 Pa. Code § 617a.2(d)" in said
    assert "Flag raised by this entry: Part replaced, not inspected before play went on" in said
    assert "Part replaced, not inspected before play went on" in page.inner_text(".flags")
    screenshot(page, "adjustment-in-play-tablet")


def test_a_maintenance_member_sees_why_close_and_inspect_are_not_offered(site, tablet_page, locked):
    page = tablet_page
    TableStatus.objects.filter(table_id=locked.table.pk).update(state=TableState.OPEN)
    login(page, site, locked.maintenance.username, PASSWORD)
    page.goto(f"{site}/tables/{locked.table.pk}/")
    assert page.inner_text(".actions").split() == ["Adjust", "or", "replace", "Change", "the", "ball"]
    reasons = page.inner_text(".not-offered")
    assert "Close" in reasons and "A floorperson or security officer records this" in reasons
    assert "Only a floorperson or security officer may inspect a Roulette table" in reasons
