"""Signed reports and the regulator's offline check: every PDF report signed (PAdES) and still
PDF/A-3b, carrying its chain segment and checkpoints; scripts/verify_report.py refuses every tamper
with its reason, and a rewritten history gets no report at all."""

import hashlib
import json
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ed25519
from django.core.management import call_command
from pypdf import PdfReader

from compliance.accounts.signatures import canonical
from config import keyring
from inspections.logbook import chain, checkpoints, services
from inspections.logbook.models import Entry
from inspections.reports import render
from inspections.reports.models import Report
from tests.inspections.test_checkpoints import red_team_rewrite, sql
from tests.support.logbook import event
from tests.support.reports import pdf_pages, requested

ROOT = Path(__file__).resolve().parent.parent.parent
VERIFIER = ROOT / "scripts" / "verify_report.py"


def keys_pem(tmp_path: Path, ring: Path) -> Path:
    """The published keys, as a regulator saves them from GET /api/checkpoint-keys/."""
    path = tmp_path / "checkpoint-keys.pem"
    path.write_text("".join(key.public_pem for key in keyring.keyring_load(ring)))
    return path


def offline(pdf: Path, *args: str, trust: bool = True) -> subprocess.CompletedProcess:
    """The verifier as a regulator runs it: its own process, no Django settings, no database. Unless
    the test names its own trust root (or none), it gives the compliance CA the application publishes."""
    from django.conf import settings

    environment = {"PATH": "/usr/bin:/bin"}
    if trust and "--ca" not in args and "--cert" not in args:
        args = (*args, "--ca", settings.LOGBOOK_REPORT_CA_CERT)
    return subprocess.run(
        [sys.executable, str(VERIFIER), str(pdf), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=environment,
        cwd="/",
    )


def another_entry(casino) -> None:
    """One more entry at the table the report's history left covered and locked (or unlocked)."""
    casino.table.refresh_from_db()
    event(casino, "unlock" if casino.table.state == "locked" else "cover")


def generated(casino, **kwargs) -> Report:
    return render.generate_locally(requested(casino, **kwargs).pk, processes=1)


def attachments(path) -> dict[str, bytes]:
    return {name: contents[0] for name, contents in PdfReader(path).attachments.items()}


def forge(tmp_path: Path, original: Path, *, csv: bytes | None = None, segment: dict | None = None) -> Path:
    """A report rebuilt by someone without the casino's keys: the same kind of PDF/A-3b with the
    attachments they chose, signed with a certificate of their own."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers
    from weasyprint import HTML, Attachment

    found = attachments(original)
    csv_name = next(name for name in found if name.endswith(".csv"))
    (tmp_path / csv_name).write_bytes(csv if csv is not None else found[csv_name])
    (tmp_path / "chain-segment.json").write_bytes(
        json.dumps(segment).encode() if segment is not None else found["chain-segment.json"]
    )
    unsigned = tmp_path / "forged-unsigned.pdf"
    HTML(string="<h1>Inspection log register</h1>").write_pdf(
        unsigned,
        pdf_variant="pdf/a-3b",
        attachments=[
            Attachment(filename=str(tmp_path / csv_name), name=csv_name, relationship="Data"),
            Attachment(
                filename=str(tmp_path / "chain-segment.json"), name="chain-segment.json", relationship="Supplement"
            ),
        ],
    )
    key, cert = tmp_path / "forger.key", tmp_path / "forger.pem"
    if not key.exists():
        keyring.report_certificate_make(key, cert, common_name="Forger", now=datetime.now(UTC))
    forged = tmp_path / "forged.pdf"
    with unsigned.open("rb") as handle, forged.open("wb") as out:
        signers.sign_pdf(
            IncrementalPdfFileWriter(handle),
            signers.PdfSignatureMetadata(field_name="Signature"),
            signer=signers.SimpleSigner.load(str(key), str(cert)),
            output=out,
        )
    return forged


def segment_of(path) -> dict:
    return json.loads(attachments(path)["chain-segment.json"])


# ---- The signed PDF ----


@pytest.mark.any_hour
def test_every_pdf_report_is_signed_by_the_applications_certificate_and_stays_pdfa(
    committed_db, media, history, signing_keys
):
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.sign.validation.status import SignatureCoverageLevel
    from pyhanko_certvalidator import ValidationContext

    for kind in ("inspection_register", "exceptions", "approvals_in_effect"):
        report = generated(history, kind=kind)
        assert report.status == "done", report.error
        assert report.signed_by.endswith("Common Name: Logbook tests")
        with open(report.file.path, "rb") as handle:
            reader = PdfFileReader(handle)
            (signature,) = reader.embedded_signatures
            status = validate_pdf_signature(signature, ValidationContext(trust_roots=[signature.signer_cert]))
            assert status.intact and status.valid and status.coverage == SignatureCoverageLevel.ENTIRE_FILE
            assert status.signing_cert.subject.human_friendly == report.signed_by
        # Still PDF/A-3b: the signature is an incremental update that keeps WeasyPrint's file whole.
        metadata = PdfReader(report.file.path).trailer["/Root"]["/Metadata"].get_object().get_data()
        assert b'pdfaid:part="3" pdfaid:conformance="B"' in metadata and b"pyHanko" not in metadata
        assert {f"{kind}.csv", "chain-segment.json"} <= set(attachments(report.file.path))


def test_the_report_carries_its_chain_segment_ending_on_its_own_signed_checkpoint(committed_db, media, history):
    another_entry(history)
    services.checkpoint_sign(property_id=history.property.pk)  # an earlier checkpoint, inside the period
    another_entry(history)
    report = generated(history)
    segment = segment_of(report.file.path)
    entries = segment["entries"]
    assert [entry["seq"] for entry in entries] == list(range(1, Entry.objects.count() + 1))
    assert report.checkpoint.entry_seq == entries[-1]["seq"] and report.checkpoint.head == entries[-1]["hash"]
    assert [c["seq"] for c in segment["checkpoints"]] == [1, 2] and segment["checkpoint"] == 2
    assert segment["checkpoints"][-1] == checkpoints.checkpoint_record(report.checkpoint)
    first = Entry.objects.get(seq=1)
    assert entries[0]["record"]["body"] == chain.entry_body(first)
    assert entries[0]["prev_hash"] == chain.GENESIS and entries[0]["hash"] == first.entry_hash


@pytest.mark.any_hour
def test_the_cover_prints_the_latest_signed_checkpoint(committed_db, media, history):
    report = generated(history)
    cover = " ".join(pdf_pages(report)[0].split()).replace(" ", "")
    checkpoint = report.checkpoint
    assert checkpoint.seq == 1 and checkpoint.reason == "report"
    assert checkpoint.head in cover and checkpoint.signature in cover and checkpoint.key_id in cover
    assert f"entry#{checkpoint.entry_seq}" in cover
    assert "Notrustedtimestamp" in cover  # no authority configured: the cover says so


def test_a_report_whose_chain_contradicts_an_earlier_signed_checkpoint_cannot_be_produced(committed_db, media, history):
    services.checkpoint_sign(property_id=history.property.pk)
    red_team_rewrite(history, seq=4)
    report = Report.objects.get(pk=requested(history).pk)
    with pytest.raises(render.ReportRefused):
        render.generate_locally(report.pk, processes=1)
    report.refresh_from_db()
    assert report.status == "failed" and not report.file
    assert "cannot be produced" in report.error and "checkpoint #1" in report.error


def test_a_report_of_a_property_whose_identity_was_swapped_cannot_be_produced(
    committed_db, media, history, other_casino
):
    """Issue 32: two properties' names and licences swapped in the database; before, each one's reports
    named the other casino over a chain that read intact."""
    services.checkpoint_sign(property_id=history.property.pk)
    one, two = history.property, other_casino.property
    sql("UPDATE casinos_property SET licence_number = 'swap' WHERE id = %s", one.pk)
    sql(
        "UPDATE casinos_property SET name = %s, licence_number = %s WHERE id = %s", one.name, one.licence_number, two.pk
    )
    sql(
        "UPDATE casinos_property SET name = %s, licence_number = %s WHERE id = %s", two.name, two.licence_number, one.pk
    )
    report = Report.objects.get(pk=requested(history).pk)
    with pytest.raises(render.ReportRefused):
        render.generate_locally(report.pk, processes=1)
    report.refresh_from_db()
    assert "the property's identity was changed in the database" in report.error


# ---- The offline verifier ----


def test_a_report_that_names_another_property_is_refused_offline(committed_db, media, history, signing_keys, tmp_path):
    """The segment names the property by licence and jurisdiction, and the checkpoints sign them: a
    report rebuilt to name another casino does not verify."""
    report = generated(history)
    segment = segment_of(report.file.path)
    prop = history.property
    assert segment["format"] == "logbook-chain-segment/3"
    assert (segment["property"]["licence"], segment["property"]["jurisdiction"]) == (
        prop.licence_number,
        prop.jurisdiction,
    )
    assert segment["checkpoints"][-1]["licence"] == prop.licence_number
    segment["property"].update(name="Other Casino", licence="PA-OTHER-1")
    result = offline(
        forge(tmp_path, Path(report.file.path), segment=segment), "--key", str(keys_pem(tmp_path, signing_keys.ring))
    )
    assert result.returncode == 1
    assert (
        f"was signed for licence {prop.licence_number} ({prop.jurisdiction}), but the report names licence "
        f"PA-OTHER-1 ({prop.jurisdiction}): it is another property's logbook"
    ) in result.stdout


def test_the_offline_verifier_imports_no_django(committed_db, media, history, signing_keys, tmp_path):
    report = generated(history)
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['verify_report.py', {report.file.path!r}, '--key', {str(keys_pem(tmp_path, signing_keys.ring))!r},"
        f" '--ca', {str(signing_keys.ca_cert)!r}]\n"
        f"try:\n    runpy.run_path({str(VERIFIER)!r}, run_name='__main__')\n"
        "except SystemExit as exit:\n    code = exit.code\n"
        "assert code == 0, code\n"
        "assert not [m for m in sys.modules if m == 'django' or m.startswith('django.')], 'django imported'\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('config', 'compliance', 'inspections')]\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd="/")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_regulator_verifies_a_downloaded_register_offline(committed_db, media, history, signing_keys, tmp_path):
    report = generated(history)
    result = offline(
        Path(report.file.path),
        "--key",
        str(keys_pem(tmp_path, signing_keys.ring)),
        "--cert",
        str(signing_keys.report_cert),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "OK      the PDF is signed by" in out and "has not changed since it was signed" in out
    assert "the signer's certificate chains to the trust root you gave" in out
    assert "hash end to end" in out and "the segment ends on signed checkpoint #1" in out
    assert f"the CSV's {report.rows} rows are the segment's entries of the period, cell by cell" in out
    assert out.rstrip().endswith(
        "VERIFIED: the report is as the logbook signed it, and its rows are the signed chain's."
    )


def test_a_report_altered_by_one_byte_is_refused(committed_db, media, history, signing_keys, tmp_path):
    report = generated(history)
    data = bytearray(Path(report.file.path).read_bytes())
    data[len(data) // 3] ^= 0x01  # inside what the signature covers
    altered = tmp_path / "altered.pdf"
    altered.write_bytes(bytes(data))
    result = offline(altered, "--key", str(keys_pem(tmp_path, signing_keys.ring)))
    assert result.returncode == 1, result.stdout + result.stderr
    assert (
        "FAILED  the PDF was changed after" in result.stdout
        or "FAILED  the file is not a readable PDF" in result.stdout
    )
    assert "NOT VERIFIED" in result.stdout


def test_a_csv_altered_by_one_cell_is_refused(committed_db, media, history, signing_keys, tmp_path):
    report = generated(history)
    csv_bytes = attachments(report.file.path)["inspection_register.csv"].decode()
    table = Entry.objects.get(seq=1).table_number
    altered = csv_bytes.replace(f'"{table}"', '"R-99"', 1).encode()
    assert altered != csv_bytes.encode()
    forged = forge(tmp_path, Path(report.file.path), csv=altered)
    keys = str(keys_pem(tmp_path, signing_keys.ring))
    result = offline(forged, "--key", keys)
    assert result.returncode == 1
    assert "FAILED  the CSV (inspection_register.csv) does not match the signed chain segment" in result.stdout
    assert "'Table' says 'R-99', the entry says" in result.stdout
    # With the casino's certificate, the forger's signature is refused too.
    result = offline(forged, "--key", keys, "--cert", str(signing_keys.report_cert))
    assert (
        "FAILED  the PDF is signed by Organization: Roulette compliance logbook, Common Name: Forger" in result.stdout
    )


def test_a_segment_cut_short_is_refused(committed_db, media, history, signing_keys, tmp_path):
    report = generated(history)
    segment = segment_of(report.file.path)
    segment["entries"] = segment["entries"][:-2]
    result = offline(
        forge(tmp_path, Path(report.file.path), segment=segment), "--key", str(keys_pem(tmp_path, signing_keys.ring))
    )
    assert result.returncode == 1
    assert "FAILED  the segment does not end on a signed checkpoint" in result.stdout
    # The checkpoint it ended on now lies beyond it: an error, not silence.
    assert f"FAILED  checkpoint #{report.checkpoint.seq} (entry #8" in result.stdout
    assert "lies outside the segment (entries #1 to #6)" in result.stdout
    assert "is not in the signed chain segment" in result.stdout  # the CSV's last rows


def test_a_segment_that_does_not_start_after_a_signed_checkpoint_is_refused(
    committed_db, media, history, signing_keys, tmp_path
):
    """The segment's first entries cut off: it still hashes to the checkpoint at its end, but nothing
    signed says no entry of the period came before it."""
    report = generated(history)
    segment = segment_of(report.file.path)
    segment["entries"] = segment["entries"][2:]
    result = offline(
        forge(tmp_path, Path(report.file.path), segment=segment), "--key", str(keys_pem(tmp_path, signing_keys.ring))
    )
    assert result.returncode == 1
    assert "OK      the segment ends on signed checkpoint" in result.stdout
    assert "FAILED  the segment does not start right after a signed checkpoint (it starts at entry #3)" in result.stdout


def test_a_checkpoint_signed_by_an_unknown_key_is_refused(committed_db, media, history, signing_keys, tmp_path):
    report = generated(history)
    segment = segment_of(report.file.path)
    forger = ed25519.Ed25519PrivateKey.generate()
    record = segment["checkpoints"][-1]
    record["key_id"] = keyring.key_id_of(forger.public_key())
    record["signature"] = forger.sign(checkpoints.record_message(record)).hex()
    result = offline(
        forge(tmp_path, Path(report.file.path), segment=segment), "--key", str(keys_pem(tmp_path, signing_keys.ring))
    )
    assert result.returncode == 1
    assert f"is signed by key {record['key_id']}, which is none of the keys you gave (--key)" in result.stdout
    assert "FAILED  the segment does not end on a signed checkpoint" in result.stdout


def test_reports_signed_before_and_after_a_key_rotation_both_verify(
    committed_db, media, history, signing_keys, settings, tmp_path
):
    ring = tmp_path / "ring" / "ring.json"
    ring.parent.mkdir()
    ring.write_text(signing_keys.ring.read_text())
    for path in signing_keys.directory.glob("checkpoint-*.pem"):
        (ring.parent / path.name).write_bytes(path.read_bytes())
    settings.LOGBOOK_CHECKPOINT_KEYRING = str(ring)
    before = generated(history)
    keyring.checkpoint_key_add(ring, now=datetime.now(UTC))
    another_entry(history)
    after = generated(history)
    assert before.checkpoint.key_id != after.checkpoint.key_id
    published = keys_pem(tmp_path, ring)  # both keys, as GET /api/checkpoint-keys/ lists them
    for report in (before, after):
        result = offline(Path(report.file.path), "--key", str(published))
        assert result.returncode == 0, result.stdout
    # The report after the rotation carries the checkpoint signed with the old key before it, too.
    assert {c["key_id"] for c in segment_of(after.file.path)["checkpoints"]} == {
        before.checkpoint.key_id,
        after.checkpoint.key_id,
    }


def _edited_row(casino):
    third = Entry.objects.get(property=casino.property, seq=3)
    sql("UPDATE logbook_entry SET description = %s WHERE id = %s", "Table closed early", third.pk)


def _moved_signature(casino):
    second = Entry.objects.get(property=casino.property, seq=2)
    fifth = Entry.objects.get(property=casino.property, seq=5).signatures.first()
    sql("UPDATE logbook_signature SET entry_id = %s WHERE id = %s", second.pk, fifth.pk)


def _deleted_last_row(casino):
    """The review's: the last entry deleted (one made after the checkpoint: the checkpoint's own entry
    cannot go while the checkpoint points at it), the chain head left as it was."""
    another_entry(casino)
    last = Entry.objects.filter(property=casino.property).order_by("-seq").first()
    sql("DELETE FROM logbook_signature WHERE entry_id = %s", last.pk)
    sql("DELETE FROM logbook_entry WHERE id = %s", last.pk)


def _rechained(casino):
    red_team_rewrite(casino, seq=4)


@pytest.mark.parametrize("tamper", [_edited_row, _moved_signature, _deleted_last_row, _rechained])
def test_every_tamper_of_the_review_is_caught_by_verify_logbook_and_offline(
    committed_db, media, history, signing_keys, tmp_path, tamper
):
    """Each tamper after a signed checkpoint: verify_logbook exits 1; the report is either produced
    with the break in its segment (the offline check refuses it) or refused outright, and an export
    forged from the tampered database is refused offline."""
    signed = services.checkpoint_sign(property_id=history.property.pk)
    tamper(history)
    with pytest.raises(SystemExit) as exited:
        call_command("verify_logbook", property=history.property.pk)
    assert exited.value.code == 1
    keys = str(keys_pem(tmp_path, signing_keys.ring))
    report = Report.objects.get(pk=requested(history).pk)
    try:
        report = render.generate_locally(report.pk, processes=1)
        result = offline(Path(report.file.path), "--key", keys)
    except render.ReportRefused:
        # No report of a rewritten history: what a forger could export from the database is refused.
        report.refresh_from_db()
        assert report.status == "failed" and "cannot be produced" in report.error
        report.checkpoint = signed
        path = tmp_path / "segment.json"
        render.segment_write(report, path)
        original = tmp_path / "any.pdf"
        original.write_bytes(Path(generated_elsewhere(tmp_path)).read_bytes())
        result = offline(forge(tmp_path, original, segment=json.loads(path.read_text())), "--key", keys)
    assert result.returncode == 1, result.stdout


def generated_elsewhere(tmp_path: Path) -> str:
    """A PDF with the two attachments' names, for `forge` to take its shape from."""
    from weasyprint import HTML, Attachment

    for name in ("inspection_register.csv", "chain-segment.json"):
        (tmp_path / f"shape-{name}").write_text("{}" if name.endswith("json") else "#\n")
    path = tmp_path / "shape.pdf"
    HTML(string="<p>shape</p>").write_pdf(
        path,
        attachments=[
            Attachment(filename=str(tmp_path / f"shape-{name}"), name=name)
            for name in ("inspection_register.csv", "chain-segment.json")
        ],
    )
    return str(path)


