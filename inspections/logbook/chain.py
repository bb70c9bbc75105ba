"""The per-property SHA-256 hash chain over a canonical serialisation of each entry.

entry_hash = SHA-256(prev_hash ‖ canonical({"body": body, "signatures": [...]}))
A signature stores SHA-256(canonical(body)), so it cannot be moved to another entry; the entry
hash covers the signatures, and each entry covers the one before it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone

from compliance.accounts.signatures import canonical
from inspections.logbook import checkpoints
from inspections.logbook.models import ChainHead, Checkpoint, Entry

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
    # The checkpoints: how many were checked, the last one the chain agrees with (seq, entry_seq),
    # and, when one is the problem, its number and what is wrong ("contradicted": a valid signature
    # over another head; "invalid", "missing", "uncovered", "unverifiable").
    checkpoints_checked: int = 0
    last_checkpoint: tuple[int, int] | None = None
    broken_checkpoint_seq: int | None = None
    checkpoint_problem: str = ""
    signed: bool = True  # False: no key ring configured, the chain was checked against itself only

    @property
    def ok(self) -> bool:
        return self.broken_seq is None and not self.checkpoint_problem

    @property
    def contradicted(self) -> bool:
        """A signed checkpoint says another history: this chain was rewritten after it was signed."""
        return self.checkpoint_problem == "contradicted"

    def as_text(self) -> str:
        if self.ok:
            signed = (
                f", {self.checkpoints_checked} signed checkpoints verified"
                + (f" (the last at entry #{self.last_checkpoint[1]})" if self.last_checkpoint else "")
                if self.signed
                else ", no checkpoint key configured: checked against itself only"
            )
            return f"property {self.property_id}: intact, {self.entries_checked} entries, head {self.head_hash}{signed}"
        where = f" at entry #{self.broken_seq}" if self.broken_seq else ""
        return (
            f"property {self.property_id}: BROKEN{where}"
            f"{f' (id {self.broken_entry_id})' if self.broken_entry_id else ''}: {self.reason}"
        )


def chain_verify(
    *,
    property_id: int,
    chunk_size: int = 2000,
    since: Checkpoint | None = None,
    upto: tuple[int, str] | None = None,
    now: datetime | None = None,
) -> ChainReport:
    """Recompute the property's chain from its first entry (or from the signed checkpoint `since`) and
    name the first broken entry; check every checkpoint's signature and timestamp, that the chain
    passes through each signed head, and that no entry older than twice the checkpoint interval is
    left uncovered by a signed checkpoint (deleted checkpoints). `upto` (length, head), as read
    under the chain's lock, bounds the walk: entries appended since are not this check's."""
    stored = ChainHead.objects.filter(property_id=property_id).first() or ChainHead(property_id=property_id)
    if upto is not None:
        stored = ChainHead(property_id=property_id, length=upto[0], head=upto[1])
    report = ChainReport(property_id=property_id, entries_checked=0, head_hash=GENESIS)
    prev_hash = GENESIS
    expected_seq = 1
    entries = Entry.objects.filter(property_id=property_id).order_by("seq").prefetch_related("signatures")
    signed = list(Checkpoint.objects.filter(property_id=property_id).order_by("seq"))
    if upto is not None:
        entries = entries.filter(seq__lte=upto[0])
        signed = [c for c in signed if c.entry_seq <= upto[0]]

    def broken(seq: int | None, entry_id: int | None, reason: str) -> ChainReport:
        report.broken_seq, report.broken_entry_id, report.reason = seq, entry_id, reason
        return report

    def checkpoint_broken(checkpoint: Checkpoint, problem: str, reason: str) -> ChainReport:
        report.broken_checkpoint_seq, report.checkpoint_problem = checkpoint.seq, problem
        return broken(checkpoint.entry_seq, None, f"{checkpoints.describe(checkpoint)} {reason}")

    try:
        keys = checkpoints.checkpoint_keys()
    except checkpoints.CheckpointKeyMissing as missing:
        keys = None
        report.signed = False
        if signed:
            report.checkpoint_problem = "unverifiable"
            return broken(None, None, f"{len(signed)} signed checkpoints cannot be checked: {missing}")
    if since is not None:
        signed = [since] + [c for c in signed if c.seq > since.seq]
    expected_checkpoint = signed[0].seq if since is not None and signed else 1
    at_entry: dict[int, Checkpoint] = {}
    for checkpoint in signed:
        if checkpoint.seq != expected_checkpoint:
            report.broken_checkpoint_seq, report.checkpoint_problem = expected_checkpoint, "missing"
            return broken(
                None, None, f"checkpoint #{expected_checkpoint} is missing (the next stored is #{checkpoint.seq})"
            )
        expected_checkpoint += 1
        check = checkpoints.checkpoint_check(checkpoint, keys or [])
        if not check.ok:
            return checkpoint_broken(checkpoint, "invalid", f"is not a valid signed checkpoint: {check.reason}")
        at_entry[checkpoint.entry_seq] = checkpoint  # a later one over the same entry repeats its head
        report.checkpoints_checked += 1
    if since is not None:
        start = Entry.objects.filter(property_id=property_id, seq=since.entry_seq).first()
        if start is None or start.entry_hash != since.head:
            return checkpoint_broken(
                since,
                "contradicted",
                f"says entry #{since.entry_seq} has the hash {since.head[:16]}…, the chain has "
                f"{start.entry_hash[:16] + '…' if start else 'no such entry'}: it was rewritten after it was signed",
            )
        report.last_checkpoint = (since.seq, since.entry_seq)
        prev_hash, expected_seq = since.head, since.entry_seq + 1
        report.entries_checked, report.head_hash = since.entry_seq, since.head
        entries = entries.filter(seq__gt=since.entry_seq)

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
        checkpoint = at_entry.get(entry.seq)
        if checkpoint is not None:
            if checkpoint.head != entry.entry_hash:
                # The red team's rewrite: every hash recomputed, but not the signature, which needs the key.
                return checkpoint_broken(
                    checkpoint,
                    "contradicted",
                    f"says entry #{entry.seq} has the hash {checkpoint.head[:16]}…, the chain has "
                    f"{entry.entry_hash[:16]}…: the history up to it was rewritten after it was signed",
                )
            report.last_checkpoint = (checkpoint.seq, checkpoint.entry_seq)
        prev_hash = entry.entry_hash
        expected_seq += 1
        report.entries_checked += 1
        report.head_hash = prev_hash
    beyond = [c for c in signed if c.entry_seq > report.entries_checked]
    if beyond:
        return checkpoint_broken(
            beyond[0],
            "contradicted",
            f"covers entry #{beyond[0].entry_seq}, but the chain ends at #{report.entries_checked}: entries were deleted",
        )
    if stored.length != report.entries_checked or stored.head != prev_hash:
        return broken(
            report.entries_checked + 1 if stored.length > report.entries_checked else report.entries_checked,
            None,
            f"the property's chain head says {stored.length} entries ending {stored.head[:12]}…, "
            f"the entries end at #{report.entries_checked} {prev_hash[:12]}…",
        )
    if keys is not None and since is None and upto is None:
        _uncovered(report, property_id=property_id, now=now or timezone.now(), broken=broken)
    return report


def _uncovered(report: ChainReport, *, property_id: int, now: datetime, broken) -> None:
    """Deleted checkpoints: the first entry no signed checkpoint covers, if it is older than twice the
    interval at which the logbook is checkpointed."""
    covered = report.last_checkpoint[1] if report.last_checkpoint else 0
    first = (
        Entry.objects.filter(property_id=property_id, seq__gt=covered)
        .order_by("seq")
        .only("pk", "seq", "recorded_at")
        .first()
    )
    limit = timedelta(minutes=2 * settings.LOGBOOK_CHECKPOINT_MINUTES)
    if first is not None and first.recorded_at < now - limit:
        report.checkpoint_problem = "uncovered"
        broken(
            first.seq,
            first.pk,
            f"entries from #{first.seq} on were recorded more than {limit.total_seconds() / 60:.0f} minutes ago "
            "and no signed checkpoint covers them: checkpoints were deleted, or none were made",
        )


def chain_segment(*, property_id: int, first_seq: int, last_seq: int, chunk_size: int = 2000) -> Iterator[dict]:
    """Entries #first_seq to #last_seq as a report carries them: each one's record (exactly what its
    hash covers after its previous hash: {"body", "signatures"}), its previous hash and its hash, so
    that anyone can recompute the hashes end to end without the database."""
    entries = (
        Entry.objects.filter(property_id=property_id, seq__gte=first_seq, seq__lte=last_seq)
        .order_by("seq")
        .prefetch_related("signatures")
    )
    for entry in entries.iterator(chunk_size=chunk_size):
        yield {
            "seq": entry.seq,
            "record": {
                "body": entry_body(entry),
                "signatures": [signature_record(signature) for signature in entry.signatures.all()],
            },
            "prev_hash": entry.prev_hash,
            "hash": entry.entry_hash,
        }
