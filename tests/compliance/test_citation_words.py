"""Citations and messages are read by people (a compliance manager, a floor employee): they never name
a setting or an internal constant (`REPORT_MAX_DAYS`); a number the product chose is stated as the
number. Every citation of the rulebook and every message its violations are built with is scanned."""

from __future__ import annotations

import ast
import pathlib
import re
from datetime import date

from compliance import rulebook
from compliance.rulebook import reports

RULEBOOK = pathlib.Path(rulebook.__file__).parent
# An upper-case name of six letters or more, or with an underscore: how settings and constants look.
SETTING_NAME = re.compile(r"\b(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z_]{6,})\b")


def _texts_people_read(tree: ast.Module):
    """The module's string constants (citations are named at the top of a module) and every literal
    part of a Violation built in it (its message, citation, in f-strings too)."""
    # The name of an attribute looked up (getattr(module, "CASINO_WAR_PAYOUTS")) is code, not text.
    looked_up = {
        id(arg)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr"
        for arg in node.args
    }
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            for part in ast.walk(node.value):
                if isinstance(part, ast.Constant) and isinstance(part.value, str) and id(part) not in looked_up:
                    yield part.lineno, part.value
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Violation":
            for part in ast.walk(node):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    yield part.lineno, part.value
        if isinstance(node, ast.FunctionDef) and node.name.endswith("_policy"):
            for part in ast.walk(node):
                if isinstance(part, ast.Constant) and isinstance(part.value, str) and part is not node.body[0]:
                    yield part.lineno, part.value


MODULES = sorted(RULEBOOK.rglob("*.py"))


def test_no_citation_or_message_of_the_rulebook_names_a_setting():
    """People read these; a setting's name in one is listed with its module and line: say the rule in words."""
    named = [
        f"{path.relative_to(RULEBOOK)}:{line}: {text}"
        for path in MODULES
        for line, text in _texts_people_read(ast.parse(path.read_text()))
        if SETTING_NAME.search(text)
    ]
    assert named == []


def test_the_scan_sees_the_citations():
    """The scan is not empty: it reads the citations of § 617a.2 and the report limits' policies."""
    texts = {
        text for _, text in _texts_people_read(ast.parse((RULEBOOK / "jurisdictions" / "pennsylvania.py").read_text()))
    }
    assert "58 Pa. Code § 617a.2(e)" in texts
    texts = {text for _, text in _texts_people_read(ast.parse((RULEBOOK / "reports.py").read_text()))}
    assert any(text.startswith("Product policy") for text in texts)


def test_the_report_limits_state_their_numbers_in_words():
    """What the limits produce, with the settings' values in place: the numbers, never their names."""
    period = reports.report_period_within(period_from=date(2025, 1, 1), period_to=date(2026, 6, 30), max_days=366)
    mine = reports.report_pending_within(mine=3, max_mine=3, of_property=0, max_of_property=10, property_name="Casino")
    ours = reports.report_pending_within(mine=0, max_mine=3, of_property=10, max_of_property=10, property_name="Casino")
    assert period.citation == "Product policy: one report covers at most 366 days"
    assert (
        mine.citation
        == ours.citation
        == "Product policy: at most 3 reports waiting at once per person, 10 per property"
    )
    for violation in (period, mine, ours):
        assert not SETTING_NAME.search(violation.citation + violation.message), violation
