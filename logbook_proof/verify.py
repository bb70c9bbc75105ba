"""`logbook-verify`: check a logbook report offline. No database, no server, no Django: pyHanko
(which brings `cryptography`) and pypdf.

    logbook-verify REPORT.pdf --key CHECKPOINT_KEY.pem [--key OLDER_KEY.pem]
                   --ca COMPLIANCE_CA.pem [--tsa-cert TSA.pem]

`--key`: the casino's published checkpoint public key(s), PEM (GET /api/checkpoint-keys/; one file
may hold several). `--ca`: the trust root the report's signer must chain to: the casino's compliance
CA certificate (GET /api/report-ca/?format=pem), or your own copy of the enterprise CA it names;
`--cert`: a report certificate you hold, trusted as it is (either or both; one is required: a
signer nobody vouches for is never accepted). `--tsa-cert`: the timestamp authority's certificate,
to trust its timestamps.

What it checks, in this order, each answered in plain words:
1. every signature in the PDF, with pyHanko's validator: its bytes unchanged since it was made, its
   signer's certificate chaining to the trust root you gave; the last one over the whole file, or
   followed only by validation data and document timestamps (nothing else added after it: no
   annotation, no form filled, no page);
2. the chain segment attached to the PDF (chain-segment.json): every entry's hash recomputed from its
   record and the previous hash, end to end, and every signature bound to its entry's content;
3. the signed checkpoints attached with it: each one's Ed25519 signature by one of your keys (and
   its RFC 3161 timestamp, if it carries one), for the licence and jurisdiction the report names; the
   segment starts right after a signed checkpoint (or at the logbook's first entry) and ends on one,
   and no checkpoint lies outside it;
4. the CSV attached to the PDF against the segment: every row is its entry, cell by cell, and every
   entry of the period is a row;
5. every printed page of the register against the segment: the pages' text (PDFium's, or pypdf's)
   holds every entry of the period, in order, each once, each row's cells as the entry says: a page
   removed, moved or edited is caught, whoever signed the file.
Exit status: 0 when everything checks, 1 when anything does not (each failure says what), 2 when the
command itself is wrong (a file that cannot be read, a key that is not one).

The formats (hashes, checkpoints, segment, columns) are logbook_proof.formats's.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import sys
from csv import DictReader  # reads the report's CSV; writes none
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from logbook_proof.formats import (
    GENESIS,
    REGISTER_LABELS,
    ROW_FIRST_CELL,
    SEGMENT,
    SEGMENT_FORMAT,
    SEGMENT_FORMATS,
    SIGNED_FIELDS,
    body_hash,
    canonical,
    csv_cell,
    expected_cells,
    key_id,
    record_hash,
    sha256_hex,
)


class Unusable(Exception):
    """The command cannot run as asked (exit status 2)."""


@dataclass
class Verdict:
    lines: list[str] = field(default_factory=list)
    failed: bool = False

    def ok(self, text: str) -> None:
        self.lines.append(f"OK      {text}")

    def fail(self, text: str) -> None:
        self.failed = True
        self.lines.append(f"FAILED  {text}")

    def note(self, text: str) -> None:
        self.lines.append(f"        {text}")


# ---- Keys ----


def load_keys(paths: list[str]) -> dict:
    """Every Ed25519 public key in the files, by key id."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    keys = {}
    for path in paths:
        try:
            text = Path(path).read_bytes()
        except OSError as error:
            raise Unusable(f"cannot read the key file {path}: {error.strerror}") from None
        blocks = [b"-----BEGIN PUBLIC KEY-----" + part for part in text.split(b"-----BEGIN PUBLIC KEY-----")[1:]]
        if not blocks:
            raise Unusable(f"{path} holds no PEM public key (-----BEGIN PUBLIC KEY-----)")
        for block in blocks:
            key = serialization.load_pem_public_key(block)
            if not isinstance(key, ed25519.Ed25519PublicKey):
                raise Unusable(f"{path} holds a key that is not Ed25519")
            raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            keys[key_id(raw)] = key
    return keys


