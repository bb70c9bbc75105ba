"""What every entry service shares: lock the table, judge the entry's time, append the signed entry
to the property's hash chain, and move the table's precomputed state with it.

Each service: authenticate the signers (before any lock: a password check costs about half a
second), lock the table row, ask the rulebook, append the entry with its signatures to the
property's hash chain, and move the table's precomputed state — all in one transaction, so a
refusal writes nothing and two tablets cannot interleave.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from compliance.accounts.models import User
from compliance.casinos.models import GamingTable, Property
from compliance.rulebook import raise_if_any
from inspections.logbook import chain
from inspections.logbook import photos as entry_photos
from inspections.logbook.deadlines import deadlines_set
from inspections.logbook.models import (
    TABLE_DEADLINES,
    ChainHead,
    Entry,
    EntryPhoto,
    Signature,
    TableStatus,
)
from inspections.logbook.signals import entry_recorded


@dataclass(frozen=True)
class Signer:
    user: User
    meaning: str


# A signature is made at the clock's time, except in the history seed_demo writes: a week written at
# once, each entry signed at its own time, as if signed when it happened (not all at the seeding
# minute). The entry's `recorded_at` stays the clock's, so the chain's checkpoints cover it as any.
_signed_when_it_happened: ContextVar[bool] = ContextVar("signed_when_it_happened", default=False)


@contextmanager
def history_signed_when_it_happened() -> Iterator[None]:
    """seed_demo's history: each entry's signatures carry the entry's own time (`occurred_at`)."""
    token = _signed_when_it_happened.set(True)
    try:
        yield
    finally:
        _signed_when_it_happened.reset(token)


def table_lock(table_id: int) -> tuple[GamingTable, dict[str, object]]:
    """The table, locked, and its row as read under the lock: the entry's write changes only what the
    entry changed of it.

    Two locks, in this order: the table's with its status (two tablets must not interleave entries or
    race the state machine), then its property's chain head, the chain's lock (entries of all its tables share one
    sequence; property_update too takes the tables before the property). Both in one statement
    (`FOR UPDATE OF` the table, then the head: PostgreSQL locks them in that order), the head kept
    with the property for entry_append. A property's first entry has no head yet: the table alone
    here, the head made and locked by entry_append."""
    # The status is locked with the table (the entries write it, not the table's row): in PostgreSQL,
    # a statement that waited for a lock reads the newest version only of the rows it locks.
    locking = GamingTable.objects.select_for_update(of=("self", "status", "property__chain")).select_related(
        "property", "property__chain", "status"
    )
    table = locking.filter(pk=table_id, status__isnull=False, property__chain__isnull=False).first()
    if table is None:
        first = GamingTable.objects.select_for_update(of=("self", "status")).select_related("property", "status")
        table = first.filter(status__isnull=False).get(pk=table_id)
    return table, columns(table)


def columns(table: GamingTable) -> dict[str, object]:
    """The table's row and its status (the logbook's state of it, guarded by the table's lock), by
    column name: what the entry's write compares with."""
    return {
        **{field.name: getattr(table, field.attname) for field in GamingTable._meta.concrete_fields},
        **{field.name: getattr(table.status, field.attname) for field in STATUS_COLUMNS},
    }


# The status's columns an entry moves (its key, the table, aside).
STATUS_COLUMNS = [field for field in TableStatus._meta.concrete_fields if not field.primary_key]
STATUS_NAMES = frozenset(field.name for field in STATUS_COLUMNS)


def changes_save(table: GamingTable, changed: list[str]) -> None:
    """Write the columns an entry changed: of the table (its ball), and of its status."""
    own = [name for name in changed if name not in STATUS_NAMES]
    if own:
        table.save(update_fields=own)
    status = [name for name in changed if name in STATUS_NAMES]
    if status:
        table.status.save(update_fields=status)


def jurisdiction_of(table_id: int) -> str:
    return GamingTable.objects.values_list("property__jurisdiction", flat=True).get(pk=table_id)


def entry_time(*, table: GamingTable, at: datetime | None, field: str):
    """The entry's time (now by default) and the § 617a.2(e) violation of an implausible or
    out-of-order time, if any."""
    now = timezone.now()
    if at is None:
        # "Now", but never before the table's last entry, whose tablet clock may run a little ahead.
        at = max(now, table.status.last_entry_at or now)
    skew = timedelta(seconds=settings.LOGBOOK_CLOCK_SKEW_SECONDS)
    rules = table.property.rulebook()
    max_backdate = timedelta(hours=settings.ENTRY_MAX_BACKDATE_HOURS)
    # In the property's zone: a refusal says the times as the floor reads them (2026-11-24 01:25:07 EST).
    zone = table.property.zone
    return at, rules.time_in_order(
        table=table,
        at=in_zone(at, zone),
        now=in_zone(now, zone),
        skew=skew,
        max_backdate=max_backdate,
        field=field,
    )


def in_zone(moment: datetime, zone) -> datetime:
    """`moment` in `zone`, or as given where the zone cannot hold it (year 1 or 9999, refused anyway)."""
    try:
        return timezone.localtime(moment, zone)
    except OverflowError:
        return moment


