"""The benchmark's data: one property, its tables and people, a long valid logbook and its baseline twin.

Rows are written with bulk_create, not through inspections.logbook.services: a service call costs a password
check (about half a second), and 100,000 of them would take most of a day. The entries still form a
valid hash chain, computed with inspections.logbook.chain exactly as entry_append does, and
chain_verify checks it afterwards. The append-only triggers refuse only UPDATE and DELETE, so the
inserts go through; Property and GamingTable are ordinary tables and are updated at the end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone
from knox.models import AuthToken

from bench.models import BaselineRow
from compliance.accounts.models import Role, User
from compliance.casinos.models import Game, GamingTable, Jurisdiction, Property, TableState, WheelType
from compliance.rulebook.jurisdictions.pennsylvania import CHECKLIST, IRREGULARITY_KINDS
from inspections.logbook import chain
from inspections.logbook.models import ChainHead, Entry, EntryKind, Signature, SignatureMeaning, TableStatus

PASSWORD = "bench-logbook-password"
BATCH = 5000

ITEMS = {item.code: True for item in CHECKLIST[:4]}
EVENT_DESCRIPTIONS = {
    EntryKind.UNLOCK: "Wheel cover unlocked and removed",
    EntryKind.OPEN: "Table opened for play",
    EntryKind.CLOSE: "Table closed",
    EntryKind.COVER: "Wheel covered and the cover securely locked",
}
IRREGULARITY_LABELS = dict(IRREGULARITY_KINDS)


@dataclass
class Event:
    at: datetime
    table: GamingTable
    kind: str
    signers: list[tuple[User, str]]
    description: str = ""
    passed: bool | None = None
    details: dict = field(default_factory=dict)


@dataclass
class Seeded:
    property: Property
    tables: list[GamingTable]
    floorperson: User
    token: str
    password: str
    hot_table: GamingTable  # open around the clock: inspections can be posted to it again and again
    read_table: GamingTable  # the table whose register page is read
    entries: int
    baseline_rows: int


def _people(prop: Property) -> dict[str, User]:
    people = {}
    for role in (Role.FLOORPERSON, Role.SECURITY, Role.MAINTENANCE, Role.COMPLIANCE):
        user = User(
            username=f"bench-{role}",
            full_name=f"Bench {Role(role).label}",
            role=role,
            credential_number=f"BENCH-{role.upper()}",
            property=prop,
        )
        user.set_password(PASSWORD)  # the project's hasher (Argon2), as in production
        user.save()
        people[role] = user
    return people


def _history(*, tables: list[GamingTable], hot: GamingTable, people: dict[str, User], count: int) -> list[Event]:
    """`count` events in time order, a plausible floor day after day.

    Every table but `hot` is unlocked, inspected (after an adjustment now and then), opened, has a
    few no-spins, and is closed and covered each day. `hot` is a 24-hour table: opened once, then
    re-inspected every day while it stays open, so whatever the cut it is open at the end.
    """
    rng = random.Random(6172)  # the same history every run
    floor, security, maintenance = people[Role.FLOORPERSON], people[Role.SECURITY], people[Role.MAINTENANCE]
    recorded = [(floor, SignatureMeaning.RECORDED)]
    events: list[Event] = []
    start = datetime(2020, 1, 1, 12, tzinfo=UTC)
    day = 0
    while len(events) < count:
        day_start = start + timedelta(days=day)
        for index, table in enumerate(tables):
            t0 = day_start + timedelta(minutes=7 * index)
            day_events: list[Event] = []
            if table != hot or day == 0:
                day_events.append(Event(t0, table, EntryKind.UNLOCK, recorded, EVENT_DESCRIPTIONS[EntryKind.UNLOCK]))
                if rng.random() < 0.1:
                    day_events.append(
                        Event(
                            t0 + timedelta(minutes=3),
                            table,
                            EntryKind.ADJUSTMENT,
                            [(maintenance, SignatureMeaning.PERFORMED), (security, SignatureMeaning.WITNESSED)],
                            "Ball track cleaned and rotor re-levelled",
                            details={"part": "rotor"},
                        )
                    )
            day_events.append(
                Event(
                    t0 + timedelta(minutes=5),
                    table,
                    EntryKind.INSPECTION,
                    [(floor, SignatureMeaning.INSPECTED)],
                    "Inspection passed",
                    passed=True,
                    details={"items": dict(ITEMS), "notes": ""},
                )
            )
            if table != hot or day == 0:
                day_events.append(
                    Event(
                        t0 + timedelta(minutes=6), table, EntryKind.OPEN, recorded, EVENT_DESCRIPTIONS[EntryKind.OPEN]
                    )
                )
            for _ in range(rng.randint(1, 5)):
                kind = rng.choice(list(IRREGULARITY_LABELS))
                replaced = rng.random() < 0.2
                day_events.append(
                    Event(
                        t0 + timedelta(minutes=rng.randint(10, 700), seconds=rng.randint(0, 59)),
                        table,
                        EntryKind.IRREGULARITY,
                        recorded,
                        f"No spin: {IRREGULARITY_LABELS[kind]}" + ("; ball replaced" if replaced else ""),
                        details={"irregularity": kind, "ball_replaced": replaced, "notes": ""},
                    )
                )
            if table != hot:
                day_events.append(
                    Event(
                        t0 + timedelta(hours=12), table, EntryKind.CLOSE, recorded, EVENT_DESCRIPTIONS[EntryKind.CLOSE]
                    )
                )
                day_events.append(
                    Event(
                        t0 + timedelta(hours=12, minutes=5),
                        table,
                        EntryKind.COVER,
                        recorded,
                        EVENT_DESCRIPTIONS[EntryKind.COVER],
                    )
                )
            events.extend(day_events)
        day += 1
    events.sort(key=lambda event: (event.at, event.table.number))
    events = events[:count]
    # The last entry a few minutes ago: new entries, made now, come after every one of them.
    shift = (timezone.now() - timedelta(minutes=5)) - events[-1].at
    shift = timedelta(seconds=int(shift.total_seconds()))
    for event in events:
        event.at += shift
    return events


def _table_states(tables: list[GamingTable], events: list[Event], prop: Property) -> None:
    """Replay the history into each table's precomputed state, as inspections.logbook.services would leave it."""
    state = {table.pk: {"state": TableState.CLOSED, "inspection_void_reason": ""} for table in tables}
    for event in events:
        row = state[event.table.pk]
        row["last_entry_at"] = event.at
        if event.kind == EntryKind.UNLOCK:
            row["state"] = TableState.UNLOCKED
        elif event.kind == EntryKind.ADJUSTMENT:
            row["last_adjustment_at"] = event.at
            row["inspection_void_reason"] = EntryKind.ADJUSTMENT
            if row["state"] == TableState.INSPECTED:
                row["state"] = TableState.UNLOCKED
        elif event.kind == EntryKind.INSPECTION:
            row["last_inspection_at"] = event.at
            row["inspection_void_reason"] = ""
            if row["state"] != TableState.OPEN:
                row["state"] = TableState.INSPECTED
        elif event.kind == EntryKind.OPEN:
            row["state"] = TableState.OPEN
            row["last_opened_at"] = event.at
        elif event.kind == EntryKind.CLOSE:
            row["state"] = TableState.CLOSED
            row["last_closed_at"] = event.at
            row["inspection_void_reason"] = ""
        elif event.kind == EntryKind.COVER:
            row["state"] = TableState.LOCKED
    for table in tables:
        row = state[table.pk]
        if row["state"] == TableState.CLOSED and row.get("last_closed_at"):
            row["next_due"] = row["last_closed_at"] + timedelta(minutes=prop.cover_grace_minutes)
        elif row["state"] == TableState.OPEN and row.get("last_inspection_at"):
            row["next_due"] = row["last_inspection_at"] + timedelta(hours=prop.max_inspection_interval_hours)
        else:
            row["next_due"] = None
        TableStatus.objects.filter(table_id=table.pk).update(**row)
        table.refresh_from_db()