def load_certificates(path: str | None) -> list:
    if not path:
        return []
    from asn1crypto import pem, x509

    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise Unusable(f"cannot read the certificate file {path}: {error.strerror}") from None
    try:
        return [x509.Certificate.load(der) for _, _, der in pem.unarmor(data, multiple=True)]
    except ValueError:
        raise Unusable(f"{path} holds no PEM certificate") from None


def context_of(anchors: list):
    """pyHanko's validation context: these certificates the only trust roots, nothing fetched."""
    from pyhanko_certvalidator import ValidationContext

    return ValidationContext(trust_roots=anchors, allow_fetching=False, revocation_mode="soft-fail")


# ---- 1. The PDF and its signatures (pyHanko's validator) ----


def attachments_of(reader) -> dict[str, bytes]:
    """The files embedded in the PDF (its /EmbeddedFiles name tree), by name."""
    found: dict[str, bytes] = {}

    def walk(node) -> None:
        if "/Names" in node:
            names = node["/Names"]
            for index in range(0, len(names), 2):
                spec = names[index + 1]
                found[str(names[index])] = spec["/EF"]["/F"].data
        for kid in node.get("/Kids", []):
            walk(kid)

    names = reader.root.get("/Names")
    if names is not None and "/EmbeddedFiles" in names:
        walk(names["/EmbeddedFiles"])
    return found


def timestamp_words(status, tsa_given: bool) -> tuple[bool, str]:
    """A timestamp's validity (pyHanko's status) in words; (ok, words)."""
    authority = status.signing_cert.subject.human_friendly if status.signing_cert is not None else "nobody"
    if not (status.intact and status.valid):
        return False, f"its timestamp by {authority} does not verify"
    when = f"timestamped by {authority} at {status.timestamp:%Y-%m-%d %H:%M:%S} UTC"
    if tsa_given and not status.trusted:
        return False, f"its timestamp is by {authority}, not the authority you gave (--tsa-cert)"
    if not tsa_given:
        when += " (the authority not checked: give its certificate with --tsa-cert)"
    return True, when


def check_pdf_signatures(data: bytes, verdict: Verdict, anchors: list, tsa_certificates: list):
    """Every signature of the PDF, validated by pyHanko against `anchors` alone; answers the reader,
    or None when the file cannot be read."""
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.diff_analysis import ModificationLevel
    from pyhanko.sign.validation import async_validate_pdf_signature, async_validate_pdf_timestamp
    from pyhanko.sign.validation.status import SignatureCoverageLevel

    try:
        reader = PdfFileReader(io.BytesIO(data), strict=False)
        signatures = reader.embedded_regular_signatures
        stamps = reader.embedded_timestamp_signatures
    except Exception as error:  # a damaged file fails in many ways, each a reason
        verdict.fail(f"the file is not a readable PDF ({type(error).__name__}: {error})")
        return None
    if not signatures:
        verdict.fail("the PDF carries no signature: it is not a signed report")
        return reader
    tsa_context = context_of(tsa_certificates) if tsa_certificates else None
    last_revision = max(s.signed_revision for s in [*signatures, *stamps])
    for number, signature in enumerate(signatures, start=1):
        name = "the PDF's signature" if len(signatures) == 1 else f"the PDF's signature {number} of {len(signatures)}"
        try:
            status = asyncio.run(
                async_validate_pdf_signature(
                    signature, signer_validation_context=context_of(anchors), ts_validation_context=tsa_context
                )
            )
        except Exception as error:
            verdict.fail(f"{name} cannot be validated ({type(error).__name__}: {error})")
            continue
        who = status.signing_cert.subject.human_friendly if status.signing_cert is not None else "nobody"
        if not status.intact:
            verdict.fail(f"the PDF was changed after {who} signed it: its bytes no longer match the signature")
            continue
        if not status.valid:
            verdict.fail(f"{name} by {who} is not valid: its signature does not verify")
            continue
        when = ""
        if status.timestamp_validity is not None:
            stamped, words = timestamp_words(status.timestamp_validity, bool(tsa_certificates))
            if not stamped:
                verdict.fail(f"{name}: {words}")
                continue
            when = f", {words}"
        # Nothing but validation data and document timestamps after it: an annotation, a form
        # filled, a page added or anything else after the casino signed is refused.
        later = status.coverage != SignatureCoverageLevel.ENTIRE_FILE
        if later and (
            status.coverage < SignatureCoverageLevel.ENTIRE_REVISION
            or status.modification_level is None
            or status.modification_level > ModificationLevel.LTA_UPDATES
        ):
            level = status.modification_level.name.lower() if status.modification_level else "unclear"
            verdict.fail(f"{name} by {who} does not cover the whole file: something was added after it ({level})")
        else:
            what = "the PDF" if signature.signed_revision == last_revision or not later else "its revision"
            verdict.ok(f"{what} is signed by {who} and has not changed since it was signed{when}")
        # Whose signature it is, in either case: a stranger's in the middle is named as such.
        if status.trusted:
            verdict.ok(f"the signer's certificate chains to the trust root you gave (--ca/--cert): {who}")
        else:
            verdict.fail(
                f"the PDF is signed by {who}, whose certificate does not chain to the trust root you gave "
                f"(--ca/--cert): {status.trust_problem_indic.name if status.trust_problem_indic else 'untrusted'}"
            )
    for stamp in stamps:
        try:
            status = asyncio.run(async_validate_pdf_timestamp(stamp, validation_context=tsa_context))
        except Exception as error:
            verdict.fail(f"a document timestamp cannot be validated ({type(error).__name__}: {error})")
            continue
        stamped, words = timestamp_words(status, bool(tsa_certificates))
        if not stamped:
            verdict.fail(f"the document timestamp: {words}")
        elif status.coverage != SignatureCoverageLevel.ENTIRE_FILE and (
            status.modification_level is None or status.modification_level > ModificationLevel.LTA_UPDATES
        ):
            verdict.fail("the document timestamp does not cover the whole file: something was added after it")
        else:
            verdict.ok(f"the document is {words}")
    return reader


