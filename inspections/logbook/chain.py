"""The per-property SHA-256 hash chain over a canonical serialisation of each entry.

entry_hash = SHA-256(prev_hash ‖ canonical({"body": body, "signatures": [...]}))
A signature stores SHA-256(canonical(body)), so it cannot be moved to another entry; the entry
hash covers the signatures, and each entry covers the one before it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone

from compliance.casinos.models import Property
from inspections.logbook import checkpoints, ledger
from inspections.logbook.models import ChainHead, Checkpoint, Entry, Signature
from logbook_proof.formats import GENESIS, body_hash, record_hash  # the hashes, defined once


def _time(value: datetime | None) -> str | None:
    return value.astimezone(UTC).isoformat(timespec="microseconds") if value else None


# The columns a chained entry and a signature are read with (`values(*ENTRY_COLUMNS)`): an entry's
# body and hash are computed from such a row exactly as from a model instance.
ENTRY_COLUMNS = (
    "id",
    "property_id",
    "seq",
    "table_id",
    "table_number",
    "kind",
    "occurred_at",
    "recorded_at",
    "recorded_by_id",
    "description",
    "passed",
    "details",
    "amends_id",
    "prev_hash",
    "entry_hash",
)
SIGNATURE_COLUMNS = ("signer_id", "signer_name", "credential_number", "meaning", "signed_at", "content_hash")


def body_of(row: Mapping) -> dict:
    """What is signed, from an entry's row (its columns by attribute name, as ENTRY_COLUMNS)."""
    return {
        "property": row["property_id"],
        "seq": row["seq"],
        "table": row["table_id"],
        "table_number": row["table_number"],
        "kind": row["kind"],
        "occurred_at": _time(row["occurred_at"]),
        "recorded_at": _time(row["recorded_at"]),
        "recorded_by": row["recorded_by_id"],
        "description": row["description"],
        "passed": row["passed"],
        "details": row["details"],
        "amends": row["amends_id"],
    }


def signature_record_of(row: Mapping) -> dict:
    """A signature as the entry's hash covers it, from its row (SIGNATURE_COLUMNS)."""
    return {
        "signer": row["signer_id"],
        "signer_name": row["signer_name"],
        "credential_number": row["credential_number"],
        "meaning": row["meaning"],
        "signed_at": _time(row["signed_at"]),
        "content_hash": row["content_hash"],
    }


def _attributes(instance, names) -> dict:
    return {name: getattr(instance, name) for name in names}


def entry_body(entry: Entry) -> dict:
    """What is signed: every column of the entry but its hashes."""
    return body_of(_attributes(entry, ENTRY_COLUMNS[1:13]))


def content_hash(entry: Entry) -> str:
    return body_hash(entry_body(entry))


def signature_record(signature) -> dict:
    return signature_record_of(_attributes(signature, SIGNATURE_COLUMNS))


def entry_hash(*, prev_hash: str, entry: Entry, signatures) -> str:
    return record_hash(
        prev_hash=prev_hash, body=entry_body(entry), signatures=[signature_record(s) for s in signatures]
    )


def chain_rows(
    *, property_id: int, after_seq: int = 0, upto_seq: int | None = None, chunk_size: int = 2000
) -> Iterator[tuple[dict, list[dict]]]:
    """The property's entries after #after_seq (to #upto_seq), in chain order, as rows (dicts of
    ENTRY_COLUMNS) with their signatures' rows in signing order: no model instance is built. Read
    in keyset chunks of `chunk_size` (two queries a chunk, each by an index), so a walk holds one
    chunk in memory and reads only the entries it walks."""
    last = after_seq
    while upto_seq is None or last < upto_seq:
        entries = Entry.objects.filter(property_id=property_id, seq__gt=last)
        if upto_seq is not None:
            entries = entries.filter(seq__lte=upto_seq)
        batch = list(entries.order_by("seq").values(*ENTRY_COLUMNS)[:chunk_size])
        if not batch:
            return
        signed: dict[int, list[dict]] = {}
        for signature in (
            Signature.objects.filter(entry_id__in=[row["id"] for row in batch])
            .order_by("entry_id", "id")
            .values("entry_id", *SIGNATURE_COLUMNS)
        ):
            signed.setdefault(signature["entry_id"], []).append(signature)
        for row in batch:
            yield row, signed.get(row["id"], [])
        if len(batch) < chunk_size:
            return
        last = batch[-1]["seq"]


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
    # Against a checkpoint known outside the database (the signer's ledger, a regulator's): how many
    # entries and checkpoints it signed that the database no longer holds.
    missing_entries: int = 0
    missing_checkpoints: int = 0
    # Where the walk started: the signed checkpoint it trusted (None: the first entry), and how many
    # entries it read (re-hashed), which is what the check costs.
    start: Checkpoint | None = None
    rows_read: int = 0
    # The history losses an operator accepted after a restore (the signer's ledger keeps them): said always.
    losses: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.broken_seq is None and not self.checkpoint_problem

    @property
    def contradicted(self) -> bool:
        """A signed checkpoint says another history: this chain was rewritten after it was signed, lost
        history the signer signed ("missing_history"), or belongs to another property ("identity")."""
        return self.checkpoint_problem in ("contradicted", "missing_history", "identity")

    def as_text(self) -> str:
        if self.ok:
            signed = (
                f", {self.checkpoints_checked} signed checkpoints verified"
                + (f" (the last at entry #{self.last_checkpoint[1]})" if self.last_checkpoint else "")
                if self.signed
                else ", no checkpoint key configured: checked against itself only"
            )
            lost = "".join(f"\n  {loss}" for loss in self.losses)
            return f"property {self.property_id}: intact, {self.entries_checked} entries, head {self.head_hash}{signed}{lost}"
        where = f" at entry #{self.broken_seq}" if self.broken_seq else ""
        return (
            f"property {self.property_id}: BROKEN{where}"
            f"{f' (id {self.broken_entry_id})' if self.broken_entry_id else ''}: {self.reason}"
            + "".join(f"\n  {loss}" for loss in self.losses)
        )