def _chain(prop: Property, events: list[Event]) -> tuple[list[Entry], list[list[Signature]]]:
    """The entries and their signatures, hashed and chained as inspections.logbook.services.entry_append does."""
    entries, signatures = [], []
    prev_hash = chain.GENESIS
    for seq, event in enumerate(events, start=1):
        recorded_at = event.at + timedelta(seconds=30)
        entry = Entry(
            property_id=prop.pk,
            seq=seq,
            table_id=event.table.pk,
            table_number=event.table.number,
            kind=event.kind,
            occurred_at=event.at,
            recorded_at=recorded_at,
            recorded_by_id=event.signers[0][0].pk,
            description=event.description,
            passed=event.passed,
            details=event.details,
            amends_id=None,
            prev_hash=prev_hash,
        )
        signed_content = chain.content_hash(entry)
        entry_signatures = [
            Signature(
                signer_id=user.pk,
                signer_name=user.display_name,
                credential_number=user.credential_number,
                meaning=meaning,
                signed_at=recorded_at,
                content_hash=signed_content,
            )
            for user, meaning in event.signers
        ]
        entry.entry_hash = chain.entry_hash(prev_hash=prev_hash, entry=entry, signatures=entry_signatures)
        prev_hash = entry.entry_hash
        entries.append(entry)
        signatures.append(entry_signatures)
    return entries, signatures


