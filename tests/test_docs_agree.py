"""The readings, written down (issue 31, item 5): docs/readings.md states each reading the product
applies, naming the rules that apply it; docs/api.md says what the product answers (item (5)'s
citation, the amendments' citation, the deck counts); and no page or module claims of Chapters 619a
and 651a more than the texts held say."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings

from compliance.rulebook import pa, rulebook_for
from compliance.rulebook.catalogue import CATALOGUE, code_of
from compliance.rulebook.configurations import STANDARD
from compliance.rulebook.jurisdictions import pennsylvania as facts

BASE = Path(settings.BASE_DIR)
READINGS = (BASE / "docs" / "readings.md").read_text()
API = (BASE / "docs" / "api.md").read_text()
CODES = {code_of(key) for key in CATALOGUE}


def section(text: str, heading: str) -> str:
    """The text under the first heading containing `heading`, up to the next heading of any level."""
    match = re.search(rf"^#+ [^\n]*{re.escape(heading)}[^\n]*\n(.*?)(?=^#+ |\Z)", text, re.S | re.M)
    assert match, f"no heading with {heading!r}"
    return match.group(1)


# ---- docs/readings.md: each reading applied, stated, with the rules that apply it ----


@pytest.mark.parametrize(
    ("heading", "named"),
    [
        ("How amendments meet § 617a.2", ["inspection_amended_away", facts.AMENDMENT_POLICY, "time_in_future"]),
        (
            "certification on adjustment and replacement rows",
            ["inspection_certified", "replacement_without_inspection"],
        ),
        ("any alternation", ["wheel_colours_alternate", "RED_NUMBERS"]),
        ("19:47-5.1(e)7", ["wager_wheel_type", "single-zero roulette\n  wheel"]),
        ('"movable parts"', ["no_external_movable_parts"]),
        ("seven adjacent boxes", ["adjacent_boxes_required", "casino_war_decks", "§ 651a.11(e)"]),
        ("has none", ["game_not_in_jurisdiction", "Product policy"]),
        ("registers leave out", ["§ 619a.1(a)", "§ 651a.3(a)", "(c)(2)", "§ 617a.1(c), (d)"]),
        ("Why a proposed rulemaking is applied", ["(proposed, 41 Pa.B. 3000)", "[Next page is 619a-1.]"]),
    ],
)
def test_readings_state_each_reading_the_product_applies(heading, named):
    text = section(READINGS, heading)
    for name in named:
        assert name in text, (heading, name)
    # Every refusal a reading names is one the rulebook answers.
    for code in re.findall(r"`([a-z][a-z0-9_]+)`", text):
        if code.endswith(("_required", "_alternate", "_not_in_jurisdiction", "_amended_away", "_without_inspection")):
            assert code in CODES, code


def test_no_page_or_module_says_more_of_chapters_619a_and_651a_than_the_texts_held():
    """The texts held give the 2011 proposal; they do not say it was never adopted, nor that it is all there is."""
    places = [*BASE.glob("docs/*.md"), BASE / "README.md", *BASE.glob("compliance/**/*.py")]
    claims = re.compile(r"never adopted|exists? only (in|as) the 2011", re.I)
    assert [str(p.relative_to(BASE)) for p in places if claims.search(p.read_text())] == []


# ---- docs/api.md says what the product answers ----


def test_api_md_cites_item_5_not_applicable_as_the_product_does():
    citation = CATALOGUE["checklist_item_not_applicable"].citation
    assert citation == "58 Pa. Code § 617a.2(a)(5)"
    assert f"`checklist_item_not_applicable` {citation.removeprefix('58 Pa. Code ')}" in API


def test_api_md_cites_the_amendments_as_the_product_does():
    text = section(API, "Amendments")
    refusal = pa.check_correction(
        kind="inspection",
        allowed=frozenset({"notes"}),
        correction={},
        now=None,
        skew=None,
        recorded_at=None,
        max_backdate=None,
    )
    assert [(v.code, v.citation) for v in refusal] == [("correction_empty", facts.AMENDMENT_POLICY)]
    assert f'Every rule of this resource cites "{facts.AMENDMENT_POLICY}"' in text
    assert (
        "amendment | same senders | one of the people who signed the entry, or a compliance manager of the "
        "property (product policy, derived from § 617a.2(e))" in API
    )


def test_api_md_gives_the_deck_counts_the_product_takes():
    def allowed(*, shuffler: bool) -> set[int]:
        submission = SimpleNamespace(
            wheel_types=[], payout_odds={}, options={"automated_shuffler": shuffler}, configurations=None
        )
        table = SimpleNamespace(number="W-01", configuration=STANDARD)
        rules = rulebook_for("PA")
        return {
            d
            for d in range(1, 17)
            if rules.deck_change_allowed(table=table, decks=d, rules_submission=submission) is None
        }

    assert allowed(shuffler=False) == {6, 8}
    assert allowed(shuffler=True) == {6, 8, 12, 14, 16}
    row = next(line for line in API.splitlines() if line.startswith("| `decks` | integer 1–16 |"))
    assert "six or eight from the manual dealing shoe, at any Casino War table" in row
    assert "12, 14 or 16, in two equal batches, only where the table's configuration" in row
    assert "more than eight means" not in row