def checkpoint_timestamp(token: bytes, signature: bytes, tsa_certificates: list) -> tuple[bool, str]:
    """An RFC 3161 token over a checkpoint's signature, validated by pyHanko."""
    import hashlib

    from asn1crypto import cms
    from pyhanko.sign.validation.generic_cms import validate_tst_signed_data
    from pyhanko.sign.validation.status import TimestampSignatureStatus

    try:
        signed_data = cms.ContentInfo.load(token)["content"]
        found = asyncio.run(
            validate_tst_signed_data(
                signed_data,
                context_of(tsa_certificates) if tsa_certificates else None,
                lambda algorithm: hashlib.new(algorithm, signature).digest(),
            )
        )
        status = TimestampSignatureStatus(**found)
    except Exception as error:
        return False, f"its timestamp cannot be read ({type(error).__name__}: {error})"
    return timestamp_words(status, bool(tsa_certificates))


# ---- 2. The chain segment ----


def check_segment(segment: dict, verdict: Verdict) -> dict[int, dict] | None:
    """Every entry's hash recomputed end to end; answers the entries by number, or None when broken."""
    entries = segment.get("entries") or []
    if not entries:
        verdict.fail("the chain segment holds no entry")
        return None
    by_seq: dict[int, dict] = {}
    property_id = segment["property"]["id"]
    prev_hash = entries[0]["prev_hash"]
    for number, entry in enumerate(entries):
        seq, record = entry["seq"], entry["record"]
        if number and seq != entries[number - 1]["seq"] + 1:
            verdict.fail(
                f"the chain segment skips from entry #{entries[number - 1]['seq']} to #{seq}: entries are missing"
            )
            return None
        if record["body"].get("seq") != seq or record["body"].get("property") != property_id:
            verdict.fail(
                f"entry #{seq} of the segment says it is entry #{record['body'].get('seq')} of property {record['body'].get('property')}"
            )
            return None
        if entry["prev_hash"] != prev_hash:
            verdict.fail(f"entry #{seq} does not link to the entry before it (its previous hash differs)")
            return None
        content = body_hash(record["body"])
        for signature in record["signatures"]:
            if signature["content_hash"] != content:
                verdict.fail(
                    f"entry #{seq}: the signature of {signature['signer_name']} does not match the entry's content"
                )
                return None
        if not record["signatures"]:
            verdict.fail(f"entry #{seq} carries no signature")
            return None
        if record_hash(prev_hash=entry["prev_hash"], body=record["body"], signatures=record["signatures"]) != entry[
            "hash"
        ] or canonical(record) != canonical({"body": record["body"], "signatures": record["signatures"]}):
            verdict.fail(f"entry #{seq} was changed: its content does not give its hash")
            return None
        prev_hash = entry["hash"]
        by_seq[seq] = entry
    verdict.ok(
        f"the chain segment's {len(entries)} entries (#{entries[0]['seq']} to #{entries[-1]['seq']}) hash end to end"
    )
    return by_seq


