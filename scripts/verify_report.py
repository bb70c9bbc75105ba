#!/usr/bin/env python3
"""Check a logbook report offline: no database, no server, no Django; Python 3.11 with pyHanko
(`pip install pyHanko`, which brings `cryptography`).

    python3 verify_report.py REPORT.pdf --key CHECKPOINT_KEY.pem [--key OLDER_KEY.pem]
                             --ca COMPLIANCE_CA.pem [--tsa-cert TSA.pem] [--photo PHOTO.jpg ...]

`--key`: the casino's published checkpoint public key(s), PEM (GET /api/checkpoint-keys/; one file
may hold several). `--ca`: the trust root the report's signer must chain to: the casino's compliance
CA certificate (GET /api/report-ca/?format=pem), or your own copy of the enterprise CA it names;
`--cert`: a report certificate you hold, trusted as it is (either or both; one is required: a
signer nobody vouches for is never accepted). `--tsa-cert`: the timestamp authority's certificate,
to trust its tokens. `--photo`: a photo's original file (as the logbook kept it, not the copy its
pages show), checked against the SHA-256 an entry of the segment signs; repeat for several.

What it checks, in this order, each answered in plain words:
1. every signature in the PDF: each one's bytes unchanged since it was made, the last one over the
   whole file, and each signer's certificate chaining to the trust root you gave (checked with
   pyHanko's certificate validator: issuer, validity, key usage);
2. the chain segment attached to the PDF (chain-segment.json): every entry's hash recomputed from its
   record and the previous hash, end to end, and every signature bound to its entry's content;
3. the signed checkpoints attached with it: each one's Ed25519 signature by one of your keys (and
   its RFC 3161 timestamp, if it carries one), for the licence and jurisdiction the report names; the
   chain passes through every signed head, and the segment ends on a signed checkpoint;
4. the CSV attached to the PDF against the segment: every row is its entry, cell by cell, and every
   entry of the period is a row.
Exit status: 0 when everything checks, 1 when anything does not (each failure says what), 2 when the
command itself is wrong (a file that cannot be read, a key that is not one).

The hashes, as the logbook makes them: entry hash = SHA-256(previous hash as 64 ASCII characters ‖
canonical JSON of {"body", "signatures"}); a signature's content_hash = SHA-256(canonical JSON of
the body); a checkpoint signs the canonical JSON of {"format", "property", "licence", "jurisdiction",
"seq", "entry_seq", "head", "signed_at", "key_id"} (format 2; format 1, signed before the property's
licence and jurisdiction were bound, lacks those two), and they must be the licence and jurisdiction
the report names. Canonical JSON: keys sorted, no spaces, UTF-8.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from csv import DictReader  # reads the report's CSV; writes none
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

SEGMENT = "chain-segment.json"
# Format 2 of the segment names the property's jurisdiction beside its licence; format 2 of a
# checkpoint signs them both (a format-1 checkpoint, signed before, signs the property's number only).
SEGMENT_FORMATS = ("logbook-chain-segment/1", "logbook-chain-segment/2")
CHECKPOINT_FIELDS = {
    "logbook-checkpoint/1": ("format", "property", "seq", "entry_seq", "head", "signed_at", "key_id"),
    "logbook-checkpoint/2": (
        "format",
        "property",
        "licence",
        "jurisdiction",
        "seq",
        "entry_seq",
        "head",
        "signed_at",
        "key_id",
    ),
}
GENESIS = "0" * 64

# The register's columns as the report prints them, and the words for the entries' kinds.
COLUMNS = {
    "seq": "#",
    "date": "Date",
    "time": "Time",
    "table": "Table",
    "kind": "Entry (adjustment or replacement)",
    "part": "Part adjusted or replaced",
    "description": "Description (and amendments)",
    "failed": "Checklist item(s) failed",
    "notes": "Notes (inspection, no spin)",
    "certified": "Inspection completed (certified)",
    "signatures": "Signature: name, credential no., meaning, date and time",
}
KIND_WORDS = {
    "unlock": "Wheel unlocked",
    "open": "Table opened",
    "close": "Table closed",
    "cover": "Wheel covered and locked",
    "inspection": "Inspection",
    "adjustment": "Adjustment",
    "replacement": "Replacement",
    "irregularity": "Irregularity",
    "deck_change": "Deck change",
    "amendment": "Amendment",
}
ADJUSTMENT_KINDS = ("adjustment", "replacement")
NOTED_KINDS = ("inspection", "irregularity")
# What the report's CSV writer prefixes with a quote, so that a spreadsheet never runs it as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\0", "\uff1d", "\uff0b", "\uff0d", "\uff20")


class Unusable(Exception):
    """The command cannot run as asked (exit status 2)."""


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
    """Every Ed25519 public key in the files, by key id (the first 16 hex digits of SHA-256 of the raw key)."""
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
            keys[sha256(raw)[:16]] = key
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


# ---- 1. The PDF and its signature ----


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


def cms_check(signed_data, digest: bytes) -> tuple[bool, str, object]:
    """A CMS SignedData's first signer: its signed attributes name `digest` as the signed content's,
    and its signature over them verifies with its certificate. Answers (ok, why not, the certificate)."""
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa

    signer = signed_data["signer_infos"][0]
    certificates = [c.chosen for c in signed_data["certificates"] if c.name == "certificate"]
    sid = signer["sid"]
    certificate = certificates[0] if certificates else None
    if sid.name == "issuer_and_serial_number":
        wanted = sid.chosen
        certificate = next(
            (
                c
                for c in certificates
                if c.issuer == wanted["issuer"] and c.serial_number == wanted["serial_number"].native
            ),
            certificate,
        )
    if certificate is None:
        return False, "it carries no certificate", None
    attributes = {attribute["type"].native: attribute["values"][0] for attribute in signer["signed_attrs"]}
    if "message_digest" not in attributes or attributes["message_digest"].native != digest:
        return False, "what it signed is not these bytes", certificate
    # The signed attributes are signed as a SET (RFC 5652 § 5.4), not with their [0] tag.
    message = b"\x31" + signer["signed_attrs"].dump()[1:]
    algorithm = signer["digest_algorithm"]["algorithm"].native
    hash_algorithm = {"sha256": hashes.SHA256(), "sha384": hashes.SHA384(), "sha512": hashes.SHA512()}.get(algorithm)
    if hash_algorithm is None:
        return False, f"its digest algorithm {algorithm} is not one this check knows", certificate
    key = x509.load_der_x509_certificate(certificate.dump()).public_key()
    signature = signer["signature"].native
    try:
        if isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, message, ec.ECDSA(hash_algorithm))
        elif isinstance(key, rsa.RSAPublicKey):
            if signer["signature_algorithm"]["algorithm"].native == "rsassa_pss":
                key.verify(
                    signature,
                    message,
                    padding.PSS(padding.MGF1(hash_algorithm), hash_algorithm.digest_size),
                    hash_algorithm,
                )
            else:
                key.verify(signature, message, padding.PKCS1v15(), hash_algorithm)
        elif isinstance(key, ed25519.Ed25519PublicKey):
            key.verify(signature, message)
        else:
            return False, "its key is of a kind this check does not know", certificate
    except InvalidSignature:
        return False, "its signature does not verify", certificate
    return True, "", certificate


def trusted_by(certificate, anchors: list) -> bool:
    """The certificate is one of `anchors`, or directly issued by one of them."""
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature

    if any(certificate.dump() == anchor.dump() for anchor in anchors):
        return True
    issued = x509.load_der_x509_certificate(certificate.dump())
    for anchor in anchors:
        try:
            issued.verify_directly_issued_by(x509.load_der_x509_certificate(anchor.dump()))
        except (ValueError, TypeError, InvalidSignature):  # not its issuer
            pass
        else:
            return True
    return False


def timestamp_check(token: bytes, stamped: bytes, tsa_certificates: list) -> tuple[bool, str]:
    """An RFC 3161 token: its TSTInfo is about SHA-256(stamped), signed by the authority's
    certificate (one of `tsa_certificates` or issued by one, when given). Answers (ok, words)."""
    from asn1crypto import cms, tsp

    try:
        signed_data = cms.ContentInfo.load(token)["content"]
        content = signed_data["encap_content_info"]["content"]
        info = tsp.TSTInfo.load(content.contents if hasattr(content, "contents") else bytes(content))
        algorithm = info["message_imprint"]["hash_algorithm"]["algorithm"].native
        digest_algorithm = signed_data["signer_infos"][0]["digest_algorithm"]["algorithm"].native
        ok, reason, certificate = cms_check(signed_data, hashlib.new(digest_algorithm, info.dump()).digest())
    except (ValueError, KeyError, TypeError, IndexError) as error:
        return False, f"its timestamp cannot be read ({error})"
    if not ok:
        return False, f"its timestamp: {reason}"
    if info["message_imprint"]["hashed_message"].native != hashlib.new(algorithm, stamped).digest():
        return False, "its timestamp is not about its signature"
    authority = certificate.subject.human_friendly
    if tsa_certificates and not trusted_by(certificate, tsa_certificates):
        return False, f"its timestamp is by {authority}, not the authority you gave (--tsa-cert)"
    return True, f"timestamped by {authority} at {info['gen_time'].native:%Y-%m-%d %H:%M:%S} UTC"


def signature_dictionaries(reader) -> list:
    """The PDF's signature values (/V of its /Sig fields), in the order of its form's fields."""
    form = reader.root.get("/AcroForm")
    found = []

    def walk(fields) -> None:
        for reference in fields:
            field = reference.get_object()
            if field.get("/FT") == "/Sig" and "/V" in field:
                found.append(field["/V"].get_object())
            walk(field.get("/Kids", []))

    if form is not None:
        walk(form.get_object().get("/Fields", []))
    return found


def chains_to(certificate, carried: list, anchors: list) -> tuple[bool, str]:
    """The signer's certificate has a valid path to one of `anchors` (the certificates the signature
    carries may be its intermediates): pyHanko's certificate validator, offline. Answers (ok, why not)."""
    import asyncio

    from pyhanko_certvalidator import CertificateValidator, ValidationContext

    if any(certificate.dump() == anchor.dump() for anchor in anchors):
        return True, ""  # the very certificate you gave (--cert)
    context = ValidationContext(trust_roots=anchors, allow_fetching=False, revocation_mode="soft-fail")
    validator = CertificateValidator(certificate, intermediate_certs=carried, validation_context=context)
    try:
        asyncio.run(validator.async_validate_usage({"digital_signature"}))
    except Exception as error:  # path building, validity, usage: each says why
        return False, str(error) or type(error).__name__
    return True, ""