def test_a_rewritten_export_is_refused_with_the_checkpoint_it_contradicts(
    committed_db, media, history, signing_keys, tmp_path
):
    """The red team's rewrite done on an exported report: entry #4 changed and every later hash
    recomputed in the segment; the signed checkpoint still names the old head."""
    report = generated(history)
    segment = segment_of(report.file.path)
    prev = segment["entries"][2]["hash"]
    for entry in segment["entries"][3:]:
        if entry["seq"] == 4:
            entry["record"]["body"]["description"] = "Nothing was adjusted"
        body_hash = hashlib.sha256(canonical(entry["record"]["body"])).hexdigest()
        for signature in entry["record"]["signatures"]:
            signature["content_hash"] = body_hash
        entry["prev_hash"] = prev
        entry["hash"] = hashlib.sha256(prev.encode() + canonical(entry["record"])).hexdigest()
        prev = entry["hash"]
    result = offline(
        forge(tmp_path, Path(report.file.path), segment=segment), "--key", str(keys_pem(tmp_path, signing_keys.ring))
    )
    assert result.returncode == 1
    assert f"FAILED  checkpoint #{report.checkpoint.seq}" in result.stdout
    assert "the history was rewritten after it was signed" in result.stdout


def test_the_verifier_says_why_it_cannot_run(tmp_path):
    result = offline(tmp_path / "missing.pdf", "--key", str(tmp_path / "missing.pem"))
    assert result.returncode == 2 and "Cannot check: cannot read the key file" in result.stderr