# ---- 3. The signed checkpoints ----


def check_checkpoints(
    segment: dict, entries: dict[int, dict], keys: dict, verdict: Verdict, tsa_certificates: list
) -> None:
    from cryptography.exceptions import InvalidSignature

    checkpoints = segment.get("checkpoints") or []
    first_seq, last_seq = min(entries), max(entries)
    valid = []
    for record in checkpoints:
        name = f"checkpoint #{record['seq']} (entry #{record['entry_seq']}, signed {record['signed_at']})"
        key = keys.get(record["key_id"])
        if key is None:
            verdict.fail(f"{name} is signed by key {record['key_id']}, which is none of the keys you gave (--key)")
            continue
        fields = SIGNED_FIELDS.get(record.get("format"))
        if fields is None:
            verdict.fail(f"{name} is in a format this verifier does not know ({record.get('format')!r})")
            continue
        message = canonical({field: record.get(field) for field in fields})
        try:
            key.verify(bytes.fromhex(record["signature"]), message)
        except (InvalidSignature, ValueError):
            verdict.fail(f"{name}: its signature does not verify with key {record['key_id']}")
            continue
        if record["property"] != segment["property"]["id"]:
            verdict.fail(f"{name} is another property's")
            continue
        signed_identity = (record.get("licence"), record.get("jurisdiction"))
        said_identity = (segment["property"].get("licence"), segment["property"].get("jurisdiction"))
        if "licence" in fields and signed_identity != said_identity:
            verdict.fail(
                f"{name} was signed for licence {signed_identity[0]} ({signed_identity[1]}), but the report names "
                f"licence {said_identity[0]} ({said_identity[1]}): it is another property's logbook"
            )
            continue
        if record.get("timestamp_token"):
            stamped, words = checkpoint_timestamp(
                bytes.fromhex(record["timestamp_token"]), bytes.fromhex(record["signature"]), tsa_certificates
            )
            if not stamped:
                verdict.fail(f"{name}: {words}")
                continue
        else:
            words = f"no trusted timestamp ({record.get('timestamp_note') or 'none asked for'})"
        # A checkpoint the segment does not reach proves nothing about it: an error, not silence.
        if not first_seq - 1 <= record["entry_seq"] <= last_seq:
            verdict.fail(
                f"{name} lies outside the segment (entries #{first_seq} to #{last_seq}): the segment does not "
                "reach what it signed"
            )
            continue
        head = (
            entries[record["entry_seq"]]["hash"] if record["entry_seq"] in entries else entries[first_seq]["prev_hash"]
        )
        if head != record["head"]:
            verdict.fail(
                f"{name} says entry #{record['entry_seq']} has the hash {record['head'][:16]}…, the segment has "
                f"{head[:16]}…: the history was rewritten after it was signed"
            )
            continue
        verdict.ok(f"{name} is signed by key {record['key_id']}; {words}")
        valid.append(record)
    ending = [record for record in valid if record["entry_seq"] == last_seq]
    if ending:
        verdict.ok(
            f"the segment ends on signed checkpoint #{ending[-1]['seq']}: entry #{last_seq}, hash {entries[last_seq]['hash']}"
        )
    else:
        verdict.fail(f"the segment does not end on a signed checkpoint (it ends at entry #{last_seq})")
    if segment.get("format") != SEGMENT_FORMAT:
        verdict.note("(a segment of an older format: where it starts is not bound to a signed checkpoint)")
        return
    starting = [record for record in valid if record["entry_seq"] == first_seq - 1]
    if first_seq == 1 and entries[1]["prev_hash"] == GENESIS:
        verdict.ok("the segment starts at the logbook's first entry")
    elif starting:
        verdict.ok(f"the segment starts right after signed checkpoint #{starting[0]['seq']} (entry #{first_seq - 1})")
    else:
        verdict.fail(
            f"the segment does not start right after a signed checkpoint (it starts at entry #{first_seq}): "
            "entries before the period's first could be missing"
        )


