"""The catalogue of violations: every entry the rulebook names exists, cites a paragraph or a
stated policy (or, where the rule gives it, is given one), and receives every value its template
asks for."""

from __future__ import annotations

import ast
import pathlib
import re
import string

import pytest

from compliance import rulebook
from compliance.rulebook import MALFORMED
from compliance.rulebook.catalogue import CATALOGUE, GIVEN, code_of

RULEBOOK = pathlib.Path(rulebook.__file__).parent
# A paragraph of one of the texts this product holds, or a product policy stated as such.
CITATION = re.compile(r"^(58 Pa\. Code § |N\.J\.A\.C\. 19:47-|Section 4\(|Product policy)")


def _calls():
    """Every violation("key", …) call of the rulebook: (where, key, keyword names)."""
    for path in sorted(RULEBOOK.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "violation":
                where = f"{path.relative_to(RULEBOOK)}:{node.lineno}"
                key = node.args[0]
                assert isinstance(key, ast.Constant | ast.Subscript), where
                keys = [key.value] if isinstance(key, ast.Constant) else _dynamic_keys(key, where)
                names = {keyword.arg for keyword in node.keywords}
                assert None not in names, f"{where}: pass each value by name, not **values"
                for one in keys:
                    yield where, one, names


def _dynamic_keys(node: ast.Subscript, where: str) -> list[str]:
    """violation(VOID_REASONS[reason], …): the keys are that table's values."""
    table = getattr(rulebook.procedure, node.value.id)
    return list(table.values())


CALLS = list(_calls())


def test_the_scan_sees_the_calls():
    assert len(CALLS) > 100


@pytest.mark.parametrize(("where", "key", "names"), CALLS, ids=[f"{c[0]}:{c[1]}" for c in CALLS])
def test_every_call_names_an_entry_and_supplies_its_values(where, key, names):
    assert key in CATALOGUE, f"{where}: {key} is not in the catalogue"
    entry = CATALOGUE[key]
    wanted = {field for _, field, _, _ in string.Formatter().parse(entry.template) if field}
    assert wanted <= names, f"{where}: {key} needs {sorted(wanted - names)}"
    assert not (names - wanted - {"field", "citation"}), f"{where}: {key} is given {sorted(names - wanted)}"
    assert "field" in names, where
    assert ("citation" in names) == (entry.citation == GIVEN), f"{where}: {key}'s citation"


def test_every_entry_is_used():
    used = {key for _, key, _ in CALLS}
    assert set(CATALOGUE) - used == set()


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_entry_cites_a_paragraph_or_a_policy(key):
    citation = CATALOGUE[key].citation
    if citation is None:
        assert code_of(key) in MALFORMED, f"{key}: only the request's own form goes uncited"
    elif citation != GIVEN:
        assert CITATION.match(citation), f"{key}: {citation}"
