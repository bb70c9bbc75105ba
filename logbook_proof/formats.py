"""The proof format, defined once: what the application writes and the verifier reads.

- Canonical JSON: keys sorted, no spaces, UTF-8 (`canonical`).
- An entry's hash: SHA-256(previous hash as 64 ASCII characters ‖ canonical {"body", "signatures"});
  each signature carries SHA-256(canonical body) (`body_hash`, `record_hash`); the first entry's
  previous hash is GENESIS.
- A checkpoint signs (Ed25519) the canonical JSON of its format's fields (`SIGNED_FIELDS`,
  `record_message`).
- The chain segment a report carries (`SEGMENT`, format `SEGMENT_FORMAT`): every entry from the one
  after the newest signed checkpoint before the period to the entry of the first signed checkpoint
  after it, and those checkpoints.
- The register's columns, in the CSV and on the printed pages (`REGISTER_LABELS`, `ROW_FIRST_LINE`),
  and each entry's cells as the register prints them (`expected_cells`).

Pure Python (the standard library only): the application imports it, and so does the verifier.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from zoneinfo import ZoneInfo

GENESIS = "0" * 64


def canonical(value) -> bytes:
    """One byte string per value: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def body_hash(body: dict) -> str:
    """The hash every signature of an entry carries: SHA-256 of its canonical body."""
    return sha256_hex(canonical(body))


def record_hash(*, prev_hash: str, body: dict, signatures: list[dict]) -> str:
    """An entry's hash: SHA-256(prev_hash ‖ canonical({"body", "signatures"}))."""
    return sha256_hex(prev_hash.encode() + canonical({"body": body, "signatures": signatures}))


# ---- Checkpoints ----

CHECKPOINT_FORMAT_1 = "logbook-checkpoint/1"
CHECKPOINT_FORMAT = "logbook-checkpoint/2"
# What each format signs. Format 2 binds the property's identity (its licence number and
# jurisdiction), not only its number; format-1 checkpoints (signed before) keep verifying.
SIGNED_FIELDS = {
    CHECKPOINT_FORMAT_1: ("format", "property", "seq", "entry_seq", "head", "signed_at", "key_id"),
    CHECKPOINT_FORMAT: (
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


def record_message(record: dict) -> bytes:
    """What a checkpoint record (as a report and the signer's ledger carry it) says was signed: the
    canonical JSON of its format's fields. ValueError for a format nobody defined."""
    fields = SIGNED_FIELDS.get(record.get("format", ""))
    if fields is None:
        raise ValueError(f"unknown checkpoint format {record.get('format')!r}")
    return canonical({name: record.get(name) for name in fields})


def key_id(raw_public_key: bytes) -> str:
    """A checkpoint key's id: the first 16 hex digits of SHA-256 of its raw Ed25519 public key."""
    return sha256_hex(raw_public_key)[:16]


# ---- The chain segment ----

SEGMENT = "chain-segment.json"
# Format 3 starts right after a signed checkpoint (or at the first entry) and ends on the first signed
# checkpoint after the period; format 2 (reports made before) named the jurisdiction beside the
# licence and ran to the report's own checkpoint; format 1 named the licence only.
SEGMENT_FORMAT = "logbook-chain-segment/3"
SEGMENT_FORMATS = ("logbook-chain-segment/1", "logbook-chain-segment/2", SEGMENT_FORMAT)

# ---- The register ----

# Each of the register's fields and its column's heading, in the CSV and the PDF.
REGISTER_LABELS = {
    "seq": "#",
    "date": "Date",
    "time": "Time",
    "table_number": "Table",
    "kind": "Entry (adjustment or replacement)",
    "part": "Part adjusted or replaced",
    "ball": "Ball change: ball taken off, ball put on",
    "description": "Description (and amendments)",
    "failed_items": "Checklist item(s) failed",
    "notes": "Notes (inspection, no spin)",
    "inspection_certified": "Inspection completed (certified)",
    "signatures": "Signature: name, credential no., meaning, date and time",
    "photos": "Photos (SHA-256 of each original)",
}
# The printed register's first cell: its heading, and the line that opens every row ("#12 · R-01").
ROW_FIRST_CELL = "#, table, date and time"
ROW_FIRST_LINE = "#{seq} · {table_number}"

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
CERTIFIED_WORDS = {True: "yes, every item passed", False: "no: an item failed"}

# What a CSV cell starting with is prefixed with a quote, so that a spreadsheet never runs it as a
# formula (OWASP, "CSV Injection"): OWASP's list, the line feed and NUL too (ASVS 1.2.10), and the
# full-width forms of the four signs, which some spreadsheets fold into the ASCII ones.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\0", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_cell(value) -> str:
    """One CSV cell as text, a leading single quote added where a spreadsheet would see a formula
    (leading spaces are skipped by some spreadsheets before they look for the sign)."""
    text = "" if value is None else str(value)
    return "'" + text if text.lstrip(" ").startswith(FORMULA_STARTS) else text


# The register's times name their zone ("01:25 EST", "2026-11-24 01:25 EST"); reports made before
# they did wrote "01:25:07" and "2026-11-24 01:25".
TIME_FORMAT, SIGNED_FORMAT = "%H:%M %Z", "%Y-%m-%d %H:%M %Z"
LEGACY_TIME_FORMAT, LEGACY_SIGNED_FORMAT = "%H:%M:%S", "%Y-%m-%d %H:%M"


def expected_cells(entry: dict, zone: ZoneInfo, *, legacy: bool = False) -> dict[str, str]:
    """An entry of a segment (its record) as the register prints it, field by field (the fields
    that come from the entry alone: the description without the amendments made to it since)."""
    body, signatures = entry["record"]["body"], entry["record"]["signatures"]
    local = datetime.fromisoformat(body["occurred_at"]).astimezone(zone)
    time_format, signed_format = (LEGACY_TIME_FORMAT, LEGACY_SIGNED_FORMAT) if legacy else (TIME_FORMAT, SIGNED_FORMAT)
    details = body.get("details") or {}
    kind = body["kind"]
    return {
        "seq": str(body["seq"]),
        "date": local.date().isoformat(),
        "time": local.strftime(time_format),
        "table_number": body["table_number"],
        "kind": KIND_WORDS.get(kind, kind),
        "part": details.get("part", "") if kind in ADJUSTMENT_KINDS else "",
        "notes": details.get("notes", "") if kind in NOTED_KINDS else "",
        "inspection_certified": CERTIFIED_WORDS.get(body.get("passed"), "") if kind == "inspection" else "",
        "signatures": "; ".join(
            f"{s['signer_name']}, {s['credential_number']}, {s['meaning']}, "
            f"{datetime.fromisoformat(s['signed_at']).astimezone(zone).strftime(signed_format)}"
            for s in signatures
        ),
    }