# ---- 4. The CSV against the segment ----


def due_entries(segment: dict, entries: dict[int, dict]) -> list[int]:
    """The numbers of the segment's entries the report's period (and tables) hold, in the register's
    order (by time, then number)."""
    report = segment["report"]
    start, end = datetime.fromisoformat(report["period_start"]), datetime.fromisoformat(report["period_end"])
    tables = set(report.get("tables") or [])

    def moment(seq: int) -> datetime:
        return datetime.fromisoformat(entries[seq]["record"]["body"]["occurred_at"])

    due = [
        seq
        for seq, entry in entries.items()
        if start <= moment(seq) < end and (not tables or entry["record"]["body"]["table"] in tables)
    ]
    return sorted(due, key=lambda seq: (moment(seq), seq))


def check_csv(segment: dict, entries: dict[int, dict], csv_bytes: bytes, verdict: Verdict) -> None:
    report = segment["report"]
    zone = ZoneInfo(segment["property"]["time_zone"])
    rows = list(DictReader(io.StringIO(csv_bytes.decode("utf-8"))))
    problems = []
    seen = set()
    for number, row in enumerate(rows, start=2):  # line 1 is the header
        try:
            seq = int(row.get(REGISTER_LABELS["seq"], ""))
        except ValueError:
            problems.append(f"line {number}: its entry number {row.get(REGISTER_LABELS['seq'])!r} is not a number")
            continue
        entry = entries.get(seq)
        if entry is None:
            problems.append(f"line {number}: entry #{seq} is not in the signed chain segment")
            continue
        seen.add(seq)
        legacy = expected_cells(entry, zone, legacy=True)
        for name, value in expected_cells(entry, zone).items():
            label = REGISTER_LABELS[name]
            if row.get(label) not in (csv_cell(value), csv_cell(legacy[name])):
                problems.append(
                    f"line {number} (entry #{seq}): {label!r} says {row.get(label)!r}, the entry says {csv_cell(value)!r}"
                )
        description = csv_cell(entry["record"]["body"]["description"])
        written = row.get(REGISTER_LABELS["description"], "")
        if written != description and not written.startswith(description + " — "):
            problems.append(
                f"line {number} (entry #{seq}): the description says {written!r}, the entry says {description!r}"
            )
        failed = any(not ok for ok in (entry["record"]["body"].get("details") or {}).get("items", {}).values())
        if bool(row.get(REGISTER_LABELS["failed_items"])) != failed:
            problems.append(f"line {number} (entry #{seq}): the failed checklist items do not match the entry's")
    for seq in sorted(set(due_entries(segment, entries)) - seen):
        problems.append(f"entry #{seq} belongs to the report's period but is not in the CSV")
    if len(rows) != len(seen):
        problems.append(f"the CSV has {len(rows)} rows for {len(seen)} distinct entries")
    report_failures(verdict, f"the CSV ({report['csv']}) does not match the signed chain segment:", problems)
    if not problems:
        verdict.ok(f"the CSV's {len(rows)} rows are the segment's entries of the period, cell by cell")


def report_failures(verdict: Verdict, title: str, problems: list[str]) -> None:
    if problems:
        verdict.fail(title)
        for problem in problems[:20]:
            verdict.note(problem)
        if len(problems) > 20:
            verdict.note(f"… and {len(problems) - 20} more")


# ---- 5. The printed pages against the segment ----


