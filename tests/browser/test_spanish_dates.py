"""A date field's default survives the browser in Spanish (issue 30, item 3): Chromium drops an
`<input type="date">` value that is not ISO, so the reports' default period and the Rules
Submission's effective date were blank and refused as required. Here the browser itself reads the
inputs' values, on a compliance manager's Spanish pages, and the report is asked for with them."""

from __future__ import annotations

import re

from tests.browser.conftest import login
from tests.factories import PASSWORD
from tests.test_i18n import set_language

ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def test_the_date_defaults_are_kept_by_the_browser_in_spanish(site, page, locked):
    manager = locked.compliance
    set_language(manager, "es")
    login(page, site, manager.username, PASSWORD)

    page.goto(f"{site}/manage/rules/new/")
    assert ISO.fullmatch(page.input_value("#id_effective_from")), page.input_value("#id_effective_from")

    page.goto(f"{site}/reports/")
    for name in ("#id_period_from", "#id_period_to"):
        assert ISO.fullmatch(page.input_value(name)), (name, page.input_value(name))
    # The browser's own check of a required date passes with the defaults as they stand.
    assert page.evaluate("() => document.querySelector('#id_period_from').validity.valid")
    assert page.evaluate("() => document.querySelector('#id_period_to').validity.valid")
