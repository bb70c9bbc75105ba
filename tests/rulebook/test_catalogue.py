"""The catalogue of violations: every entry the rulebook names exists, cites a paragraph or a
stated policy (or, where the rule gives it, is given one), and receives every value its template
asks for."""

from __future__ import annotations

import ast
import dataclasses
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


# ---- Every citation the rulebook holds: proposed chapters said so, policy never dressed as law ----

PROPOSED = "(proposed, 41 Pa.B. 3000)"


def _strings(value, seen):
    """Every string reachable from a fact: constants, tables, wagers, checklist items, flag kinds."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key, seen)
            yield from _strings(item, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _strings(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _strings(getattr(value, field.name), seen)


def _citations():
    """Every citation-like string of the catalogue, the facts modules and the assembled rulebooks."""
    from compliance.rulebook import GAME_RULES, LOGBOOK_PROCEDURE
    from compliance.rulebook.jurisdictions import new_jersey, pennsylvania, section_4

    seen: set[int] = set()
    sources = [vars(pennsylvania), vars(new_jersey), vars(section_4), CATALOGUE]
    sources += [
        {name: getattr(rules, name) for name in dir(rules) if name.isupper()}
        for rules in [*LOGBOOK_PROCEDURE.values(), *GAME_RULES.values()]
    ]
    found = set()
    # Kept alive while scanning: `seen` holds ids, which a freed object would hand on.
    facts = [
        {k: v for k, v in source.items() if not str(k).startswith("_") and (not callable(v) or isinstance(v, dict))}
        for source in sources
    ]
    for source in facts:
        for value in _strings(source, seen):
            if value.startswith(("58 Pa. Code", "N.J.A.C.", "Section 4(", "Product policy")) or "policy" in value:
                found.add(value)
    return sorted(found)


CITATIONS = _citations()


def test_the_citation_scan_sees_every_kind():
    assert any(PROPOSED in c for c in CITATIONS) and any("applied by policy" in c for c in CITATIONS)
    assert any(c.startswith("Product policy") for c in CITATIONS) and len(CITATIONS) > 80


@pytest.mark.parametrize("citation", CITATIONS)
def test_chapters_619a_and_651a_are_cited_as_proposed(citation):
    """The text held of them is the 2011 proposed rulemaking (41 Pa.B. 3000): one form, everywhere (a policy
    derived from one names it in that form too)."""
    if citation.startswith("Product policy") and re.search(r"§ 6(19|51)a", citation):
        assert re.search(r"§ 6(19|51)a\.[0-9]+(\([a-z0-9]+\))* \(proposed, 41 Pa\.B\. 3000\)", citation), citation
    # Each paragraph of a citation that names several ("…; 58 Pa. Code § 601a.2", a flag's) on its own.
    for part in citation.split("; ") if not citation.startswith("Product policy") else ():
        if re.search(r"§ 6(19|51)a", part):
            assert re.fullmatch(
                r"58 Pa\. Code § 6(19|51)a\.[0-9]+(\([a-z0-9]+\))* \(proposed, 41 Pa\.B\. 3000\)", part
            ) or (f"{PROPOSED} (applied by policy: " in part), citation


@pytest.mark.parametrize("citation", CITATIONS)
def test_product_policy_never_pretends_to_be_a_paragraph(citation):
    """Policy begins "Product policy"; a borrowed paragraph begins with the paragraph it borrows (the
    text's own paragraphs may follow it: the not-approved flag's, issue 31, item 1)."""
    if "Product policy" in citation:
        assert citation.startswith("Product policy"), citation
    if "applied by policy" in citation:
        assert re.fullmatch(
            r"58 Pa\. Code § .+ \(applied by policy: (N\.J\.A\.C\. 19:47-5|Section 4) [a-zA-Z ]+\)"
            r"(; (N\.J\.A\.C\. 19:47-|Section 4\()[^;]+)?",
            citation,
        ), citation


def test_the_catalogue_cites_none_of_the_policies_as_paragraphs():
    from compliance.rulebook.jurisdictions import pennsylvania as pa

    assert CATALOGUE["table_not_open"].citation == pa.TABLE_STATES_POLICY
    assert CATALOGUE["table_not_open"].citation.startswith("Product policy")
    assert all(citation.startswith("Product policy") for _, citation in pa.EVENT_ROLES.values())