def squeezed(text: str) -> str:
    """Text without its white space: what a page's extracted text and a cell's share however the
    cell's lines were broken."""
    return "".join(text.split())


PAGE_NUMBER = re.compile(r"Page(\d+)of(\d+)")
# A row opens with "#12 · R-01" (ROW_FIRST_LINE); the running footer's "Report #3 · generated" is no row.
ROW_START = re.compile(r"(?<!Report)#(\d+)·")


# PDFium gives a hyphen printed at the end of a line (a cell's "PGCB-SEC-20417" broken after "PGCB-")
# as U+FFFE, its mark for a word hyphenated there; the page prints "-", and pypdf reads it so.
LINE_END_HYPHEN = "\ufffe"


def page_texts(data: bytes) -> list[str]:
    """Each page's text: by PDFium (pypdfium2, a few ms a page) where it is installed, else by pypdf
    (about 100 ms a page: a 400-page register takes a minute). The check is blind to white space, and
    PDFium's line-end hyphen is read as the hyphen printed, so the two read alike."""
    try:
        import pypdfium2
    except ImportError:
        from pypdf import PdfReader

        return [page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages]
    document = pypdfium2.PdfDocument(data)
    try:
        return [
            document[index].get_textpage().get_text_range().replace(LINE_END_HYPHEN, "-")
            for index in range(len(document))
        ]
    finally:
        document.close()


def row_unprinted(parts: list[str], values: list[str]) -> str | None:
    """The first of a row's cell values (in the row's order) its printed text does not hold, or None.

    `parts` is the row's text on each page it spans. Every cell of a row starts on its first page;
    a cell taller than the page goes on at its next page's part, and so on, so that each page's part
    holds the cells' pieces in the row's order, and a row broken across pages interleaves its cells
    (the signatures on the first page in the middle of a long description's text). Each value is
    found whole, in order, after the cells before it on the first page; else its longest beginning
    found there, and the rest, the same way, on the next page, after the pieces of the cells before it
    on that page: every character in order, each piece where its cell goes on, nothing skipped
    within a cell."""
    at = [0] * len(parts)
    for value in values:
        rest, page = value, 0
        while rest:
            if page == len(parts):
                return value
            text = parts[page]
            found = text.find(rest, at[page])
            if found >= 0:
                at[page] = found + len(rest)
                break
            # The longest beginning of the rest printed on this page (a shorter one is found wherever
            # a longer one is: a binary search), the cell then going on at the next page.
            low, high = 0, len(rest) - 1
            while low < high:
                middle = (low + high + 1) // 2
                if text.find(rest[:middle], at[page]) >= 0:
                    low = middle
                else:
                    high = middle - 1
            if low == 0:
                return value
            at[page] = text.find(rest[:low], at[page]) + low
            rest, page = rest[low:], page + 1
    return None


