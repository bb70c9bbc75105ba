"""The benchmarks' one seeder: a Pennsylvania property, its tables and people, and a long logbook.

The entries are written in bulk in the real schema, not through the services (a service call costs
a password check: 1,000,000 of them would take a day), but they form a valid hash chain, computed
with inspections.logbook.chain as the append does, and the tables' state is what the history left.
The append-only triggers refuse only UPDATE and DELETE, so the inserts go through.

With a checkpoint key ring configured (LOGBOOK_CHECKPOINT_KEYRING, as the product reads it), the history
is signed as beat's task signs it (inspections.logbook.services.checkpoint_grown): a checkpoint at the end
of every LOGBOOK_CHECKPOINT_MINUTES window in which entries were written, over the last entry written by
then, its message checkpoints.checkpoint_message's and its key the ring's signing key at that time; the
last one recorded in the signer's ledger as checkpoint_sign records it. No timestamp authority is asked
(a few hundred thousand requests): each checkpoint says so, as production's does when none is configured.
Only when asked (`signed=True`, week.py, which names a ring and a ledger of its own).
"""

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from compliance.accounts.models import Role, User
from compliance.casinos.models import Game, GamingTable, Jurisdiction, Property, TableState, WheelType
from compliance.rulebook.jurisdictions.pennsylvania import CHECKLIST
from config.keyring import signing_key
from inspections.logbook import chain, checkpoints, ledger
from inspections.logbook.models import (
    ChainHead,
    Checkpoint,
    Entry,
    EntryKind,
    Signature,
    SignatureMeaning,
    TableStatus,
)
from inspections.logbook.timestamps import TimestampUnavailable, timestamp_fetch

PASSWORD = "bench-logbook-password-long"
ITEMS = {item.code: True for item in CHECKLIST[:4]}
# A table's day: the kind, minutes after its start, the description, the state it leaves.
DAY = [
    (EntryKind.UNLOCK, 0, "Wheel cover unlocked and removed", TableState.UNLOCKED),
    (EntryKind.INSPECTION, 5, "Inspection passed", TableState.INSPECTED),
    (EntryKind.OPEN, 6, "Table opened for play", TableState.OPEN),
    (EntryKind.CLOSE, 720, "Table closed", TableState.CLOSED),
    (EntryKind.COVER, 725, "Wheel covered and the cover securely locked", TableState.LOCKED),
]
BATCH = 5000
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)  # the checkpoint windows are counted from it


def people(prop: Property, count: int) -> list[User]:
    """`count` floorpeople and a compliance manager, their passwords set with the settings' hasher."""
    users = []
    for n in range(count + 1):
        role = Role.COMPLIANCE if n == count else Role.FLOORPERSON
        user = User(
            username=f"bench-{prop.pk}-{n}",
            full_name=f"Bench Person {n}",
            role=role,
            credential_number=f"BENCH-{prop.pk}-{n}",
            property=prop,
        )
        user.set_password(PASSWORD)
        users.append(user)
    return User.objects.bulk_create(users)


def events(tables: list[GamingTable], count: int, *, last: datetime) -> list[tuple]:
    """`count` (time, table, kind, description), a day after another; the first table stays open
    around the clock (re-inspected daily), so that an inspection can be signed on it at any time."""
    rows, day = [], 0
    start = datetime(2000, 1, 1, 12, tzinfo=UTC)
    while len(rows) < count:
        for index, table in enumerate(tables):
            for kind, minutes, text, _ in DAY:
                if (index == 0 and day and kind != EntryKind.INSPECTION) or (index == 0 and kind in ("close", "cover")):
                    continue
                rows.append((start + timedelta(days=day, minutes=minutes + 7 * index), table, kind, text))
        day += 1
    rows = sorted(rows[:count], key=lambda row: (row[0], row[1].number))
    shift = last - rows[-1][0]
    return [(at + shift, table, kind, text) for at, table, kind, text in rows]


