"""Issue 33, item 3: a genuine register whose one row is taller than a page is VERIFIED offline page
by page, and a word edited in the part of that row the next pages carry is still caught.

An adjustment's description and its two amendments may each be 2,000 characters (the note fields'
limit): the register's description cell then runs over several pages. WeasyPrint prints those pages
without the register's heading, and the row's cells interleave in the pages' text (its signatures, on
its first page, in the middle of the description). The verifier skipped such pages as if they were the
cover ("entries … are on no page") and looked for the description whole."""

import json
import re
import sys
from pathlib import Path

import pytest

from inspections.logbook import services
from tests.inspections.test_signed_reports import attachments, generated, keys_pem, offline
from tests.support.logbook import adjust, event, inspect
from tests.support.people import sign

# A whole register rendered, signed and read back page by page (15 s): make test and CI run it.
pytestmark = pytest.mark.slow

WORDS = "The ball track was lifted, cleaned, levelled and bolted down again with new screws"


def long_text(opening: str, length: int = 2000) -> str:
    """`length` characters of words, each sentence numbered by where it starts (so that no two
    stretches of the text read alike)."""
    text = opening
    while len(text) < length:
        text += f" {WORDS} ({len(text)})."
    return text[:length].rstrip()


def steps(length: int = 2000) -> str:
    """A description of `length` characters on short lines, each numbered: taller than a page."""
    lines, number = [], 1
    while len("\n".join(lines)) < length:
        lines.append(f"Step {number}: screw checked.")
        number += 1
    return "\n".join(lines)[:length].rstrip()


def test_a_register_with_a_row_taller_than_a_page_is_verified_and_an_edit_in_its_rest_caught(
    committed_db, media, casino, signing_keys, tmp_path, monkeypatch
):
    from logbook_proof import verify

    event(casino, "cover")
    event(casino, "unlock")
    adjusted = adjust(casino, description=steps())
    for number in (1, 2):
        services.amendment_record(
            entry_id=adjusted.pk,
            reason=long_text(f"Reason {number}:"),
            correction={"description": long_text(f"Corrected {number}:")},
            signature=sign(casino.maintenance),
            recorded_by=casino.maintenance,
        )
    inspect(casino)
    event(casino, "open")
    report = generated(casino)
    assert report.status == "done", report.error
    path = Path(report.file.path)

    result = offline(path, "--key", str(keys_pem(tmp_path, signing_keys.ring)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "VERIFIED: the report is as the logbook signed it" in result.stdout

    # The register does print the adjustment over pages that carry no heading, its signatures on its
    # first page before the rest of its description.
    data = path.read_bytes()
    texts = verify.page_texts(data)
    seq = adjusted.seq
    # The row's first cell ("#3 · R-01"), not the footer's "Report #3 · generated…": the report's own
    # number may equal the entry's (it does when two earlier tests made a report).
    first = next(n for n, text in enumerate(texts) if f"#{seq} · R-01" in text)
    rest = texts[first + 1]
    assert verify.ROW_FIRST_CELL not in rest and not verify.ROW_START.search(verify.squeezed(rest))
    squeezed_first = verify.squeezed(texts[first])
    assert squeezed_first.index("performed,") < len(squeezed_first) - len("Page1of1")
    description = adjusted.description
    # The amendments are as tall: the piece of the register they start holds only its heading on its
    # first page, and the first amendment from the top of the next.
    alone = [n for n, text in enumerate(texts) if verify.ROW_FIRST_CELL in text and not re.search(r"#\d+ · R-01", text)]
    assert alone and texts[alone[0] + 1].startswith(f"#{seq + 1} · ")
    assert verify.squeezed(description) not in squeezed_first

    # A word of the description edited on that next page is caught, on the row's page.
    numbers = [n for n in re.findall(r"Step \d+:", description) if n in rest and n not in texts[first]]
    assert numbers, "the description does not go on at the next page any more: the test shows nothing"
    word = numbers[len(numbers) // 2]
    assert rest.count(word) == 1 and sum(text.count(word) for text in texts) == 1
    edited = list(texts)
    edited[first + 1] = rest.replace(word, word.replace("Step", "Stop"))
    segment = json.loads(attachments(path)["chain-segment.json"])
    entries = verify.check_segment(segment, verify.Verdict())

    read_pages = verify.page_texts

    def checked(pages):
        monkeypatch.setattr(verify, "page_texts", lambda _: pages)
        verdict = verify.Verdict()
        verify.check_pages(data, segment, entries, verdict)
        return verdict

    assert not checked(texts).failed
    verdict = checked(edited)
    assert verdict.failed
    assert any(f"page {first + 1}, row #{seq}: it does not print" in line for line in verdict.lines), verdict.lines

    # Read by pypdf (where PDFium is not installed), the same pages verify too.
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    assert not checked(read_pages(data)).failed