def check_pages(data: bytes, segment: dict, entries: dict[int, dict], verdict: Verdict) -> None:
    """The register's printed pages (their text, read by pypdf) against the segment: every page
    numbered in order, of the file's page count; the rows, page after page, exactly the entries of
    the period in the register's order, each once; each row's cells (number, table, date and time,
    kind, part, description, notes, certification, signatures) as its entry says, a row taller than a
    page checked over the pages it spans (row_unprinted)."""
    zone = ZoneInfo(segment["property"]["time_zone"])
    try:
        texts = [squeezed(text) for text in page_texts(data)]
    except Exception as error:
        verdict.fail(f"the PDF's pages cannot be read ({type(error).__name__}: {error})")
        return
    problems = []
    for number, text in enumerate(texts, start=1):
        found = PAGE_NUMBER.findall(text)
        if found != [(str(number), str(len(texts)))]:
            said = " and ".join(f"page {n} of {total}" for n, total in found) or "no page number"
            problems.append(f"page {number} of {len(texts)} says {said}: pages were removed, added or moved")
    header = squeezed(ROW_FIRST_CELL)
    # Each row's text, page by page: a row taller than a page goes on over the next pages, which
    # WeasyPrint prints without the register's heading when the row does not fit under it.
    printed: list[tuple[int, int, list[str]]] = []  # (page, entry number, the row's text on each page)
    register_started = False
    for number, text in enumerate(texts, start=1):
        if header in text:
            register_started = True
            body = text[text.index(header) + len(header) :]
        elif register_started:
            body = text  # a page that carries on the register (the rest of a row) without its heading
        else:
            continue  # the cover
        starts = list(ROW_START.finditer(body))
        # A heading alone at a page's foot, the row under it taller than what is left of the page
        # and so printed from the top of the next page (without the heading), is no page emptied.
        if not starts and header in text and not (number < len(texts) and ROW_START.match(texts[number])):
            problems.append(f"page {number} holds the register's heading but no row")
        if printed:  # a row the page break split goes on at the top of the next page
            printed[-1][2].append(body[: starts[0].start() if starts else len(body)])
        for at, start in enumerate(starts):
            end = starts[at + 1].start() if at + 1 < len(starts) else len(body)
            printed.append((number, int(start.group(1)), [body[start.end() : end]]))
    due = due_entries(segment, entries)
    if [seq for _, seq, _ in printed] != due:
        shown = [seq for _, seq, _ in printed]
        missing = [seq for seq in due if seq not in shown]
        extra = [seq for seq in shown if seq not in due]
        if missing:
            problems.append(f"entries {', '.join(f'#{s}' for s in missing[:20])} of the period are on no page")
        if extra:
            problems.append(
                f"rows {', '.join(f'#{s}' for s in extra[:20])} are printed but are not the period's entries"
            )
        if not missing and not extra:
            problems.append("the rows are not in the register's order: pages or rows were moved")
    for page, seq, parts in printed:
        entry = entries.get(seq)
        if entry is None:
            continue
        cells = expected_cells(entry, zone)
        wanted = [
            cells["table_number"],
            f"{cells['date']} {cells['time']}",
            cells["kind"],
            cells["part"],
            entry["record"]["body"]["description"],
            cells["notes"],
            cells["inspection_certified"],
            cells["signatures"],
        ]
        unprinted = row_unprinted(parts, [squeezed(value) for value in wanted])
        if unprinted is not None:
            problems.append(f"page {page}, row #{seq}: it does not print {unprinted!r} as the entry says")
    report_failures(verdict, "the printed pages do not match the signed chain segment:", problems)
    if not problems:
        verdict.ok(
            f"every printed page is numbered in order, and the register's {len(printed)} rows on them are the "
            "segment's entries of the period, in order, cell by cell"
        )


def check_photos(entries: dict[int, dict], photos: dict[str, bytes], verdict: Verdict) -> None:
    """Each photo file given is one an entry of the segment signs: its SHA-256 is in the entry's signed
    details ("photos"), which the entry's hash and signatures cover (checked above)."""
    signed: dict[str, list[tuple[int, int]]] = {}
    for seq, entry in entries.items():
        for number, photo in enumerate((entry["record"]["body"].get("details") or {}).get("photos") or [], start=1):
            signed.setdefault(photo.get("sha256", ""), []).append((seq, number))
    for path, data in photos.items():
        digest, name = sha256_hex(data), Path(path).name
        if digest in signed:
            places = ", ".join(f"photo {number} of entry #{seq}" for seq, number in signed[digest])
            verdict.ok(f"the photo {name} is {places}, as signed (SHA-256 {digest})")
        else:
            verdict.fail(
                f"the photo {name} (SHA-256 {digest}) is no photo the report's entries sign: it was changed, "
                "it is the pages' copy rather than the original, or it belongs to an entry outside this report"
            )


