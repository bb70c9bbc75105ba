"""Touch first on the floor, and every form by keyboard alone: the night's unlock → inspect → open
in one tap a step besides the signatures, every item passed with one tap and a failing one with one
more, the signature's password ready for typing, the Rules Submission's live check small on a
tablet, tables as cards on a phone."""

from __future__ import annotations

import pytest

from compliance.casinos.models import GamingTable, TableState
from inspections.logbook.models import Entry
from tests.browser.conftest import TIMEOUT_MS, login, screenshot
from tests.browser.test_every_page import WIDTHS
from tests.factories import PASSWORD, RegulatorFactory
from tests.support.logbook import event

CHECKLIST = ("ball_non_magnetic", "no_magnet_or_contrivance", "wheel_level_and_rotating", "parts_secure")
FOCUSED = "() => document.activeElement && document.activeElement.id"


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=WIDTHS["phone"], has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    yield context.new_page()
    context.close()


def sign_by_typing(page) -> None:
    """The signature: the cursor is already in the password field; Enter sends the form."""
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'id_password'")
    page.keyboard.type(PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_unlock_inspect_open_takes_one_tap_a_step_besides_the_signatures(site, phone, locked):
    page = phone
    login(page, site, locked.security.username, PASSWORD)
    taps = []

    def tap(locator) -> None:
        taps.append(locator.inner_text())
        locator.tap()

    tap(page.locator(f"a.tile[href='/tables/{locked.table.pk}/']"))
    next_step = page.locator(".actions .button").first  # the next step comes first, filled
    assert next_step.inner_text() == "Unlock"
    tap(next_step)
    sign_by_typing(page)
    assert next_step.inner_text() == "Inspect"
    tap(next_step)
    tap(page.get_by_role("button", name="All items pass"))
    sign_by_typing(page)
    assert next_step.inner_text() == "Open"
    tap(next_step)
    sign_by_typing(page)
    screenshot(page, "table-opened-phone")
    # The tile, each step's button and "All items pass"; the three passwords typed, each sent by Enter.
    assert taps[1:] == ["Unlock", "Inspect", "All items pass", "Open"]
    assert list(Entry.objects.order_by("seq").values_list("kind", flat=True)) == ["unlock", "inspection", "open"]
    assert GamingTable.objects.get(pk=locked.table.pk).state == TableState.OPEN


def test_a_failing_item_is_one_tap_after_all_items_pass(site, phone, locked):
    event(locked, "unlock")
    page = phone
    login(page, site, locked.security.username, PASSWORD)
    page.goto(f"{site}/tables/{locked.table.pk}/inspect/")
    page.get_by_role("button", name="All items pass").tap()
    assert all(page.is_checked(f"input[name={code}][value=pass]") for code in CHECKLIST)
    assert page.evaluate(FOCUSED) == "id_password"
    fail = page.locator("label", has=page.locator("input[name=parts_secure][value=fail]"))
    box = fail.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    fail.tap()
    assert page.is_checked("input[name=parts_secure][value=fail]")
    assert not page.is_checked("input[name=parts_secure][value=pass]")
    screenshot(page, "inspection-failing-item-phone")
    page.locator("#id_password").fill(PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    inspection = Entry.objects.get(kind="inspection")
    assert inspection.details["items"] == {code: code != "parts_secure" for code in CHECKLIST}


def test_an_inspection_by_keyboard_alone(site, page, locked):
    event(locked, "unlock")
    login(page, site, locked.security.username, PASSWORD)
    page.goto(f"{site}/tables/{locked.table.pk}/inspect/")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.hasAttribute('data-all-pass')"):
            break
    else:
        pytest.fail("Tab never reached “All items pass”")
    page.keyboard.press("Enter")
    sign_by_typing(page)
    assert Entry.objects.get(kind="inspection").details["items"] == dict.fromkeys(CHECKLIST, True)


# Each control a person can reach with Tab, as a key: a group of radio buttons is one stop (the
# arrow keys move within it).
CONTROLS = """() => Array.from(document.querySelectorAll(
    'main a[href], main button, main input:not([type=hidden]), main select, main textarea'))
  .filter(el => !el.disabled && el.getClientRects().length && !el.closest('[hidden]'))
  .map(el => el.type === 'radio' ? 'radio:' + el.name : (el.id || el.name || el.textContent.trim()))"""
FOCUS = """() => { const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  return {key: el.type === 'radio' ? 'radio:' + el.name : (el.id || el.name || el.textContent.trim()),
          outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2};
}"""


def reached_by_tab(page) -> tuple[set[str], set[str]]:
    """The page's controls Tab never reached, and those it reached without showing where the focus
    is (a date field is marked while one types in it; its calendar button inside draws its own ring)."""
    wanted = set(page.evaluate(CONTROLS))
    reached, marked = set(), set()
    for _ in range(len(wanted) + 30):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS)
        if focus:
            reached.add(focus["key"])
            if focus["outline"]:
                marked.add(focus["key"])
        if wanted <= reached:
            break
    return wanted - reached, reached - marked


def _draft_with_a_configuration(staff):
    """A Rules Submission draft with a table configuration “single” beside the standard one."""
    from datetime import timedelta

    from compliance.approvals import services as approvals
    from compliance.casinos.clock import property_today

    return approvals.rules_submission_draft(
        prop=staff.property,
        game="roulette",
        effective_from=property_today(staff.property) + timedelta(days=30),
        wheel_types=["double_zero"],
        payout_odds={"straight": [35, 1]},
        options={},
        configurations=[
            {"key": "single", "name": "Single", "wheel_types": ["single_zero"], "payout_odds": {"straight": [35, 1]}}
        ],
        created_by=staff.compliance,
    )


def test_every_form_is_usable_by_keyboard_alone(site, page, locked):
    """Tab reaches every field, button and link of every form, each showing the focus."""
    inspect_table = locked.table.pk
    event(locked, "unlock")
    entry = Entry.objects.get()
    draft = _draft_with_a_configuration(locked)
    people = {
        locked.compliance: [
            f"/rules-submissions/{draft.pk}/configurations/new/",
            f"/rules-submissions/{draft.pk}/configurations/single/edit/",
            f"/manage/tables/{inspect_table}/configuration/",
            *(
                f"/tables/{inspect_table}/{kind}/"
                for kind in ("unlock", "inspect", "adjust", "ball", "open", "close", "cover")
            ),
            f"/tables/{inspect_table}/irregularity/",
            f"/entries/{entry.pk}/amend/",
            "/manage/rules/new/",
            "/manage/layouts/new/",
            "/reports/",
        ],
    }
    problems = []
    page.goto(site + "/login/")
    missed, unmarked = reached_by_tab(page)
    problems += [f"/login/: Tab never reaches {sorted(missed)}"] if missed else []
    problems += [f"/login/: no visible focus on {sorted(unmarked)}"] if unmarked else []
    for person, paths in people.items():
        login(page, site, person.username, PASSWORD)
        for path in paths:
            page.goto(site + path)
            missed, unmarked = reached_by_tab(page)
            problems += [f"{path}: Tab never reaches {sorted(missed)}"] if missed else []
            problems += [f"{path}: no visible focus on {sorted(unmarked)}"] if unmarked else []
    assert not problems, "\n".join(problems)


def test_a_layout_decision_by_keyboard_alone(site, page, locked):
    from tests.factories import layout_submitted

    layout = layout_submitted(locked)
    regulator = RegulatorFactory()
    login(page, site, regulator.username, PASSWORD)
    page.goto(f"{site}/layouts/{layout.pk}/")
    missed, unmarked = reached_by_tab(page)
    assert not missed and not unmarked, (missed, unmarked)
    # Then the decision itself: the radio buttons by arrow keys, the rest typed, Enter to sign.
    page.focus("input[name=decision]")
    page.keyboard.press("Space")
    assert page.is_checked("input[name=decision][value=approved]")
    page.keyboard.press("Tab")
    page.keyboard.type("PGCB-L-2026-17")
    page.focus("#id_password")
    page.keyboard.type(PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "approved" in page.inner_text(".messages")


def test_the_live_check_takes_at_most_a_fifth_of_a_tablet(site, tablet_page, locked):
    page = tablet_page
    login(page, site, locked.compliance.username, PASSWORD)
    page.goto(site + "/manage/rules/new/")
    page.fill("#id_odds_straight", "34 to 1")
    page.locator("#live").get_by_text("Straight:").wait_for()
    page.fill("#id_odds_split", "16 to 1")
    page.locator("#live").get_by_text("Split:").wait_for()
    live = page.locator("aside.live").bounding_box()
    assert live["height"] <= 0.2 * 1024 + 1
    assert live["y"] + live["height"] <= 1024  # in view at the bottom while one types
    screenshot(page, "rules-editor-live-tablet", full_page=False)  # what the screen shows while one types


def test_tables_are_cards_on_a_phone_and_rows_on_a_tablet_and_a_desktop(site, browser, locked):
    """An upright tablet has room for the logbook's rows: as cards its page was some 7,000 px tall."""
    event(locked, "unlock")
    for width, display in (("phone", "grid"), ("tablet", "table-cell"), ("desktop", "table-cell")):
        context = browser.new_context(viewport=WIDTHS[width])
        page = context.new_page()
        login(page, site, locked.security.username, PASSWORD)
        page.goto(f"{site}/tables/{locked.table.pk}/")
        when = page.locator("table.timeline tbody td").nth(1)
        assert when.get_attribute("data-label") == "When (America/New_York)"
        assert when.evaluate("td => getComputedStyle(td).display") == display
        context.close()


def test_after_a_wrong_password_the_cursor_is_in_the_password_field(site, phone, locked):
    """The sign-in page keeps the name and says how many tries are left; the retry is typed at once,
    with no tap to leave the name's field."""
    page = phone
    login(page, site, locked.security.username, "not-the-password")
    assert "more wrong password" in page.inner_text("main")
    assert page.input_value("#id_username") == locked.security.username
    assert page.evaluate(FOCUSED) == "id_password"
    page.keyboard.type(PASSWORD)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/floor/")