class Signer:
    """Beat's checkpoints over a history written in bulk: `entry` is told of each entry in chain order,
    and a checkpoint is due over the last entry of every interval window in which entries were written,
    signed at the window's end (the first beat after it), never later than now."""

    def __init__(self, prop: Property, *, signed: bool):
        self.keys = checkpoints.checkpoint_keys() if signed else None  # CheckpointKeyMissing without a ring
        self.prop = prop
        self.every = timedelta(minutes=settings.LOGBOOK_CHECKPOINT_MINUTES)
        self.seq, self.window, self.last = 0, None, None  # last: (seq, hash, pk) of the newest entry
        self.due: list[Checkpoint] = []
        self.newest: Checkpoint | None = None
        self.note = ""
        if signed:
            if settings.LOGBOOK_TSA_URL:
                raise RuntimeError("the seeder asks no timestamp authority: unset LOGBOOK_TSA_URL")
            try:
                timestamp_fetch(b"")  # without an authority: the note production's checkpoints carry
            except TimestampUnavailable as unavailable:
                self.note = str(unavailable)[:300]

    def entry(self, *, at: datetime, seq: int, head: str, pk: int) -> None:
        if self.keys is None:
            return
        window = self.every * ((at - EPOCH) // self.every)
        if self.window is not None and window != self.window:
            self.sign()
        self.window, self.last = window, (seq, head, pk)

    def sign(self) -> None:
        """The checkpoint of the window that ended, over the last entry written in it."""
        if self.last is None or self.window is None:
            return
        entry_seq, head, pk = self.last
        signed_at = min(EPOCH + self.window + self.every, timezone.now())
        key = signing_key(self.keys, signed_at)
        self.seq += 1
        message = checkpoints.checkpoint_message(
            property_id=self.prop.pk,
            licence=self.prop.licence_number,
            jurisdiction=self.prop.jurisdiction,
            seq=self.seq,
            entry_seq=entry_seq,
            head=head,
            signed_at=signed_at,
            key_id=key.key_id,
        )
        self.newest = Checkpoint(
            property_id=self.prop.pk,
            licence_number=self.prop.licence_number,
            jurisdiction=self.prop.jurisdiction,
            seq=self.seq,
            entry_id=pk,
            entry_seq=entry_seq,
            head=head,
            signed_at=signed_at,
            reason="interval",
            key_id=key.key_id,
            signature=key.private_key.sign(message).hex(),
            timestamp_token=None,
            timestamp_note=self.note,
        )
        self.due.append(self.newest)
        self.last = None

    def flush(self) -> None:
        Checkpoint.objects.bulk_create(self.due, batch_size=BATCH)
        self.due = []

    def close(self) -> None:
        """The last window's checkpoint, and the newest in the signer's ledger (checkpoint_sign's)."""
        self.sign()
        self.flush()
        if self.newest is not None:
            ledger.ledger_record(checkpoints.checkpoint_record(self.newest))


def seed(
    *, entries: int, tables: int = 8, staff: int = 1, name: str = "Bench Casino", last=None, signed: bool = False
) -> dict:
    """The property; `last`: the last entry's time (default a few minutes ago). `signed`: its history
    signed by checkpoints with the configured key ring, the newest in its signer's ledger (asked for
    by a benchmark that configures a ring and a ledger of its own: never a developer's var/keys/,
    whose ledger would then hold a benchmark's property)."""
    prop = Property.objects.create(
        name=name, licence_number=f"PA-{name}", jurisdiction=Jurisdiction.PA, time_zone="America/New_York"
    )
    table_rows = GamingTable.objects.bulk_create(
        GamingTable(
            property=prop,
            number=f"R-{n:03d}",
            game=Game.ROULETTE,
            wheel_type=WheelType.DOUBLE_ZERO,
            has_external_movable_parts=True,
        )
        for n in range(1, tables + 1)
    )
    TableStatus.objects.bulk_create(TableStatus(table=table) for table in table_rows)  # bulk: no post_save
    users = people(prop, staff)
    floor = users[0]
    prev, seq, state = chain.GENESIS, 0, {}
    signer = Signer(prop, signed=signed)
    history = events(table_rows, entries, last=last or timezone.now() - timedelta(minutes=5))
    for start in range(0, len(history), BATCH):
        batch, signatures = [], []
        for at, table, kind, text in history[start : start + BATCH]:
            seq += 1
            entry = Entry(
                property_id=prop.pk,
                seq=seq,
                table_id=table.pk,
                table_number=table.number,
                kind=kind,
                occurred_at=at,
                recorded_at=at,
                recorded_by_id=floor.pk,
                description=text,
                passed=True if kind == EntryKind.INSPECTION else None,
                prev_hash=prev,
                details={"items": ITEMS, "notes": ""} if kind == EntryKind.INSPECTION else {},
            )
            meaning = SignatureMeaning.INSPECTED if kind == EntryKind.INSPECTION else SignatureMeaning.RECORDED
            signature = Signature(
                signer_id=floor.pk,
                signer_name=floor.display_name,
                meaning=meaning,
                credential_number=floor.credential_number,
                signed_at=at,
                content_hash=chain.content_hash(entry),
            )
            entry.entry_hash = prev = chain.entry_hash(prev_hash=prev, entry=entry, signatures=[signature])
            batch.append(entry)
            signatures.append(signature)
            state[table.pk] = (kind, at)
        with transaction.atomic():
            for entry, signature in zip(Entry.objects.bulk_create(batch), signatures, strict=True):
                signature.entry_id = entry.pk
                signer.entry(at=entry.recorded_at, seq=entry.seq, head=entry.entry_hash, pk=entry.pk)
            Signature.objects.bulk_create(signatures)
            signer.flush()
    signer.close()  # committed: bulk_create outside a transaction is its own
    ChainHead.objects.update_or_create(property=prop, defaults={"length": seq, "head": prev})
    after = {kind: left for kind, _, _, left in DAY}
    for table in table_rows:
        kind, at = state.get(table.pk, (None, None))
        if kind is None:
            continue
        fields: dict = {"state": after[kind], "last_entry_at": at}
        if kind == EntryKind.INSPECTION:
            fields.update(
                state=TableState.OPEN if table == table_rows[0] else TableState.INSPECTED,
                last_inspection_at=at,
                next_due=at + timedelta(hours=prop.max_inspection_interval_hours),
            )
        TableStatus.objects.filter(table_id=table.pk).update(**fields)
    # Fresh statistics before anything is measured (PostgreSQL, outside a transaction: not in a test).
    vacuum = connection.vendor == "postgresql" and not connection.in_atomic_block
    with connection.cursor() as cursor:
        for model in (Entry, Signature, Checkpoint, GamingTable, TableStatus) if vacuum else ():
            cursor.execute(f'VACUUM ANALYZE "{model._meta.db_table}"')
    return {"property": prop, "tables": table_rows, "people": users, "hot": table_rows[0]}