def test_with_an_authority_the_regulator_checks_its_times_offline(
    committed_db, media, history, signing_keys, tsa, tmp_path
):
    from cryptography.hazmat.primitives import serialization

    from tests.tsa import tsa_certificate

    report = generated(history)
    keys = str(keys_pem(tmp_path, signing_keys.ring))
    result = offline(Path(report.file.path), "--key", keys, "--tsa-cert", str(tsa.certificate_path))
    assert result.returncode == 0, result.stdout
    assert (
        "has not changed since it was signed, timestamped by Common Name: Test timestamp authority at" in result.stdout
    )
    assert f"checkpoint #{report.checkpoint.seq}" in result.stdout
    # The signature, the document timestamp (PAdES B-LTA), the checkpoint.
    assert result.stdout.count("timestamped by Common Name: Test timestamp authority at") == 3
    assert "the document is timestamped by Common Name: Test timestamp authority at" in result.stdout
    _, stranger = tsa_certificate("Another authority")
    other = tmp_path / "other-tsa.pem"
    other.write_bytes(stranger.public_bytes(serialization.Encoding.PEM))
    result = offline(Path(report.file.path), "--key", keys, "--tsa-cert", str(other))
    assert result.returncode == 1
    assert "not the authority you gave (--tsa-cert)" in result.stdout