@dataclass(frozen=True)
class HistoryCheck:
    ok: bool
    problem: str = ""  # "invalid", "identity", "missing_history", "contradicted"
    reason: str = ""
    missing_entries: int = 0
    missing_checkpoints: int = 0


def _identity(property_id: int) -> tuple[str, str] | None:
    return Property.objects.filter(pk=property_id).values_list("licence_number", "jurisdiction").first()


def identity_problem(record: dict, identity: tuple[str, str] | None) -> str:
    """Why a format-2 checkpoint record is not this property's as the database now says it is ("": it is)."""
    if record.get("format") != checkpoints.FORMAT or identity is None:
        return ""
    if (record.get("licence"), record.get("jurisdiction")) == identity:
        return ""
    return (
        f"was signed for licence {record.get('licence')} ({record.get('jurisdiction')}), but property "
        f"{record['property']} now says licence {identity[0]} ({identity[1]}): the property's identity was "
        "changed in the database"
    )


def known_checkpoint_check(*, property_id: int, record: dict, keys, source: str) -> HistoryCheck:
    """The database against a checkpoint known outside it (`record`, as checkpoints.checkpoint_record
    makes it: the signer's ledger, or one a regulator holds): its signature, the property's identity,
    and that the database still holds what it signed: its entry with its head, its checkpoint, and
    every entry and checkpoint before them. Says how many entries and checkpoints are missing."""
    seq, entry_seq, head = record.get("seq"), record.get("entry_seq"), record.get("head")
    name = f"{source} (checkpoint #{seq} over entry #{entry_seq}, signed {record.get('signed_at')})"
    check = checkpoints.record_check(record, keys)
    if not check.ok:
        return HistoryCheck(False, "invalid", f"{name} is not a valid signed checkpoint: {check.reason}")
    seq, entry_seq, head = int(record["seq"]), int(record["entry_seq"]), str(record["head"])  # as signed
    if record.get("property") != property_id:
        return HistoryCheck(False, "invalid", f"{name} is property {record.get('property')}'s, not this one's")
    wrong = identity_problem(record, _identity(property_id))
    if wrong:
        return HistoryCheck(False, "identity", f"{name} {wrong}")
    last_entry = Entry.objects.filter(property_id=property_id).order_by("-seq").values_list("seq", flat=True).first()
    last_checkpoint = (
        Checkpoint.objects.filter(property_id=property_id).order_by("-seq").values_list("seq", flat=True).first()
    )
    missing_entries = max(entry_seq - (last_entry or 0), 0)
    missing_checkpoints = max(seq - (last_checkpoint or 0), 0)
    if missing_entries or missing_checkpoints:
        return HistoryCheck(
            False,
            "missing_history",
            f"history is missing: {name} was signed, but the database's entries end at "
            f"#{last_entry or 0} and its checkpoints at #{last_checkpoint or 0}: {missing_entries} entries and "
            f"{missing_checkpoints} checkpoints are missing (deleted, or an older backup restored)",
            missing_entries,
            missing_checkpoints,
        )
    entry = Entry.objects.filter(property_id=property_id, seq=entry_seq).values_list("entry_hash", flat=True).first()
    if entry != head:
        return HistoryCheck(
            False,
            "contradicted",
            f"{name} says entry #{entry_seq} has the hash {str(head)[:16]}…, the database has {str(entry)[:16]}…: "
            "the history was rewritten after it was signed",
        )
    stored = Checkpoint.objects.filter(property_id=property_id, seq=seq).values_list("signature", flat=True).first()
    if stored != record.get("signature"):
        return HistoryCheck(
            False, "contradicted", f"{name}: the database's checkpoint #{seq} is another one: it was replaced"
        )
    return HistoryCheck(True)


