"""Issue 33, item 3: the register of `make run`'s demo, untouched, is VERIFIED offline page by page.

Its maintenance rows carry two signatures (performed, witnessed) whose cell wraps, at times right
after a hyphen of a credential number ("PGCB-" / "SEC-20417"): PDFium reads such a hyphen as U+FFFE,
and the verifier answered NOT VERIFIED for the genuine file."""

import json
import re
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

from compliance.accounts.models import User
from compliance.casinos.clock import local_date
from compliance.casinos.models import Property
from inspections.logbook import demo
from inspections.logbook.models import Entry
from inspections.reports import render
from inspections.reports.models import Report
from tests.inspections.test_signed_reports import attachments, keys_pem, offline

# A whole register rendered, signed and read back page by page (15 s): make test and CI run it.
pytestmark = pytest.mark.slow


def test_the_demos_untouched_register_is_verified_and_an_edited_signature_still_caught(
    committed_db, media, signing_keys, tmp_path, monkeypatch
):
    from logbook_proof import verify

    with override_settings(PASSWORD_HASHERS=["tests.inspections.test_seed_demo.QuickPBKDF2"]):
        call_command("seed_demo", stdout=StringIO())
    venue = Property.objects.get(licence_number=demo.PROPERTY_LICENCE)
    entries = Entry.objects.filter(property=venue).order_by("occurred_at")
    report = Report.objects.create(
        property=venue,
        kind="inspection_register",
        period_from=local_date(entries.first().occurred_at, venue.zone),
        period_to=local_date(entries.last().occurred_at, venue.zone),
        requested_by=User.objects.get(username="compliance"),
    )
    report = render.generate_locally(report.pk, processes=1)
    assert report.status == "done", report.error
    path = Path(report.file.path)
    result = offline(path, "--key", str(keys_pem(tmp_path, signing_keys.ring)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "VERIFIED: the report is as the logbook signed it" in result.stdout

    # The demo does print a two-signature row broken after a credential number's hyphen.
    data = path.read_bytes()
    texts = verify.page_texts(data)
    segment = json.loads(attachments(path)["chain-segment.json"])
    entries_of = {entry["seq"]: entry for entry in segment["entries"]}
    witnessed = [
        seq
        for seq, entry in entries_of.items()
        if [s["meaning"] for s in entry["record"]["signatures"]] == ["performed", "witnessed"]
    ]
    assert witnessed
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    raw = [document[index].get_textpage().get_text_range() for index in range(len(document))]
    document.close()
    broken = [text for text in raw if f"PGCB{verify.LINE_END_HYPHEN}" in text]
    assert broken, "no credential number is broken at a line's end any more: the test shows nothing"
    # PDFium and pypdf read the pages alike.
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    assert [verify.squeezed(t) for t in verify.page_texts(data)][1:] == [verify.squeezed(t) for t in texts][1:]
    monkeypatch.undo()

    # A witness's name edited on the page of a two-signature row is still caught.
    seq = witnessed[-1]
    name = entries_of[seq]["record"]["signatures"][1]["signer_name"]
    # The row's first cell, not the footer's "Report #n · generated…" (a report's number may equal it).
    at = next(n for n, text in enumerate(texts) if re.search(rf"(?<!Report )#{seq} · ", text))
    edited = list(texts)
    edited[at] = edited[at].replace(name, name[:-1] + "x")
    assert edited != texts
    monkeypatch.setattr(verify, "page_texts", lambda _: edited)
    verdict = verify.Verdict()
    verify.check_pages(data, segment, verify.check_segment(segment, verify.Verdict()), verdict)
    assert verdict.failed
    assert any(f"page {at + 1}, row #{seq}: it does not print" in line for line in verdict.lines)