def test_the_api_gives_the_reports_checkpoint_and_signer(committed_db, media, history):
    from tests.support.api import client_for

    report = generated(history)
    body = client_for(history.compliance).get(f"/api/reports/{report.pk}/").json()
    checkpoint = report.checkpoint
    assert body["checkpoint"] == {
        "seq": checkpoint.seq,
        "entry": checkpoint.entry_seq,
        "head": checkpoint.head,
        "signed_at": body["checkpoint"]["signed_at"],
        "key_id": checkpoint.key_id,
        "signature": checkpoint.signature,
        "timestamped": False,
    }
    assert body["signed_by"] == report.signed_by and body["signed_by"].endswith("Common Name: Logbook tests")


def test_without_a_checkpoint_key_the_report_says_so_and_does_not_verify_offline(
    committed_db, media, history, signing_keys, settings, tmp_path
):
    settings.LOGBOOK_CHECKPOINT_KEYRING = ""
    report = generated(history)
    assert report.status == "done" and report.checkpoint is None
    cover = " ".join(pdf_pages(report)[0].split())
    assert "None: no checkpoint key is configured" in cover
    result = offline(Path(report.file.path), "--key", str(keys_pem(tmp_path, signing_keys.ring)))
    assert result.returncode == 1
    assert "FAILED  the segment does not end on a signed checkpoint" in result.stdout