def chain_verify(
    *,
    property_id: int,
    chunk_size: int = 2000,
    since: Checkpoint | None = None,
    upto: tuple[int, str] | None = None,
    now: datetime | None = None,
    known: Sequence[tuple[str, dict]] = (),
) -> ChainReport:
    """Recompute the property's chain from its first entry (or from the signed checkpoint `since`) and
    name the first broken entry; check every checkpoint's signature and timestamp, that the chain
    passes through each signed head, and that no entry older than twice the checkpoint interval is
    left uncovered by a signed checkpoint (deleted checkpoints). `upto` (length, head), as read
    under the chain's lock, bounds the walk: entries appended since are not this check's. `known`:
    checkpoint records held outside the database, each with where it comes from, checked first
    (known_checkpoint_check): the signer's ledger, a regulator's."""
    stored = ChainHead.objects.filter(property_id=property_id).first() or ChainHead(property_id=property_id)
    if upto is not None:
        stored = ChainHead(property_id=property_id, length=upto[0], head=upto[1])
    report = ChainReport(property_id=property_id, entries_checked=0, head_hash=GENESIS, start=since)
    prev_hash = GENESIS
    expected_seq = 1
    # From `since` on, only the checkpoints after it are read: the walk never reads what lies before.
    stored_checkpoints = Checkpoint.objects.filter(property_id=property_id).order_by("seq")
    if upto is not None:
        stored_checkpoints = stored_checkpoints.filter(entry_seq__lte=upto[0])
    if since is not None:
        stored_checkpoints = stored_checkpoints.filter(seq__gt=since.seq)
    signed = list(stored_checkpoints)

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
    for source, record in known:
        if keys is None:
            report.checkpoint_problem = "unverifiable"
            return broken(None, None, f"{source} cannot be checked: no checkpoint key ring is configured")
        held = known_checkpoint_check(property_id=property_id, record=record, keys=keys, source=source)
        if not held.ok:
            report.checkpoint_problem, report.broken_checkpoint_seq = held.problem, record.get("seq")
            report.missing_entries, report.missing_checkpoints = held.missing_entries, held.missing_checkpoints
            return broken(None, None, held.reason)
    identity = _identity(property_id)
    if since is not None:
        signed = [since, *signed]
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
        wrong = identity_problem(checkpoints.checkpoint_record(checkpoint), identity)
        if wrong:
            return checkpoint_broken(checkpoint, "identity", wrong)
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

    rows = chain_rows(
        property_id=property_id,
        after_seq=expected_seq - 1,
        upto_seq=upto[0] if upto is not None else None,
        chunk_size=chunk_size,
    )
    for row, signatures in rows:
        seq, entry_id = row["seq"], row["id"]
        report.rows_read += 1
        if seq != expected_seq:
            return broken(expected_seq, None, f"entry #{expected_seq} is missing (next stored is #{seq})")
        if row["prev_hash"] != prev_hash:
            return broken(seq, entry_id, "its previous-hash link does not match the entry before it")
        body = body_of(row)
        signed_content = body_hash(body)
        if not signatures:
            return broken(seq, entry_id, "it carries no signature")
        for signature in signatures:
            if signature["content_hash"] != signed_content:
                return broken(seq, entry_id, f"the signature of {signature['signer_name']} does not match its content")
        records = [signature_record_of(signature) for signature in signatures]
        if record_hash(prev_hash=prev_hash, body=body, signatures=records) != row["entry_hash"]:
            return broken(seq, entry_id, "its content or signatures changed after it was written")
        checkpoint = at_entry.get(seq)
        if checkpoint is not None:
            if checkpoint.head != row["entry_hash"]:
                # The red team's rewrite: every hash recomputed, but not the signature, which needs the key.
                return checkpoint_broken(
                    checkpoint,
                    "contradicted",
                    f"says entry #{seq} has the hash {checkpoint.head[:16]}…, the chain has "
                    f"{row['entry_hash'][:16]}…: the history up to it was rewritten after it was signed",
                )
            report.last_checkpoint = (checkpoint.seq, checkpoint.entry_seq)
        prev_hash = row["entry_hash"]
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


