"""The per-property SHA-256 hash chain over a canonical serialisation of each entry.

entry_hash = SHA-256(prev_hash ‖ canonical({"body": body, "signatures": [...]}))
A signature stores SHA-256(canonical(body)), so it cannot be moved to another entry; the entry
hash covers the signatures, and each entry covers the one before it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime

from compliance.accounts.signatures import canonical
from inspections.logbook.models import ChainHead, Entry

GENESIS = "0" * 64


def _time(value: datetime | None) -> str | None:
    return value.astimezone(UTC).isoformat(timespec="microseconds") if value else None


def entry_body(entry: Entry) -> dict:
    """What is signed: every column of the entry but its hashes."""
    return {
        "property": entry.property_id,
        "seq": entry.seq,
        "table": entry.table_id,
        "table_number": entry.table_number,
        "kind": entry.kind,
        "occurred_at": _time(entry.occurred_at),
        "recorded_at": _time(entry.recorded_at),
        "recorded_by": entry.recorded_by_id,
        "description": entry.description,
        "passed": entry.passed,
        "details": entry.details,
        "amends": entry.amends_id,
    }


def content_hash(entry: Entry) -> str:
    return hashlib.sha256(canonical(entry_body(entry))).hexdigest()


def signature_record(signature) -> dict:
    return {
        "signer": signature.signer_id,
        "signer_name": signature.signer_name,
        "credential_number": signature.credential_number,
        "meaning": signature.meaning,
        "signed_at": _time(signature.signed_at),
        "content_hash": signature.content_hash,
    }


def entry_hash(*, prev_hash: str, entry: Entry, signatures) -> str:
    payload = {"body": entry_body(entry), "signatures": [signature_record(s) for s in signatures]}
    return hashlib.sha256(prev_hash.encode() + canonical(payload)).hexdigest()


@dataclass
class ChainReport:
    property_id: int
    entries_checked: int
    head_hash: str
    broken_seq: int | None = None
    broken_entry_id: int | None = None
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.broken_seq is None

    def as_text(self) -> str:
        if self.ok:
            return f"property {self.property_id}: intact, {self.entries_checked} entries, head {self.head_hash}"
        return (
            f"property {self.property_id}: BROKEN at entry #{self.broken_seq}"
            f"{f' (id {self.broken_entry_id})' if self.broken_entry_id else ''}: {self.reason}"
        )


def chain_verify(*, property_id: int, chunk_size: int = 2000) -> ChainReport:
    """Recompute the property's chain from its first entry and name the first broken one."""
    stored = ChainHead.objects.filter(property_id=property_id).first() or ChainHead(property_id=property_id)
    report = ChainReport(property_id=property_id, entries_checked=0, head_hash=GENESIS)
    prev_hash = GENESIS
    expected_seq = 1
    entries = Entry.objects.filter(property_id=property_id).order_by("seq").prefetch_related("signatures")

    def broken(seq: int, entry_id: int | None, reason: str) -> ChainReport:
        report.broken_seq, report.broken_entry_id, report.reason = seq, entry_id, reason
        return report

    for entry in entries.iterator(chunk_size=chunk_size):
        if entry.seq != expected_seq:
            return broken(expected_seq, None, f"entry #{expected_seq} is missing (next stored is #{entry.seq})")
        if entry.prev_hash != prev_hash:
            return broken(entry.seq, entry.pk, "its previous-hash link does not match the entry before it")
        signatures = list(entry.signatures.all())
        body_hash = content_hash(entry)
        if not signatures:
            return broken(entry.seq, entry.pk, "it carries no signature")
        for signature in signatures:
            if signature.content_hash != body_hash:
                return broken(
                    entry.seq, entry.pk, f"the signature of {signature.signer_name} does not match its content"
                )
        if entry_hash(prev_hash=prev_hash, entry=entry, signatures=signatures) != entry.entry_hash:
            return broken(entry.seq, entry.pk, "its content or signatures changed after it was written")
        prev_hash = entry.entry_hash
        expected_seq += 1
        report.entries_checked += 1
        report.head_hash = prev_hash
    if stored.length != report.entries_checked or stored.head != prev_hash:
        return broken(
            report.entries_checked + 1 if stored.length > report.entries_checked else report.entries_checked,
            None,
            f"the property's chain head says {stored.length} entries ending {stored.head[:12]}…, "
            f"the entries end at #{report.entries_checked} {prev_hash[:12]}…",
        )
    return report