def seed(*, entries: int, tables: int = 8, log=print) -> Seeded:
    prop = Property.objects.create(
        name="Bench Casino",
        licence_number="PA-BENCH-1",
        jurisdiction=Jurisdiction.PA,
        time_zone="America/New_York",
    )
    all_tables = [
        GamingTable.objects.create(
            property=prop,
            number=f"R-{n:02d}",
            game=Game.ROULETTE,
            wheel_type=WheelType.DOUBLE_ZERO,
            has_external_movable_parts=True,
        )
        for n in range(1, tables + 1)
    ]
    people = _people(prop)
    floor = people[Role.FLOORPERSON]
    _, token = AuthToken.objects.create(user=floor, expiry=timedelta(days=1))  # longer than a run
    hot = all_tables[0]
    read_table = all_tables[1] if len(all_tables) > 1 else hot

    events = _history(tables=all_tables, hot=hot, people=people, count=entries)
    entry_rows, signature_rows = _chain(prop, events)
    log(f"  hashed {len(entry_rows):,} entries")
    for start in range(0, len(entry_rows), BATCH):
        with transaction.atomic():
            batch = Entry.objects.bulk_create(entry_rows[start : start + BATCH])
            batch_signatures = []
            for entry, entry_signatures in zip(batch, signature_rows[start : start + BATCH], strict=True):
                for signature in entry_signatures:
                    signature.entry_id = entry.pk
                    batch_signatures.append(signature)
            Signature.objects.bulk_create(batch_signatures)
    ChainHead.objects.update_or_create(
        property=prop, defaults={"length": entry_rows[-1].seq, "head": entry_rows[-1].entry_hash}
    )
    prop.refresh_from_db()
    _table_states(all_tables, events, prop)
    log(f"  wrote {len(entry_rows):,} entries and {sum(map(len, signature_rows)):,} signatures")

    # The baseline's twin: the same rows, in a plain table.
    baseline = [
        BaselineRow(
            property=entry.property_id,
            seq=entry.seq,
            table_id=entry.table_id,
            table_number=entry.table_number,
            kind=entry.kind,
            occurred_at=entry.occurred_at,
            recorded_at=entry.recorded_at,
            recorded_by=entry.recorded_by_id,
            description=entry.description,
            passed=entry.passed,
            details=entry.details,
            amends=None,
            prev_hash=entry.prev_hash,
            entry_hash=entry.entry_hash,
        )
        for entry in entry_rows
    ]
    BaselineRow.objects.bulk_create(baseline, batch_size=BATCH)
    log(f"  wrote {len(baseline):,} baseline rows")

    # Fresh statistics and visibility maps for both sides before anything is measured.
    with connection.cursor() as cursor:
        for model in (Entry, Signature, BaselineRow, GamingTable, Property, User, AuthToken):
            cursor.execute(f'VACUUM ANALYZE "{model._meta.db_table}"')

    hot.refresh_from_db()
    return Seeded(
        property=prop,
        tables=all_tables,
        floorperson=floor,
        token=token,
        password=PASSWORD,
        hot_table=hot,
        read_table=read_table,
        entries=len(entry_rows),
        baseline_rows=len(baseline),
    )