def start_checkpoint(*, property_id: int, before_seq: int, keys) -> Checkpoint | None:
    """The newest checkpoint over an entry before #before_seq whose signature verifies with the key
    ring; None when there is none (the walk then starts from the first entry). A checkpoint that does
    not verify (forged, or by an unknown key) is never a start: an older one is, and the walk from it
    then reaches the bad one and names it. Read newest first by number (the index), so what is read
    grows with the checkpoints after the period, never with the history before it."""
    candidates = Checkpoint.objects.filter(property_id=property_id, entry_seq__lt=before_seq).order_by("-seq")
    # In small keyset pages with a LIMIT: a cursor over the whole query would be planned as a scan and
    # sort of every checkpoint of the property.
    below = None
    while True:
        page = list((candidates.filter(seq__lt=below) if below is not None else candidates)[:20])
        for candidate in page:
            if checkpoints.checkpoint_check(candidate, keys).ok:
                return candidate
        if len(page) < 20:
            return None
        below = page[-1].seq


def chain_verify_period(
    *, property_id: int, first_seq: int, last_seq: int, end: Checkpoint | None, chunk_size: int = 2000
) -> ChainReport:
    """A report's check, incremental: from the newest signed checkpoint before the period's first entry
    (#first_seq; its signature checked against the key ring, its head matched with the chain) through
    every checkpoint after it to the first checkpoint at or after the period's last entry (#last_seq),
    re-hashing every entry in between. `end` is the checkpoint the report signed over the head: with
    it, the rest of the chain was checked when that checkpoint was signed; without it (no key, or the
    chain since the last checkpoint did not verify) the walk goes on to the chain's head.

    What lies before the start is not read: its checkpoint's signature vouches for it, and
    verify_logbook (chain_verify from the first entry) is the check of the whole history. With no key
    ring configured, no checkpoint can be trusted and the whole chain is walked, as chain_verify does."""
    try:
        keys = checkpoints.checkpoint_keys()
    except checkpoints.CheckpointKeyMissing:
        return chain_verify(property_id=property_id, chunk_size=chunk_size)
    start = start_checkpoint(property_id=property_id, before_seq=first_seq, keys=keys)
    upto = None
    if end is not None:
        # Looked for from the start on, by the checkpoints' numbers (their index): what is read grows
        # with the checkpoints after the start, not with those before it.
        after = Checkpoint.objects.filter(property_id=property_id, seq__gt=start.seq if start else 0)
        closing = after.filter(entry_seq__gte=last_seq, seq__lte=end.seq).order_by("seq").first() or end
        upto = (closing.entry_seq, closing.head)
    return chain_verify(property_id=property_id, since=start, upto=upto, chunk_size=chunk_size)


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
    rows = chain_rows(property_id=property_id, after_seq=first_seq - 1, upto_seq=last_seq, chunk_size=chunk_size)
    for row, signatures in rows:
        yield {
            "seq": row["seq"],
            "record": {
                "body": body_of(row),
                "signatures": [signature_record_of(signature) for signature in signatures],
            },
            "prev_hash": row["prev_hash"],
            "hash": row["entry_hash"],
        }


def chain_verify_whole(*, property_id: int, held: Sequence[tuple[str, dict]] = ()) -> ChainReport:
    """verify_logbook's check of a property: the whole chain, compared first with what the signer
    last signed for it (its ledger, outside the database) and with any checkpoint `held` by whoever
    runs the check (a regulator's, from a report). A database that lost history the signer or the
    holder saw signed says how many entries and checkpoints it lacks."""
    try:
        records = ledger.ledger_read()
    except ledger.LedgerUnreadable as unreadable:
        report = ChainReport(property_id=property_id, entries_checked=0, head_hash=GENESIS)
        report.checkpoint_problem, report.reason = "unverifiable", str(unreadable)
        return report
    known = [("the signer's ledger", records[property_id])] if property_id in records else []
    known += [(source, record) for source, record in held if record.get("property") == property_id]
    report = chain_verify(property_id=property_id, known=known)
    report.losses = [
        f"history lost at a restore, accepted {loss['accepted_at']} ({loss['reason']}): checkpoint #{loss['lost']['seq']} "
        f"over entry #{loss['lost']['entry_seq']}, signed {loss['lost']['signed_at']}; {loss['missing_entries']} entries "
        f"and {loss['missing_checkpoints']} checkpoints were not restored"
        for loss in ledger.ledger_losses(property_id)
    ]
    return report


def held_checkpoints(path: str) -> list[tuple[str, dict]]:
    """The checkpoint records in a file someone holds: one record, a list of them, or a report's
    chain-segment.json (its "checkpoints"). ValueError says why a file is none of these."""
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    if isinstance(document, dict) and isinstance(document.get("checkpoints"), list):
        document = document["checkpoints"]
    records = document if isinstance(document, list) else [document]
    if not all(isinstance(record, dict) and "signature" in record and "seq" in record for record in records):
        raise ValueError(f"{path} holds no checkpoint record")
    return [(f"the checkpoint #{record['seq']} held in {path}", record) for record in records]