def entry_append(
    *,
    table: GamingTable,
    kind: str,
    occurred_at: datetime,
    recorded_by: User,
    signers: list[Signer],
    description: str = "",
    passed: bool | None = None,
    details: dict | None = None,
    amends: Entry | None = None,
    table_columns: list[str] | None = None,
    photos: Sequence[entry_photos.PhotoUpload] = (),
) -> Entry:
    """Sign, hash and chain one entry. Call inside a transaction holding the table's lock (table_lock).

    `table_columns`: the columns of the table the entry changed (table_changes), written with the
    entry; None when the caller writes the table itself after it (an amendment, whose effect on the
    table reads the logbook with the amendment in it)."""
    # The property's chain head is the chain's lock: table_lock took it with the table; a property's
    # first entry makes it, after the table's lock as always.
    if Property.chain.is_cached(table.property):
        head = table.property.chain
    else:
        head, _ = ChainHead.objects.select_for_update().get_or_create(property_id=table.property_id)
    # The photos' files, written under the chain's lock after every rule judged the entry, and removed
    # again if the entry is not written after all (photos.py).
    stored = entry_photos.photos_store(photos, property_id=table.property_id) if photos else []
    try:
        return _entry_write(
            head=head,
            table=table,
            kind=kind,
            occurred_at=occurred_at,
            recorded_by=recorded_by,
            signers=signers,
            description=description,
            passed=passed,
            details=details,
            amends=amends,
            table_columns=table_columns,
            photos=stored,
        )
    except BaseException:
        entry_photos.photos_unwritten(stored)
        raise


def _entry_write(
    *,
    head: ChainHead,
    table: GamingTable,
    kind: str,
    occurred_at: datetime,
    recorded_by: User,
    signers: list[Signer],
    description: str,
    passed: bool | None,
    details: dict | None,
    amends: Entry | None,
    table_columns: list[str] | None,
    photos: Sequence[entry_photos.StoredPhoto],
) -> Entry:
    now = timezone.now()
    entry = Entry(
        property=table.property,
        seq=head.length + 1,
        table=table,
        table_number=table.number,
        kind=kind,
        occurred_at=occurred_at,
        recorded_at=now,
        recorded_by=recorded_by,
        description=description,
        passed=passed,
        # The photos' hashes are part of the signed content: the signatures and the chain bind them.
        details={**(details or {}), "photos": [p.photo.record() for p in photos]} if photos else details or {},
        amends=amends,
        prev_hash=head.head,
    )
    signed_content = chain.content_hash(entry)
    signed_at = occurred_at if _signed_when_it_happened.get() else now
    signatures = [
        Signature(
            signer=signer.user,
            signer_name=signer.user.display_name,
            credential_number=signer.user.credential_number,
            meaning=signer.meaning,
            signed_at=signed_at,
            content_hash=signed_content,
        )
        for signer in signers
    ]
    entry.entry_hash = chain.entry_hash(prev_hash=head.head, entry=entry, signatures=signatures)
    _append_write(entry, signatures, table=table, table_columns=table_columns or [])
    if photos:
        EntryPhoto.objects.bulk_create(entry_photos.photo_rows(entry, photos))
    head.length, head.head = entry.seq, entry.entry_hash
    entry.prefetched_signatures = signatures  # what the answer shows, without reading them back
    return entry


def _append_write(entry: Entry, signatures: list[Signature], *, table: GamingTable, table_columns: list[str]) -> None:
    """Insert the entry and its signatures (their ids in signing order, which the entry's hash covers),
    move the chain head to it and write the table's changed columns, under the table's and the chain's
    locks."""
    entry.save(force_insert=True)
    for signature in signatures:
        signature.entry = entry
    Signature.objects.bulk_create(signatures)
    ChainHead.objects.filter(pk=entry.property_id).update(length=entry.seq, head=entry.entry_hash)
    changes_save(table, table_columns)


def table_changes(
    table: GamingTable, *, as_locked: dict[str, object], at: datetime | None, unlocking: bool = False
) -> list[str]:
    """Set the table's clock (an amendment, `at` None, does not move it) and the deadlines its new state
    carries (the overdue scan's); the columns that differ from the row as locked, which alone are
    written: never the configuration another writer may own, nor a column this entry did not move.
    `unlocking`: the entry is an unlocking, not yet written (deadlines_set)."""
    if at is not None:
        table.status.last_entry_at = at
    deadlines_set(table, unlocking=at if unlocking else None)
    now = columns(table)
    return [name for name, value in now.items() if as_locked[name] != value]


def table_recorded(table: GamingTable, *, as_locked: dict[str, object], changed: list[str], entry: Entry) -> None:
    """The flags of the deadlines the entry moved are cured by it, and those of the deadlines it left
    already passed (an adjustment during play) are raised by it, both in its transaction
    (inspections.flags receives entry_recorded)."""
    entry_recorded.send(
        sender=Entry,
        entry=entry,
        table=table,
        missed={name: as_locked[name] for name in TABLE_DEADLINES if name in changed},
        state_before=as_locked["state"],
    )


def table_save(table: GamingTable, *, as_locked: dict[str, object], at: datetime | None, entry: Entry) -> None:
    """After an entry written without the table (an amendment): store the state it led to, with its
    deadlines, and cure and raise its flags."""
    changed = table_changes(table, as_locked=as_locked, at=at)
    changes_save(table, changed)
    table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)


def photos_judged(
    *, table_id: int, files: Sequence, item: str = "", inspection: bool = False
) -> list[entry_photos.PhotoUpload]:
    """The photos of an entry read and judged before the table is locked (decoding takes time no
    other tablet should wait for); refused, nothing is stored. entry_append stores them, under the
    chain's lock. An inspection's photos may name one item of the table's checklist."""
    if not files:
        return []
    photos = entry_photos.photos_read(files, item=item)
    table = GamingTable.objects.select_related("property").get(pk=table_id)
    if inspection:
        checklist = [checklist_item.code for checklist_item in table.property.rulebook().checklist_for(table)]
        raise_if_any([entry_photos.photos_item_check(photos, checklist=checklist)])
    return photos
