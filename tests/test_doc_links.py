"""Every link between the project's pages resolves (issue 34, item 6): the README is short and sends
its reader to docs/, so a page moved, renamed or a heading reworded must not leave a link that goes
nowhere. A relative link names a file of the repository; its `#anchor`, a heading of that page, made
an anchor as GitHub makes one."""

from __future__ import annotations

import re

import pytest

from tests.servers import ROOT

PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *ROOT.glob("docs/*.md")])
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", flags=re.S | re.M)
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", flags=re.M)


def anchors(text: str) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces made hyphens."""
    text = FENCE.sub("", text)
    found = set()
    for heading in HEADING.findall(text):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_of_the_page_resolves(page):
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in LINK.findall(FENCE.sub("", text)):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:: not this repository's
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(target)
            continue
        if anchor and linked.suffix == ".md" and anchor not in anchors(linked.read_text(encoding="utf-8")):
            broken.append(target)
    assert broken == []