def check_pdf_signature(data: bytes, verdict: Verdict, anchors: list, tsa_certificates: list):
    """Every signature of the PDF; answers the reader, or None.

    Checked here with asn1crypto and cryptography (pyHanko reads the file and validates the
    certificate path): each signed byte range starts the file and the last one is the whole file but
    the signature itself, its SHA-256 is what the CMS signature signed, that signature verifies with
    the certificate it carries, and that certificate chains to one of `anchors`."""
    from pyhanko.pdf_utils.reader import PdfFileReader

    try:
        reader = PdfFileReader(io.BytesIO(data), strict=False)
        signatures = signature_dictionaries(reader)
    except Exception as error:  # a damaged file fails in many ways, each a reason
        verdict.fail(f"the file is not a readable PDF ({type(error).__name__}: {error})")
        return None
    if not signatures:
        verdict.fail("the PDF carries no signature: it is not a signed report")
        return reader
    for number, signature in enumerate(signatures, start=1):
        check_one_signature(
            data,
            signature,
            verdict,
            anchors,
            tsa_certificates,
            last=number == len(signatures),
            name="the PDF's signature"
            if len(signatures) == 1
            else f"the PDF's signature {number} of {len(signatures)}",
        )
    return reader


def check_one_signature(
    data: bytes, signature, verdict: Verdict, anchors: list, tsa_certificates: list, *, last: bool, name: str
) -> None:
    from asn1crypto import cms

    try:
        start, first, second, length = (int(number) for number in signature["/ByteRange"])
        contents = bytes(signature["/Contents"])
        signed_data = cms.ContentInfo.load(contents)["content"]
    except Exception as error:
        verdict.fail(f"{name} cannot be read ({type(error).__name__}: {error})")
        return
    if (
        start != 0
        or second + length > len(data)
        or (last and second + length != len(data))
        or data[first : first + 1] != b"<"
        or data[second - 1 : second] != b">"
    ):
        verdict.fail(f"{name} does not cover the whole file: something was added or moved after it")
        return
    if signature.get("/Type") == "/DocTimeStamp":
        # A document timestamp (PAdES B-LTA): an RFC 3161 token over the bytes it covers.
        stamped, words = timestamp_check(contents, data[:first] + data[second : second + length], tsa_certificates)
        what = "the PDF" if last else "its revision"
        if stamped:
            verdict.ok(f"{what} has not changed since its document timestamp, {words}")
        else:
            verdict.fail(f"{name}, a document timestamp: {words}")
        return
    digest_algorithm = signed_data["signer_infos"][0]["digest_algorithm"]["algorithm"].native
    digest = hashlib.new(digest_algorithm)
    digest.update(data[:first])
    digest.update(data[second : second + length])
    ok, reason, certificate = cms_check(signed_data, digest.digest())
    who = certificate.subject.human_friendly if certificate is not None else "nobody"
    if not ok and reason == "what it signed is not these bytes":
        verdict.fail(f"the PDF was changed after {who} signed it: its bytes no longer match the signature")
        return
    if not ok:
        verdict.fail(f"{name} by {who} is not valid: {reason}")
        return
    when = ""
    unsigned = signed_data["signer_infos"][0]["unsigned_attrs"]
    for attribute in unsigned if unsigned.native else []:
        if attribute["type"].native == "signature_time_stamp_token":
            stamped, words = timestamp_check(
                attribute["values"][0].dump(), signed_data["signer_infos"][0]["signature"].native, tsa_certificates
            )
            if not stamped:
                verdict.fail(f"{name}: {words}")
                return
            when = f", {words}"
    what = "the PDF" if last else "its revision"
    verdict.ok(f"{what} is signed by {who} and has not changed since it was signed{when}")
    carried = [c.chosen for c in signed_data["certificates"] if c.name == "certificate"]
    trusted, why = chains_to(certificate, carried, anchors)
    if trusted:
        verdict.ok(f"the signer's certificate chains to the trust root you gave (--ca/--cert): {who}")
    else:
        verdict.fail(
            f"the PDF is signed by {who}, whose certificate does not chain to the trust root you gave "
            f"(--ca/--cert): {why}"
        )


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
        body_hash = sha256(canonical(record["body"]))
        for signature in record["signatures"]:
            if signature["content_hash"] != body_hash:
                verdict.fail(
                    f"entry #{seq}: the signature of {signature['signer_name']} does not match the entry's content"
                )
                return None
        if not record["signatures"]:
            verdict.fail(f"entry #{seq} carries no signature")
            return None
        if sha256(entry["prev_hash"].encode() + canonical(record)) != entry["hash"]:
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
    last_seq = max(entries)
    valid = []
    for record in checkpoints:
        name = f"checkpoint #{record['seq']} (entry #{record['entry_seq']}, signed {record['signed_at']})"
        key = keys.get(record["key_id"])
        if key is None:
            verdict.fail(f"{name} is signed by key {record['key_id']}, which is none of the keys you gave (--key)")
            continue
        fields = CHECKPOINT_FIELDS.get(record.get("format"))
        if fields is None:
            verdict.fail(f"{name} is in a format this verifier does not know ({record.get('format')!r})")
            continue
        message = canonical({name: record.get(name) for name in fields})
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
            stamped, words = timestamp_check(
                bytes.fromhex(record["timestamp_token"]), bytes.fromhex(record["signature"]), tsa_certificates
            )
            if not stamped:
                verdict.fail(f"{name}: {words}")
                continue
        else:
            words = f"no trusted timestamp ({record.get('timestamp_note') or 'none asked for'})"
        entry = entries.get(record["entry_seq"])
        if entry is not None and entry["hash"] != record["head"]:
            verdict.fail(
                f"{name} says entry #{record['entry_seq']} has the hash {record['head'][:16]}…, the segment has "
                f"{entry['hash'][:16]}…: the history was rewritten after it was signed"
            )
            continue
        verdict.ok(f"{name} is signed by key {record['key_id']}; {words}")
        valid.append(record)
    ending = [
        record for record in valid if record["entry_seq"] == last_seq and record["head"] == entries[last_seq]["hash"]
    ]
    if ending:
        verdict.ok(
            f"the segment ends on signed checkpoint #{ending[-1]['seq']}: entry #{last_seq}, hash {entries[last_seq]['hash']}"
        )
    else:
        verdict.fail(f"the segment does not end on a signed checkpoint (it ends at entry #{last_seq})")


