"""The catalogue of violations: every entry the rulebook names exists, cites a paragraph or a
stated policy (or, where the rule gives it, is given one), and receives every value its template
asks for."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import re
import string

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


def _call_wrong(where: str, key: str, names: set) -> str | None:
    """What is wrong with one violation(…) call, or None."""
    if key not in CATALOGUE:
        return f"{where}: {key} is not in the catalogue"
    entry = CATALOGUE[key]
    wanted = {field for _, field, _, _ in string.Formatter().parse(entry.template) if field}
    if not wanted <= names:
        return f"{where}: {key} needs {sorted(wanted - names)}"
    if names - wanted - {"field", "citation"}:
        return f"{where}: {key} is given {sorted(names - wanted)}"
    if "field" not in names:
        return f"{where}: {key} names no field"
    if ("citation" in names) != (entry.citation == GIVEN):
        return f"{where}: {key}'s citation"
    return None


def test_every_call_names_an_entry_and_supplies_its_values():
    """Every call at once: each one that is wrong is listed, where it is and what it lacks."""
    wrong = [problem for call in CALLS if (problem := _call_wrong(*call))]
    assert wrong == []


def test_every_entry_is_used():
    used = {key for _, key, _ in CALLS}
    assert set(CATALOGUE) - used == set()


def test_every_entry_cites_a_paragraph_or_a_policy():
    wrong = []
    for key, entry in sorted(CATALOGUE.items()):
        if entry.citation is None:
            if code_of(key) not in MALFORMED:
                wrong.append(f"{key}: only the request's own form goes uncited")
        elif entry.citation != GIVEN and not CITATION.match(entry.citation):
            wrong.append(f"{key}: {entry.citation}")
    assert wrong == []


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


def _not_cited_as_proposed(citation: str) -> bool:
    if citation.startswith("Product policy") and re.search(r"§ 6(19|51)a", citation):
        return not re.search(r"§ 6(19|51)a\.[0-9]+(\([a-z0-9]+\))* \(proposed, 41 Pa\.B\. 3000\)", citation)
    # Each paragraph of a citation that names several ("…; 58 Pa. Code § 601a.2", a flag's) on its own.
    for part in citation.split("; ") if not citation.startswith("Product policy") else ():
        if re.search(r"§ 6(19|51)a", part) and not (
            re.fullmatch(r"58 Pa\. Code § 6(19|51)a\.[0-9]+(\([a-z0-9]+\))* \(proposed, 41 Pa\.B\. 3000\)", part)
            or f"{PROPOSED} (applied by policy: " in part
        ):
            return True
    return False


def test_chapters_619a_and_651a_are_cited_as_proposed():
    """The text held of them is the 2011 proposed rulemaking (41 Pa.B. 3000): one form, everywhere (a policy
    derived from one names it in that form too). Every citation that is not is listed."""
    assert [citation for citation in CITATIONS if _not_cited_as_proposed(citation)] == []


def _policy_dressed_as_law(citation: str) -> bool:
    if "Product policy" in citation and not citation.startswith("Product policy"):
        return True
    return "applied by policy" in citation and not re.fullmatch(
        r"58 Pa\. Code § .+ \(applied by policy: (N\.J\.A\.C\. 19:47-5|Section 4) [a-zA-Z ]+\)"
        r"(; (N\.J\.A\.C\. 19:47-|Section 4\()[^;]+)?",
        citation,
    )


def test_product_policy_never_pretends_to_be_a_paragraph():
    """Policy begins "Product policy"; a borrowed paragraph begins with the paragraph it borrows (the
    text's own paragraphs may follow it: the not-approved flag's, issue 31, item 1). Every citation
    that does not is listed."""
    assert [citation for citation in CITATIONS if _policy_dressed_as_law(citation)] == []


def test_the_catalogue_cites_none_of_the_policies_as_paragraphs():
    from compliance.rulebook.jurisdictions import pennsylvania as pa

    assert CATALOGUE["table_not_open"].citation == pa.TABLE_STATES_POLICY
    assert CATALOGUE["table_not_open"].citation.startswith("Product policy")
    assert all(citation.startswith("Product policy") for _, citation in pa.EVENT_ROLES.values())