# ---- Issue 33, item 3: every printed page verified, whoever signed the file ----


def resigned(tmp_path: Path, original: Path, change, name: str) -> Path:
    """The report's pages rewritten by `change` (a pypdf writer), its old signature dropped, and the
    file signed again with the casino's own report key, as someone holding that key would."""
    from pypdf import PdfWriter

    from inspections.reports import signing

    writer = PdfWriter(clone_from=str(original))
    change(writer)
    del writer._root_object["/AcroForm"]  # the old signature's field, whose bytes no longer exist
    for page in writer.pages:
        if "/Annots" in page:
            del page["/Annots"]
    unsigned = tmp_path / f"{name}-unsigned.pdf"
    with unsigned.open("wb") as out:
        writer.write(out)
    signed = tmp_path / f"{name}.pdf"
    assert signing.pdf_sign(unsigned, signed, reason="re-signed", location="elsewhere")
    return signed


def refused(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "NOT VERIFIED" in result.stdout
    # Only the printed pages give it away: the signature and its chain hold.
    assert "FAILED  the PDF" not in result.stdout and "does not chain" not in result.stdout
    return result.stdout


def test_a_page_deleted_and_the_file_resigned_with_the_casinos_key_is_refused(
    committed_db, media, history, signing_keys, tmp_path
):
    report = generated(history)
    assert report.pages == 4  # the cover, then rows #1-#3, #4-#6, #7-#8
    pages = pdf_pages(report)
    assert "#4 · R-01" in pages[2]

    def delete_third(writer):
        writer.remove_page(2)

    altered = resigned(tmp_path, Path(report.file.path), delete_third, "deleted")
    out = refused(offline(altered, "--key", str(keys_pem(tmp_path, signing_keys.ring))))
    assert "FAILED  the printed pages do not match the signed chain segment:" in out
    assert "entries #4, #5, #6 of the period are on no page" in out
    assert "page 3 of 3 says page 4 of 4" in out
    assert "OK      the CSV's 8 rows are the segment's entries of the period" in out  # the CSV was left whole


def test_the_pages_read_alike_by_pdfium_and_by_pypdf(committed_db, media, history, monkeypatch):
    """The verifier reads the pages with PDFium where pypdfium2 is installed, else with pypdf: the
    check, blind to white space, sees the same text either way."""
    from logbook_proof import verify

    data = Path(generated(history).file.path).read_bytes()
    by_pdfium = [verify.squeezed(text) for text in verify.page_texts(data)]
    monkeypatch.setitem(sys.modules, "pypdfium2", None)  # not installed
    by_pypdf = [verify.squeezed(text) for text in verify.page_texts(data)]
    assert by_pdfium[1:] == by_pypdf[1:] and "#4·R-01" in by_pdfium[2]


def test_pages_reordered_and_the_file_resigned_is_refused(committed_db, media, history, signing_keys, tmp_path):
    report = generated(history)

    def swap(writer):
        third = writer.pages[2]
        writer.remove_page(2)
        writer.insert_page(third, 1)

    out = refused(
        offline(
            resigned(tmp_path, Path(report.file.path), swap, "swapped"),
            "--key",
            str(keys_pem(tmp_path, signing_keys.ring)),
        )
    )
    assert "the rows are not in the register's order: pages or rows were moved" in out
    assert "page 2 of 4 says page 3 of 4" in out


def test_a_row_edited_on_its_page_and_the_file_resigned_is_refused(
    committed_db, media, history, signing_keys, tmp_path
):
    """Page 2 laid out again from rows whose description was changed (its number stamped as the
    original's), put in place of the original page, the file signed with the casino's key."""
    import io

    from django.template.loader import render_to_string
    from pypdf import PdfReader
    from weasyprint import HTML

    from inspections.reports.kinds import kind_of

    report = generated(history)
    keys = list(
        Entry.objects.filter(property=history.property, seq__in=(1, 2, 3)).order_by("seq").values_list("pk", flat=True)
    )
    rows = kind_of(report).rows(report, keys)
    rows[1]["description"] = "Wheel cover left on"
    html = render._html(report, render.Piece(0, tuple(keys)), rows)
    edited = PdfReader(io.BytesIO(HTML(string=html).write_pdf()))
    numbers = render_to_string("reports/page_numbers.html", {"first_page": 2, "total_pages": 4, "pages": range(1)})
    number = PdfReader(io.BytesIO(HTML(string=numbers).write_pdf())).pages[0]

    def replace_second(writer):
        writer.insert_page(edited.pages[0], 1)
        writer.pages[1].merge_page(number)
        writer.remove_page(2)

    altered = resigned(tmp_path, Path(report.file.path), replace_second, "edited")
    assert "Wheel cover left on" in PdfReader(altered).pages[1].extract_text()
    out = refused(offline(altered, "--key", str(keys_pem(tmp_path, signing_keys.ring))))
    assert "page 2, row #2: it does not print 'Wheelcoverunlockedandremoved' as the entry says" in out
    assert "page 2 of 4 says" not in out  # numbered as the original was: only the row gives it away


def test_an_annotation_appended_after_the_casinos_signature_is_refused(
    committed_db, media, history, signing_keys, tmp_path
):
    from pypdf import PdfWriter
    from pypdf.annotations import FreeText

    report = generated(history)
    writer = PdfWriter(report.file.path, incremental=True)
    writer.add_annotation(0, FreeText(text="Approved by the Board", rect=(50, 50, 300, 100)))
    annotated = tmp_path / "annotated.pdf"
    with annotated.open("wb") as out:
        writer.write(out)
    result = offline(annotated, "--key", str(keys_pem(tmp_path, signing_keys.ring)))
    assert result.returncode == 1, result.stdout
    assert "does not cover the whole file: something was added after it" in result.stdout


def test_the_genuine_report_signed_again_by_a_stranger_is_refused(committed_db, media, history, signing_keys, tmp_path):
    """A second signature, a stranger's, on the casino's untouched report: every signature is
    checked, and the stranger's does not chain to the casino's CA."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers

    report = generated(history)
    key, cert = tmp_path / "stranger.key", tmp_path / "stranger.pem"
    keyring.report_certificate_make(key, cert, common_name="Stranger", now=datetime.now(UTC))
    countersigned = tmp_path / "countersigned.pdf"
    with open(report.file.path, "rb") as handle, countersigned.open("wb") as out:
        signers.sign_pdf(
            IncrementalPdfFileWriter(handle, strict=False),
            signers.PdfSignatureMetadata(field_name="Stranger"),
            signer=signers.SimpleSigner.load(str(key), str(cert)),
            output=out,
        )
    result = offline(countersigned, "--key", str(keys_pem(tmp_path, signing_keys.ring)))
    assert result.returncode == 1, result.stdout
    assert "Common Name: Stranger, whose certificate does not chain to the trust root you gave" in result.stdout
    # And the casino's signature is followed by a revision that is not validation data.
    assert "Common Name: Logbook tests does not cover the whole file: something was added after it" in result.stdout


def test_the_verifier_is_the_packages_console_script():
    """logbook_proof is a package of its own (`pip install ./logbook_proof`, built with setuptools),
    whose console script `logbook-verify` is the verifier the script runs."""
    import tomllib

    from logbook_proof import verify

    project = tomllib.loads((ROOT / "logbook_proof" / "pyproject.toml").read_text())
    assert project["project"]["scripts"] == {"logbook-verify": "logbook_proof.verify:main"}
    assert project["tool"]["setuptools"]["package-dir"] == {"logbook_proof": "."}
    assert {"pyHanko", "pypdf"} <= {re.split(r"[<>=]", need)[0] for need in project["project"]["dependencies"]}
    assert callable(verify.main)


def test_a_register_whose_chain_segment_outgrows_pypdfs_stream_limit_is_still_made(committed_db, media, history):
    """pypdf refuses a stream declared longer than its limit (75 MB), a guard against hostile files. A
    logbook with no signed checkpoint before the period attaches its chain from the first entry: at
    1,000,000 entries a stream of 106 MB, and its register failed when the cover was numbered
    (LimitReachedError). The limit lowered below this cover's size shows it at a small one: the
    report's own files, checked against their hashes, are read whatever their streams' length."""
    from pypdf import apply_configuration

    with apply_configuration(maximum_declared_stream_length=1000):
        report = generated(history)
    assert report.status == "done", report.error
    assert report.signed_by and segment_of(report.file.path)["entries"]