# ---- 4. The CSV against the segment ----


def cell(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.lstrip(" ").startswith(FORMULA_STARTS) else text


# The register's times name their zone ("01:25 EST", "2026-11-24 01:25 EST"); reports made before
# they did wrote "01:25:07" and "2026-11-24 01:25", and still verify.
TIME_FORMAT, SIGNED_FORMAT = "%H:%M %Z", "%Y-%m-%d %H:%M %Z"
LEGACY_TIME_FORMAT, LEGACY_SIGNED_FORMAT = "%H:%M:%S", "%Y-%m-%d %H:%M"


def expected_cells(entry: dict, zone: ZoneInfo, *, legacy: bool = False) -> dict[str, str]:
    body, signatures = entry["record"]["body"], entry["record"]["signatures"]
    local = datetime.fromisoformat(body["occurred_at"]).astimezone(zone)
    time_format, signed_format = (LEGACY_TIME_FORMAT, LEGACY_SIGNED_FORMAT) if legacy else (TIME_FORMAT, SIGNED_FORMAT)
    details = body.get("details") or {}
    kind = body["kind"]
    passed = body.get("passed")
    return {
        "seq": str(body["seq"]),
        "date": local.date().isoformat(),
        "time": local.strftime(time_format),
        "table": body["table_number"],
        "kind": KIND_WORDS.get(kind, kind),
        "part": details.get("part", "") if kind in ADJUSTMENT_KINDS else "",
        "notes": details.get("notes", "") if kind in NOTED_KINDS else "",
        "certified": {True: "yes, every item passed", False: "no: an item failed"}.get(passed, "")
        if kind == "inspection"
        else "",
        "signatures": "; ".join(
            f"{s['signer_name']}, {s['credential_number']}, {s['meaning']}, "
            f"{datetime.fromisoformat(s['signed_at']).astimezone(zone).strftime(signed_format)}"
            for s in signatures
        ),
    }


def check_csv(segment: dict, entries: dict[int, dict], csv_bytes: bytes, verdict: Verdict) -> None:
    report = segment["report"]
    if not report.get("rows_are_entries"):
        verdict.note(
            f"(the {report['kind']} report's rows are not logbook entries: the CSV is covered by the PDF's signature only)"
        )
        return
    zone = ZoneInfo(segment["property"]["time_zone"])
    rows = list(DictReader(io.StringIO(csv_bytes.decode("utf-8"))))
    problems = []
    seen = set()
    for number, row in enumerate(rows, start=2):  # line 1 is the header
        try:
            seq = int(row.get(COLUMNS["seq"], ""))
        except ValueError:
            problems.append(f"line {number}: its entry number {row.get(COLUMNS['seq'])!r} is not a number")
            continue
        entry = entries.get(seq)
        if entry is None:
            problems.append(f"line {number}: entry #{seq} is not in the signed chain segment")
            continue
        seen.add(seq)
        legacy = expected_cells(entry, zone, legacy=True)
        for name, value in expected_cells(entry, zone).items():
            if row.get(COLUMNS[name]) not in (cell(value), cell(legacy[name])):
                problems.append(
                    f"line {number} (entry #{seq}): {COLUMNS[name]!r} says {row.get(COLUMNS[name])!r}, the entry says {cell(value)!r}"
                )
        description = cell(entry["record"]["body"]["description"])
        written = row.get(COLUMNS["description"], "")
        if written != description and not written.startswith(description + " — "):
            problems.append(
                f"line {number} (entry #{seq}): the description says {written!r}, the entry says {description!r}"
            )
        failed = any(not ok for ok in (entry["record"]["body"].get("details") or {}).get("items", {}).values())
        if bool(row.get(COLUMNS["failed"])) != failed:
            problems.append(f"line {number} (entry #{seq}): the failed checklist items do not match the entry's")
    start, end = datetime.fromisoformat(report["period_start"]), datetime.fromisoformat(report["period_end"])
    tables = set(report.get("tables") or [])
    due = {
        seq
        for seq, entry in entries.items()
        if start <= datetime.fromisoformat(entry["record"]["body"]["occurred_at"]) < end
        and (not tables or entry["record"]["body"]["table"] in tables)
    }
    for seq in sorted(due - seen):
        problems.append(f"entry #{seq} belongs to the report's period but is not in the CSV")
    if len(rows) != len(seen):
        problems.append(f"the CSV has {len(rows)} rows for {len(seen)} distinct entries")
    if problems:
        verdict.fail(f"the CSV ({report['csv']}) does not match the signed chain segment:")
        for problem in problems[:20]:
            verdict.note(problem)
        if len(problems) > 20:
            verdict.note(f"… and {len(problems) - 20} more")
    else:
        verdict.ok(f"the CSV's {len(rows)} rows are the segment's entries of the period, cell by cell")


# ---- Photos given with the report ----


def check_photos(entries: dict[int, dict], photos: dict[str, bytes], verdict: Verdict) -> None:
    """Each photo file given is one an entry of the segment signs: its SHA-256 is in the entry's signed
    details ("photos"), which the entry's hash and signatures cover (checked above)."""
    signed: dict[str, list[tuple[int, int]]] = {}
    for seq, entry in entries.items():
        for number, photo in enumerate((entry["record"]["body"].get("details") or {}).get("photos") or [], start=1):
            signed.setdefault(photo.get("sha256", ""), []).append((seq, number))
    for path, data in photos.items():
        digest = sha256(data)
        name = Path(path).name
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
    reader = check_pdf_signature(data, verdict, anchors, tsa_certificates)
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
    csv_name = segment["report"]["csv"]
    if csv_name not in attached:
        verdict.fail(f"the PDF carries no CSV ({csv_name})")
    else:
        check_csv(segment, entries, attached[csv_name], verdict)
    return verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a logbook report PDF offline (see the top of this file).")
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
