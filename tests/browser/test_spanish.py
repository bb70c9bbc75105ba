"""The floor on a phone in the security officer's own language, Spanish or English: the person's
preference, not the browser's (which asks for the other language here), on the floor, the table, a
refusal (its citation as the rule writes it) and the inspection; and the phone
screenshots of both (docs/screenshots.md), side by side."""

from __future__ import annotations

import pytest

from compliance.casinos.models import GamingTable, TableState
from tests.browser.conftest import TIMEOUT_MS, login, screenshot
from tests.browser.test_every_page import WIDTHS
from tests.browser.test_touch import sign_by_typing
from tests.factories import PASSWORD
from tests.test_i18n import set_language

# What each language calls the floor, the first step of a locked table and "all items pass"; the
# browser's language, the other one.
WORDS = {
    "es": {"floor": "Sala", "unlock": "Desbloquear", "all_pass": "Todo conforme", "browser": "en-US"},
    "en": {"floor": "Floor", "unlock": "Unlock", "all_pass": "All items pass", "browser": "es-ES"},
}


@pytest.mark.parametrize("language", WORDS)
def test_an_officer_in_their_language_unlocks_is_refused_then_inspects_on_a_phone(site, browser, locked, language):
    words = WORDS[language]
    set_language(locked.security, language)
    context = browser.new_context(viewport=WIDTHS["phone"], has_touch=True, locale=words["browser"])
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    table = locked.table.pk
    try:
        login(page, site, locked.security.username, PASSWORD)
        assert page.evaluate("() => document.documentElement.lang") == language
        assert page.get_by_role("heading", name=words["floor"]).is_visible()
        screenshot(page, f"floor-{language}-phone")

        page.locator(f"a.tile[href='/tables/{table}/']").tap()
        next_step = page.locator(".actions .button").first
        assert next_step.inner_text() == words["unlock"]
        screenshot(page, f"table-{language}-phone")
        next_step.tap()
        sign_by_typing(page)

        # Opening before the inspection: refused before any password is typed, the citation unchanged.
        page.goto(f"{site}/tables/{table}/open/")
        assert page.locator("#id_password").count() == 0
        alert = page.inner_text("[role=alert]")
        assert "58 Pa. Code § 617a.2(a)" in alert
        assert ("no passing inspection" in alert) == (language == "en")
        screenshot(page, f"refused-{language}-phone")

        page.goto(f"{site}/tables/{table}/inspect/")
        page.get_by_role("button", name=words["all_pass"]).tap()
        screenshot(page, f"inspection-{language}-phone")
        sign_by_typing(page)
        assert GamingTable.objects.get(pk=table).state == TableState.INSPECTED
    finally:
        context.close()