def verify(
    path: str,
    key_paths: list[str],
    cert_path: str | None = None,
    tsa_cert_path: str | None = None,
    ca_paths: list[str] | None = None,
    photo_paths: list[str] | None = None,
) -> Verdict:
    keys = load_keys(key_paths)
    photos = {}
    for photo_path in photo_paths or []:
        try:
            photos[photo_path] = Path(photo_path).read_bytes()
        except OSError as error:
            raise Unusable(f"cannot read {photo_path}: {error.strerror}") from None
    anchors = [certificate for ca in ca_paths or [] for certificate in load_certificates(ca)]
    anchors += load_certificates(cert_path)
    if not anchors:
        raise Unusable(
            "give the trust root the report's signer must chain to: --ca COMPLIANCE_CA.pem "
            "(GET /api/report-ca/?format=pem) or --cert REPORT_CERTIFICATE.pem; a signer nobody vouches for "
            "proves nothing"
        )
    tsa_certificates = load_certificates(tsa_cert_path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise Unusable(f"cannot read {path}: {error.strerror}") from None
    verdict = Verdict()
    reader = check_pdf_signatures(data, verdict, anchors, tsa_certificates)
    if reader is None:
        return verdict
    try:
        attached = attachments_of(reader)
    except Exception as error:
        verdict.fail(f"the PDF's attachments cannot be read ({type(error).__name__}: {error})")
        return verdict
    if SEGMENT not in attached:
        verdict.fail(f"the PDF carries no chain segment ({SEGMENT})")
        return verdict
    try:
        segment = json.loads(attached[SEGMENT])
        if segment.get("format") not in SEGMENT_FORMATS:
            raise ValueError(f"its format is {segment.get('format')!r}")
    except ValueError as error:
        verdict.fail(f"the chain segment cannot be read: {error}")
        return verdict
    jurisdiction = segment["property"].get("jurisdiction")
    verdict.note(
        f"{segment['report']['kind']} of {segment['property']['name']} (licence {segment['property']['licence']}"
        f"{f', jurisdiction {jurisdiction}' if jurisdiction else ''}), "
        f"{segment['report']['period_from']} to {segment['report']['period_to']}"
    )
    said = segment.get("chain") or {}
    if said.get("intact") is False:
        verdict.fail(
            f"when this report was made, the logbook's own check found its chain broken: {said.get('verdict')}"
        )
    elif said.get("intact") is None:
        verdict.fail("when this report was made, the logbook's chain was not verified")
    entries = check_segment(segment, verdict)
    if entries is None:
        return verdict
    check_checkpoints(segment, entries, keys, verdict, tsa_certificates)
    if photos:
        check_photos(entries, photos, verdict)
    if not segment["report"].get("rows_are_entries"):
        verdict.note(
            f"(the {segment['report']['kind']} report's rows are not logbook entries: its CSV and pages are "
            "covered by the PDF's signature only)"
        )
        return verdict
    csv_name = segment["report"]["csv"]
    if csv_name not in attached:
        verdict.fail(f"the PDF carries no CSV ({csv_name})")
    else:
        check_csv(segment, entries, attached[csv_name], verdict)
    check_pages(data, segment, entries, verdict)
    return verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="logbook-verify", description="Check a logbook report PDF offline (see logbook_proof.verify)."
    )
    parser.add_argument("report", help="the report PDF")
    parser.add_argument(
        "--key", action="append", required=True, help="a published checkpoint public key (PEM); repeat for several"
    )
    parser.add_argument(
        "--ca",
        action="append",
        help="the compliance CA's certificate (PEM, GET /api/report-ca/?format=pem): the trust root the signer "
        "must chain to; repeat for several",
    )
    parser.add_argument("--cert", help="a report-signing certificate you hold (PEM), trusted as it is")
    parser.add_argument("--tsa-cert", help="the timestamp authority's certificate (PEM), to trust its timestamps")
    parser.add_argument(
        "--photo",
        action="append",
        help="a photo's original file, checked against the SHA-256 its entry signs; repeat for several",
    )
    arguments = parser.parse_args(argv)
    try:
        verdict = verify(
            arguments.report, arguments.key, arguments.cert, arguments.tsa_cert, arguments.ca, arguments.photo
        )
    except Unusable as problem:
        print(f"Cannot check: {problem}", file=sys.stderr)
        return 2
    print("\n".join(verdict.lines))
    if verdict.failed:
        print("\nNOT VERIFIED: this report cannot be relied on (see FAILED above).")
        return 1
    print("\nVERIFIED: the report is as the logbook signed it, and its rows are the signed chain's.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
