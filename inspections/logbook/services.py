"""The only write path of the logbook.

Each service: authenticate the signers (before any lock: a password check costs about half a
second), lock the table row, ask the rulebook, append the entry with its signatures to the
property's hash chain, and move the table's precomputed state — all in one transaction, so a
refusal writes nothing and two tablets cannot interleave.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_noop

from compliance.accounts.models import User
from compliance.accounts.signatures import SignatureInput, signer_authenticate
from compliance.approvals.selectors import layout_approved_for, rules_submission_in_effect
from compliance.casinos.clock import local_date, property_today
from compliance.casinos.models import TABLE_DEADLINES, Ball, Game, GamingTable, Property, TableState
from compliance.casinos.services import equipment_lock
from compliance.rulebook import Jurisdiction, Violation, raise_if_any, table_states
from compliance.rulebook.amendments import parse_time
from compliance.rulebook.games.casino_war import CARD_CHECKS
from compliance.rulebook.games.casino_war import IRREGULARITY_KINDS as CASINO_WAR_IRREGULARITY_KINDS
from config.keyring import signing_key
from inspections.logbook import chain, checkpoints, ledger
from inspections.logbook import photos as entry_photos
from inspections.logbook.deadlines import configuration_due, deadlines_set
from inspections.logbook.models import (
    ChainHead,
    Checkpoint,
    Entry,
    EntryKind,
    EntryPhoto,
    Signature,
    SignatureMeaning,
    amendment_label,
)
from inspections.logbook.signals import entry_recorded
from inspections.logbook.timestamps import TimestampUnavailable, timestamp_fetch

logger = logging.getLogger(__name__)


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


def _table_lock(table_id: int) -> tuple[GamingTable, dict[str, object]]:
    """The table, locked, and its row as read under the lock: the entry's write changes only what the
    entry changed of it.

    Two locks, in this order: the table's (two tablets must not interleave entries or race the state
    machine), then its property's chain head, the chain's lock (entries of all its tables share one
    sequence; property_update too takes the tables before the property). Both in one statement
    (`FOR UPDATE OF` the table, then the head: PostgreSQL locks them in that order), the head kept
    with the property for entry_append. A property's first entry has no head yet: the table alone
    here, the head made and locked by entry_append."""
    locking = GamingTable.objects.select_for_update(of=("self", "property__chain")).select_related(
        "property", "property__chain"
    )
    table = locking.filter(pk=table_id, property__chain__isnull=False).first()
    if table is None:
        table = GamingTable.objects.select_for_update(of=("self",)).select_related("property").get(pk=table_id)
    return table, _columns(table)


def _columns(table: GamingTable) -> dict[str, object]:
    return {field.name: getattr(table, field.attname) for field in GamingTable._meta.concrete_fields}


def _jurisdiction_of(table_id: int) -> str:
    return GamingTable.objects.values_list("property__jurisdiction", flat=True).get(pk=table_id)


def _entry_time(*, table: GamingTable, at: datetime | None, field: str):
    """The entry's time (now by default) and the § 617a.2(e) violation of an implausible or
    out-of-order time, if any."""
    now = timezone.now()
    if at is None:
        # "Now", but never before the table's last entry, whose tablet clock may run a little ahead.
        at = max(now, table.last_entry_at or now)
    skew = timedelta(seconds=settings.LOGBOOK_CLOCK_SKEW_SECONDS)
    rules = table.property.rulebook()
    max_backdate = timedelta(hours=settings.ENTRY_MAX_BACKDATE_HOURS)
    # In the property's zone: a refusal says the times as the floor reads them (2026-11-24 01:25:07 EST).
    zone = table.property.zone
    return at, rules.time_in_order(
        table=table,
        at=_in_zone(at, zone),
        now=_in_zone(now, zone),
        skew=skew,
        max_backdate=max_backdate,
        field=field,
    )


def _in_zone(moment: datetime, zone) -> datetime:
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
    """Sign, hash and chain one entry. Call inside a transaction holding the table's lock (_table_lock).

    `table_columns`: the columns of the table the entry changed (_table_changes), written with the
    entry; None when the caller writes the table itself after it (an amendment, whose effect on the
    table reads the logbook with the amendment in it)."""
    # The property's chain head is the chain's lock: _table_lock took it with the table; a property's
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
    table.save(update_fields=table_columns)


def _table_changes(
    table: GamingTable, *, as_locked: dict[str, object], at: datetime | None, unlocking: bool = False
) -> list[str]:
    """Set the table's clock (an amendment, `at` None, does not move it) and the deadlines its new state
    carries (the overdue scan's); the columns that differ from the row as locked, which alone are
    written: never the configuration another writer may own, nor a column this entry did not move.
    `unlocking`: the entry is an unlocking, not yet written (deadlines_set)."""
    if at is not None:
        table.last_entry_at = at
    deadlines_set(table, unlocking=at if unlocking else None)
    now = _columns(table)
    return [name for name, value in now.items() if as_locked[name] != value]


def _table_recorded(table: GamingTable, *, as_locked: dict[str, object], changed: list[str], entry: Entry) -> None:
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


def _table_save(table: GamingTable, *, as_locked: dict[str, object], at: datetime | None, entry: Entry) -> None:
    """After an entry written without the table (an amendment): store the state it led to, with its
    deadlines, and cure and raise its flags."""
    changed = _table_changes(table, as_locked=as_locked, at=at)
    table.save(update_fields=changed)
    _table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)


def _photos_judged(
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


def inspection_record(
    *,
    table_id: int,
    items: dict[str, bool],
    signature: SignatureInput,
    recorded_by: User,
    performed_at: datetime | None = None,
    notes: str = "",
    photos: Sequence = (),
    photo_item: str = "",
) -> Entry:
    """§ 617a.2(a): the checklist, each item passed or failed, signed by the inspector; with its
    photos (product policy, compliance/rulebook/photos.py), which may name one checklist item."""
    inspector = signer_authenticate(
        signature=signature, field="signature", jurisdiction=lambda: _jurisdiction_of(table_id), in_logbook=True
    )
    judged = _photos_judged(table_id=table_id, files=photos, item=photo_item, inspection=True)
    with transaction.atomic():
        table, as_locked = _table_lock(table_id)
        rules = table.property.rulebook()
        at, out_of_order = _entry_time(table=table, at=performed_at, field="performed_at")
        raise_if_any([*rules.check_inspection(table=table, inspector=inspector, items=items), out_of_order])
        passed = rules.inspection_passed(items=items)
        failed = [item.label for item in rules.checklist_for(table) if not items[item.code]]
        table.last_inspection_at = at
        # An inspection with a failed item never lets the table open.
        table.inspection_void_reason = "" if passed else "failed"
        table.state = table_states.next_state(table.state, EntryKind.INSPECTION, passed=passed)
        changed = _table_changes(table, as_locked=as_locked, at=at)
        entry = entry_append(
            table=table,
            kind=EntryKind.INSPECTION,
            occurred_at=at,
            recorded_by=recorded_by,
            signers=[Signer(inspector, SignatureMeaning.INSPECTED)],
            description="Inspection passed" if passed else "Inspection FAILED: " + "; ".join(failed),
            passed=passed,
            details={"items": items, "notes": notes},
            table_columns=changed,
            photos=judged,
        )
        _table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)
    return entry


def adjustment_record(
    *,
    table_id: int,
    kind: str,
    part: str,
    description: str,
    performer: SignatureInput,
    witness: SignatureInput | None,
    recorded_by: User,
    performed_at: datetime | None = None,
    new_ball: Ball | None = None,
    photos: Sequence = (),
) -> Entry:
    """§ 617a.2(b)–(d): an adjustment or replacement, signed by its performer and its security witness
    (none named is the rulebook's refusal). A replacement of the ball (a ball change) names the new one,
    a registered spare, which becomes the table's ball; the entry names the ball taken off and the ball
    put on, by serial. A ball change is logged on every Roulette table, whatever its wheel (product
    policy: the ball is not a part of the wheel; § 617a.2(b), (d) applied to it, so it is inspected
    before the table reopens)."""

    def jurisdiction() -> str:
        return _jurisdiction_of(table_id)

    performer_user = signer_authenticate(
        signature=performer, field="performer", jurisdiction=jurisdiction, in_logbook=True
    )
    witness_user = (
        signer_authenticate(signature=witness, field="witness", jurisdiction=jurisdiction, in_logbook=True)
        if witness is not None
        else None
    )
    judged = _photos_judged(table_id=table_id, files=photos)
    with transaction.atomic():
        table, as_locked = _table_lock(table_id)
        rules = table.property.rulebook()
        at, out_of_order = _entry_time(table=table, at=performed_at, field="performed_at")
        ball_change = rules.is_ball_change(kind=kind, part=part, new_ball_named=new_ball is not None)
        ball_off = table.ball  # the table's ball as locked: the one taken off
        ball_checks: list[Violation | None] = [
            rules.adjustment_ball(table=table, kind=kind, part=part, new_ball_named=new_ball is not None)
        ]
        if new_ball is not None:
            # Locked before asking where it is (as a no spin's new ball): two tables taking the
            # same spare at once wait in turn, and the second sees it in use.
            equipment_lock({"ball": new_ball})
            in_use_on = GamingTable.objects.filter(ball=new_ball).exclude(pk=table.pk).values_list("number", flat=True)
            ball_checks += [
                *rules.table_equipment(table=table, wheel=None, ball=new_ball),
                rules.ball_free(ball=new_ball, in_use_on=list(in_use_on), table=table),
            ]
        raise_if_any(
            [
                *rules.check_adjustment(
                    table=table, kind=kind, performer=performer_user, witness=witness_user, ball_change=ball_change
                ),
                *ball_checks,
                out_of_order,
            ]
        )
        if witness_user is None:  # check_adjustment refused a missing witness (§ 617a.2(b))
            raise RuntimeError("an adjustment passed its checks without a witness")
        # § 617a.2(c), (d): whatever inspection came before no longer counts (a ball change's, by
        # policy). An open table stays open (the logbook records what happened); the overdue scan flags it.
        table.inspection_void_reason = "ball_change" if ball_change else kind
        if kind == EntryKind.ADJUSTMENT:
            table.last_adjustment_at = at
        else:
            table.last_replacement_at = at
        if new_ball is not None:
            table.ball = new_ball
        table.state = table_states.next_state(table.state, kind)
        changed = _table_changes(table, as_locked=as_locked, at=at)
        entry = entry_append(
            table=table,
            kind=kind,
            occurred_at=at,
            recorded_by=recorded_by,
            signers=[
                Signer(performer_user, SignatureMeaning.PERFORMED),
                Signer(witness_user, SignatureMeaning.WITNESSED),
            ],
            description=description,
            details={"part": part, **(_ball_change_details(ball_off, new_ball) if new_ball is not None else {})},
            table_columns=changed,
            photos=judged,
        )
        _table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)
    return entry


def _ball_change_details(ball_off: Ball | None, ball_on: Ball) -> dict:
    """The balls of a ball change, in the signed entry: each by its id (the API's) and its serial (the
    register's words), the one taken off empty where the table had none registered."""
    return {
        "old_ball": ball_off.pk if ball_off is not None else None,
        "ball_off": ball_off.serial if ball_off is not None else "",
        "new_ball": ball_on.pk,
        "ball_on": ball_on.serial,
    }


# The part a ball change names (the record's words, as the rulebook reads a part: procedure.replaces_the_ball).
BALL_PART = "Roulette ball"


def ball_change_record(
    *,
    table_id: int,
    new_ball: Ball,
    description: str,
    performer: SignatureInput,
    witness: SignatureInput,
    recorded_by: User,
    performed_at: datetime | None = None,
    photos: Sequence = (),
) -> Entry:
    """A ball change: the replacement of the table's ball by a registered spare (adjustment_record), on
    any Roulette table, made and witnessed as a replacement is, then inspected before play."""
    return adjustment_record(
        table_id=table_id,
        kind=EntryKind.REPLACEMENT,
        part=BALL_PART,
        description=description,
        performer=performer,
        witness=witness,
        recorded_by=recorded_by,
        performed_at=performed_at,
        new_ball=new_ball,
        photos=photos,
    )


def _recorded_event(
    *,
    table_id: int,
    event: str,
    check: Callable[[Jurisdiction, GamingTable], Violation | None],
    signature: SignatureInput,
    recorded_by: User,
    at: datetime | None,
    describe: Callable[[Jurisdiction], str],
    details: dict | None = None,
    on_table: Callable[[GamingTable, datetime], None] | None = None,
    more_checks: Callable[[Jurisdiction, GamingTable], Sequence[Violation | None]] | None = None,
    photos: Sequence = (),
) -> Entry:
    """An entry signed by the one person who records it: lock, check, append, move the table."""
    signer = signer_authenticate(
        signature=signature, field="signature", jurisdiction=lambda: _jurisdiction_of(table_id), in_logbook=True
    )
    judged = _photos_judged(table_id=table_id, files=photos)
    with transaction.atomic():
        table, as_locked = _table_lock(table_id)
        rules = table.property.rulebook()
        at, out_of_order = _entry_time(table=table, at=at, field="at")
        raise_if_any(
            [
                check(rules, table),
                *rules.signer_may_record(event=event, signer=signer, table=table),
                *(more_checks(rules, table) if more_checks else []),
                out_of_order,
            ]
        )
        description = describe(rules)
        if on_table:
            on_table(table, at)
        changed = _table_changes(table, as_locked=as_locked, at=at, unlocking=event == EntryKind.UNLOCK)
        entry = entry_append(
            table=table,
            kind=event,
            occurred_at=at,
            recorded_by=recorded_by,
            signers=[Signer(signer, SignatureMeaning.RECORDED)],
            description=description,
            details=details,
            table_columns=changed,
            photos=judged,
        )
        _table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)
    return entry


# The table events and what the logbook says of each; the rule that may refuse one and the state it
# leads to are the rulebook's (table_states: guard, next_state).
# The record keeps English; a page says it in the reader's language (the catalogue's entries).
_EVENTS: dict[str, str] = {
    EntryKind.UNLOCK: gettext_noop("Wheel cover unlocked and removed"),
    EntryKind.OPEN: gettext_noop("Table opened for play"),
    EntryKind.CLOSE: gettext_noop("Table closed"),
    EntryKind.COVER: gettext_noop("Wheel covered and the cover securely locked"),
}
EVENT_DESCRIPTIONS = _EVENTS


def table_event_record(
    *,
    table_id: int,
    kind: str,
    signature: SignatureInput,
    recorded_by: User,
    at: datetime | None = None,
    cards: str | None = None,
) -> Entry:
    """Unlock, open, close, or cover-and-lock (§ 617a.2(f)) a table. A Casino War table's opening
    states how its cards were inspected (`cards`, § 651a.4)."""
    description = _EVENTS[kind]
    if kind == EntryKind.OPEN and cards in dict(CARD_CHECKS):
        description = f"{description}; {dict(CARD_CHECKS)[cards]}"

    def move(table: GamingTable, at: datetime) -> None:
        table.state = table_states.next_state(table.state, kind)
        if kind == EntryKind.OPEN:
            table.last_opened_at = at
            # Approved and in effect now (the gate checked); when a later version takes effect
            # that does not allow this table, the scan flags it from then.
            table.approval_due_at = configuration_due(table, now=at)
        elif kind == EntryKind.CLOSE:
            # § 617a.2(a): the next opening needs a new inspection.
            table.last_closed_at = at
            table.inspection_void_reason = ""

    def configured(rules: Jurisdiction, table: GamingTable) -> Sequence[Violation | None]:
        # Opening also needs what the regulator approved, in effect today, and registered equipment,
        # and at a Casino War table its cards inspected (§ 651a.4).
        if kind != EntryKind.OPEN:
            return []
        return [
            rules.cards_at_opening(table=table, cards=cards),
            *rules.configuration_ready(
                table=table,
                layout=layout_approved_for(table_id=table.pk),
                rules_submission=rules_submission_in_effect(
                    property_id=table.property_id,
                    game=table.game,
                    on=property_today(table.property),
                ),
            ),
        ]

    return _recorded_event(
        table_id=table_id,
        event=kind,
        check=lambda rules, table: table_states.may(rules, kind, table=table),
        signature=signature,
        recorded_by=recorded_by,
        at=at,
        describe=lambda rules: description,
        details={"cards": cards} if kind == EntryKind.OPEN and cards else None,
        on_table=move,
        more_checks=configured,
    )


def irregularity_record(
    *,
    table_id: int,
    kind: str,
    signature: SignatureInput,
    recorded_by: User,
    ball_replaced: bool = False,
    new_ball: Ball | None = None,
    notes: str = "",
    at: datetime | None = None,
    photos: Sequence = (),
) -> Entry:
    """§ 617a.6: a "no spin" and its reason; a replacement ball becomes the table's ball. On a Casino
    War table, § 651a.11: the automated card shuffling device's irregularities."""

    def new_ball_checks(rules: Jurisdiction, table: GamingTable) -> Sequence[Violation | None]:
        # § 617a.6 on a Roulette table, § 651a.11 on a Casino War table.
        wrong_kind = rules.irregularity_kind_for_game(
            table=table, kind=kind, roulette_kinds=rules.IRREGULARITY_KINDS, ball_replaced=ball_replaced
        )
        if wrong_kind is not None:
            return [wrong_kind]
        if new_ball is None:
            return [rules.ball_replacement_named(table=table, ball_replaced=ball_replaced, new_ball_named=False)]
        # Lock the new ball before asking where it is (as the table services do): two tables
        # taking the same spare at once wait in turn, and the second sees it in use.
        equipment_lock({"ball": new_ball})
        in_use_on = GamingTable.objects.filter(ball=new_ball).exclude(pk=table.pk).values_list("number", flat=True)
        return [
            *rules.table_equipment(table=table, wheel=None, ball=new_ball),
            rules.ball_free(ball=new_ball, in_use_on=list(in_use_on), table=table),
        ]

    def use_new_ball(table: GamingTable, at: datetime) -> None:
        table.state = table_states.next_state(table.state, EntryKind.IRREGULARITY)  # play goes on
        if new_ball is not None:
            table.ball = new_ball

    return _recorded_event(
        table_id=table_id,
        event=EntryKind.IRREGULARITY,
        check=lambda rules, table: table_states.may(rules, EntryKind.IRREGULARITY, table=table),
        signature=signature,
        recorded_by=recorded_by,
        at=at,
        describe=lambda rules: (
            f"Irregularity: {dict(CASINO_WAR_IRREGULARITY_KINDS)[kind]}"
            if kind in dict(CASINO_WAR_IRREGULARITY_KINDS)
            else f"No spin: {dict(rules.IRREGULARITY_KINDS)[kind]}"
            + (f"; ball replaced by {new_ball.serial}" if new_ball else "; ball replaced" if ball_replaced else "")
        ),
        details={
            "irregularity": kind,
            "ball_replaced": ball_replaced,
            "new_ball": new_ball.pk if new_ball else None,
            "notes": notes,
        },
        # The jurisdiction's list of "no spin" kinds is Roulette's; a Casino War table's own reasons are
        # judged by irregularity_kind_for_game.
        more_checks=lambda rules, table: [
            rules.check_irregularity_kind(kind=kind) if table.game == Game.ROULETTE else None,
            *new_ball_checks(rules, table),
        ],
        on_table=use_new_ball,
        photos=photos,
    )


def deck_change_record(
    *,
    table_id: int,
    decks: int,
    signature: SignatureInput,
    recorded_by: User,
    at: datetime | None = None,
    cards_per_deck: int | None = None,
    cover_cards_per_deck: int | None = None,
    back_colours: Sequence[str] | None = None,
) -> Entry:
    """Casino War: the decks of the shoe changed (§ 651a.3(d)); their 24 hours run from this entry. The
    entry states what each deck holds and the colour of the backs, one per batch (§ 651a.3(a), (c)(2))."""
    backs = [colour.strip() for colour in back_colours] if back_colours is not None else None
    return _recorded_event(
        table_id=table_id,
        event=EntryKind.DECK_CHANGE,
        check=lambda rules, table: rules.may_change_decks(table=table),
        signature=signature,
        recorded_by=recorded_by,
        at=at,
        describe=lambda rules: (
            f"{decks} new decks put in the shoe"
            + (
                f" ({cards_per_deck} cards and {cover_cards_per_deck} cover cards each; backs {' and '.join(backs)})"
                if backs
                else ""
            )
        ),
        details={
            "decks": decks,
            "cards_per_deck": cards_per_deck,
            "cover_cards_per_deck": cover_cards_per_deck,
            "back_colours": backs,
        },
        on_table=lambda table, at: setattr(table, "last_deck_change_at", at),
        # Six or eight decks from a manual shoe; 12 to 16 only with a shuffler the table's Rules
        # Submission in effect approves (§ 651a.3(a), (c)); 52 cards and 2 cover cards a deck, and the
        # backs one colour, or a different colour a batch (§ 651a.3(a), (c)(2)).
        more_checks=lambda rules, table: _deck_checks(
            rules,
            table,
            decks=decks,
            cards_per_deck=cards_per_deck,
            cover_cards_per_deck=cover_cards_per_deck,
            back_colours=backs,
        ),
    )


def _deck_checks(
    rules: Jurisdiction,
    table: GamingTable,
    *,
    decks: int,
    cards_per_deck: int | None,
    cover_cards_per_deck: int | None,
    back_colours: list[str] | None,
) -> list[Violation | None]:
    """A deck change's decks against what the table may use, then what they hold and their backs."""
    allowed = rules.deck_change_allowed(
        table=table,
        decks=decks,
        rules_submission=rules_submission_in_effect(
            property_id=table.property_id, game=table.game, on=property_today(table.property)
        ),
    )
    return [
        allowed,
        *rules.deck_composition(
            table=table,
            decks=decks,
            cards_per_deck=cards_per_deck,
            cover_cards_per_deck=cover_cards_per_deck,
            back_colours=back_colours,
            decks_allowed=allowed is None,
        ),
    ]


# What an amendment may correct, by the kind of the entry corrected (the fields of its API resource).
CORRECTABLE: dict[str, frozenset[str]] = {
    EntryKind.INSPECTION: frozenset({"performed_at", "items", "notes"}),
    EntryKind.ADJUSTMENT: frozenset({"performed_at", "kind", "part", "description"}),
    EntryKind.REPLACEMENT: frozenset({"performed_at", "kind", "part", "description"}),
    EntryKind.IRREGULARITY: frozenset({"at", "kind", "ball_replaced", "new_ball", "notes"}),
    EntryKind.DECK_CHANGE: frozenset({"at", "decks", "cards_per_deck", "cover_cards_per_deck", "back_colours"}),
    EntryKind.UNLOCK: frozenset({"at"}),
    EntryKind.OPEN: frozenset({"at"}),
    EntryKind.CLOSE: frozenset({"at"}),
    EntryKind.COVER: frozenset({"at"}),
    EntryKind.AMENDMENT: frozenset({"reason", "correction"}),
}


# The entries whose times § 617a.2(c), (d) put in order: a correction of one re-judges the table.
ORDERED_KINDS = frozenset({EntryKind.INSPECTION, EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT})


def _voided_by(entry: Entry, voiding: frozenset[str]) -> int | None:
    """The number of the amendment that marked this entry entered in error or a duplicate, if any."""
    for details, seq in entry.amendments.values_list("details", "seq").order_by("seq"):
        if details.get("amendment_kind") in voiding:
            return seq
    return None


def _inspection_as_amended(entry: Entry, rules: Jurisdiction) -> tuple[list[Entry], bool, bool]:
    """What an inspection counts as after its amendments: a duplicate counts only as the inspection it
    repeats (through any chain of duplicates), an inspection entered in error is none, and its items
    are as the corrections left them. Returns (the chain from the entry to the inspection it counts
    as, voided, passed)."""
    chain = [entry]
    while True:
        marks = list(entry.amendments.values_list("details", flat=True).order_by("seq"))
        kinds = {details.get("amendment_kind"): details for details in marks}
        if "entered_in_error" in kinds:
            return chain, True, False
        if "duplicate" not in kinds:
            break
        # check_amendment made it an earlier entry of the same table: the chain ends.
        entry = Entry.objects.get(property_id=entry.property_id, seq=kinds["duplicate"]["duplicate_of"])
        chain.append(entry)
    items = dict(entry.details.get("items", {}))
    for details in marks:
        items |= (details.get("correction") or {}).get("items", {})
    return chain, False, rules.inspection_passed(items=items)


def _details_as_amended(entry: Entry) -> dict[str, object]:
    """The entry's details as its corrections so far leave them (a correction names the API's fields:
    an irregularity's `kind` is its details' `irregularity`)."""
    details = dict(entry.details or {})
    for amendment in entry.amendments.values_list("details", flat=True).order_by("seq"):
        for name, value in (amendment.get("correction") or {}).items():
            details["irregularity" if entry.kind == EntryKind.IRREGULARITY and name == "kind" else name] = value
    return details


def _time_as_amended(entry: Entry) -> datetime:
    """When the entry says it happened, as its corrections so far leave it (an inspection's,
    adjustment's or replacement's `performed_at`, a table event's or deck change's `at`)."""
    amended = _details_as_amended(entry)
    corrected = amended.get("performed_at", amended.get("at"))
    return (parse_time(corrected) if isinstance(corrected, str) else None) or entry.occurred_at


# The table's clocks a table event or deck change sets, which the deadlines run from: the last
# closing (§ 617a.2(f)'s grace period; § 617a.2(a), an inspection since the last closing), the last
# opening (an open Casino War table's decks with no change on record) and the last deck change
# (§ 651a.3(d)'s 24 hours).
TIMED_BY: dict[str, str] = {
    EntryKind.CLOSE: "last_closed_at",
    EntryKind.OPEN: "last_opened_at",
    EntryKind.DECK_CHANGE: "last_deck_change_at",
}


def _clock_rejudged(*, table: GamingTable, kind: str, rules: Jurisdiction) -> None:
    """A corrected time of a closing, opening or deck change: the table's clock of that kind is the
    time of its last such entry as amended (one entered in error or a duplicate not counted), so the
    deadlines that run from it are judged again as if the log had always read so (deadlines_set,
    when the table is saved); the overdue scan flags what is then past."""
    times = [
        _time_as_amended(entry)
        for entry in Entry.objects.filter(table=table, kind=kind)
        if _voided_by(entry, rules.VOIDING_AMENDMENTS) is None
    ]
    setattr(table, TIMED_BY[kind], max(times, default=None))


def _order_rejudged(*, table: GamingTable, rules: Jurisdiction) -> None:
    """§ 617a.2(c), (d) on the log as amended: when a corrected time puts an adjustment or replacement
    after the inspection the table's opening rests on, that inspection no longer counts, as if the log
    had always read so; an open table is then flagged by the overdue scan. Only ever taken away: a
    correction never makes an inspection count that did not (a new inspection does; docs/readings.md)."""
    last = Entry.objects.filter(table=table, kind=EntryKind.INSPECTION).order_by("-seq").first()
    if last is None or table.inspection_void_reason or table.state not in (TableState.INSPECTED, TableState.OPEN):
        return
    inspected_at = _time_as_amended(last)
    latest: dict[str, datetime] = {}
    for work in Entry.objects.filter(table=table, kind__in=(EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT)):
        if _voided_by(work, rules.VOIDING_AMENDMENTS) is None:
            at = _time_as_amended(work)
            latest[work.kind] = max(at, latest.get(work.kind, at))
    table.last_inspection_at = inspected_at
    if EntryKind.ADJUSTMENT in latest:
        table.last_adjustment_at = latest[EntryKind.ADJUSTMENT]
    if EntryKind.REPLACEMENT in latest:
        table.last_replacement_at = latest[EntryKind.REPLACEMENT]
    for kind in (EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT):
        if kind in latest and latest[kind] > inspected_at:
            table.inspection_void_reason = kind
            table.state = table_states.next_state(table.state, table_states.VOID)
            return


def _inspection_amended_away(*, table: GamingTable, original: Entry, rules: Jurisdiction) -> None:
    """§ 617a.2(a): an inspection entered in error is no inspection; a duplicate counts only as the one
    it repeats, at that one's time (so it is void when that one is); one corrected to a failed item did
    not pass. When the amended inspection is the one the table's opening rests on (the last one, since
    the last closing), or one that last one repeats, the table needs a new one; an open table is
    flagged by the overdue scan. Amendments only ever take an inspection away, in whatever order."""
    last = Entry.objects.filter(table=table, kind=EntryKind.INSPECTION).order_by("-seq").first()
    if last is None or (table.last_closed_at and table.last_closed_at > last.occurred_at):
        return
    chain, voided, passed = _inspection_as_amended(last, rules)
    effective = chain[-1]
    if original.pk not in {entry.pk for entry in chain}:
        return  # not what the table's opening rests on
    if voided:
        reason = "entered_in_error" if effective.pk == last.pk else "duplicate"
    elif not passed:
        reason = "failed"
    elif effective.pk == last.pk:
        return
    else:
        since = table.last_inspection_at = effective.occurred_at
        if table.last_adjustment_at and table.last_adjustment_at > since:
            reason = EntryKind.ADJUSTMENT
        elif table.last_replacement_at and table.last_replacement_at > since:
            replaced = Entry.objects.filter(table=table, kind=EntryKind.REPLACEMENT).order_by("-seq").first()
            ball = replaced is not None and (replaced.details or {}).get("new_ball") is not None
            reason = "ball_change" if ball else EntryKind.REPLACEMENT
        elif table.last_closed_at and table.last_closed_at > since:
            reason = "duplicate"
        else:
            return  # the inspection it repeats still counts
    table.inspection_void_reason = reason
    table.state = table_states.next_state(table.state, table_states.VOID)


def amendment_record(
    *,
    entry_id: int,
    reason: str,
    correction: dict | None = None,
    signature: SignatureInput,
    recorded_by: User,
    amendment_kind: str = "correction",
    duplicate_of: int | None = None,
    photos: Sequence = (),
) -> Entry:
    """Amend an earlier entry by a new one that points at it and says why; the original is untouched.

    An amendment corrects fields of the entry (`correction`: field → corrected value), or marks it
    entered in error, or a duplicate of an earlier entry of the same table (`duplicate_of`: its number).
    It may add photos (signed with the amendment); the original's photos stay as they were signed.
    """
    correction = correction or {}
    jurisdiction, table_id = Entry.objects.values_list("property__jurisdiction", "table_id").get(pk=entry_id)
    signer = signer_authenticate(signature=signature, field="signature", jurisdiction=jurisdiction, in_logbook=True)
    judged = _photos_judged(table_id=table_id, files=photos)
    with transaction.atomic():
        original = Entry.objects.get(pk=entry_id)
        table, as_locked = _table_lock(original.table_id)
        rules = table.property.rulebook()
        signer_ids = set(original.signatures.values_list("signer_id", flat=True))
        duplicate = (
            Entry.objects.filter(property_id=original.property_id, seq=duplicate_of).first()
            if duplicate_of is not None
            else None
        )
        new_ball = correction.get("new_ball")
        now = timezone.now()
        malformed = rules.check_correction(
            kind=original.kind,
            allowed=CORRECTABLE[original.kind],
            correction=correction,
            now=now,
            skew=timedelta(seconds=settings.LOGBOOK_CLOCK_SKEW_SECONDS),
            checklist=tuple(item.code for item in rules.checklist_for(table)),
            ball_known=isinstance(new_ball, int)
            and Ball.objects.filter(pk=new_ball, property_id=table.property_id).exists(),
            required=amendment_kind not in rules.VOIDING_AMENDMENTS,
            recorded_at=_in_zone(original.recorded_at, table.property.zone),
            max_backdate=timedelta(hours=settings.ENTRY_MAX_BACKDATE_HOURS),
        )
        raise_if_any(
            [
                rules.may_amend(entry=original, signer=signer, original_signer_ids=signer_ids),
                *rules.check_amendment(
                    amendment_kind=amendment_kind,
                    entry=original,
                    correction=correction,
                    duplicate_of=duplicate_of,
                    duplicate=duplicate,
                    voided_by=_voided_by(original, rules.VOIDING_AMENDMENTS),
                ),
                *malformed,
                # What creation refuses, a correction refuses too (the table's jurisdiction, game and
                # the configuration approved on the entry's day), once its values are well formed.
                *(
                    rules.check_corrected_entry(
                        table=table,
                        entry_kind=original.kind,
                        details=_details_as_amended(original),
                        correction=correction,
                        rules_submission=rules_submission_in_effect(
                            property_id=table.property_id,
                            game=table.game,
                            on=local_date(original.occurred_at, table.property.zone),
                        ),
                    )
                    if amendment_kind == "correction" and not malformed
                    else []
                ),
            ]
        )
        details: dict[str, object] = {"reason": reason, "correction": correction}
        if amendment_kind != "correction":
            details |= {"amendment_kind": amendment_kind, "duplicate_of": duplicate_of}
        if amendment_kind == "correction":
            description = f"Amends entry #{original.seq}: {reason}"
        else:
            description = f"Entry #{original.seq} marked {amendment_label(details)}: {reason}"
        entry = entry_append(
            table=table,
            kind=EntryKind.AMENDMENT,
            # An amendment happens now; it does not move the table's clock.
            occurred_at=max(now, table.last_entry_at or now),
            recorded_by=recorded_by,
            signers=[Signer(signer, SignatureMeaning.AMENDED)],
            description=description,
            details=details,
            amends=original,
            photos=judged,
        )
        amended_away = original.kind == EntryKind.INSPECTION and (
            amendment_kind != "correction" or "items" in correction
        )
        reordered = original.kind in ORDERED_KINDS and "performed_at" in correction and rules.KEEPS_PROCEDURE
        retimed = original.kind in TIMED_BY and "at" in correction
        if amended_away:
            _inspection_amended_away(table=table, original=original, rules=rules)
        if reordered:
            _order_rejudged(table=table, rules=rules)
        if retimed:
            _clock_rejudged(table=table, kind=original.kind, rules=rules)
        if amended_away or reordered or retimed:
            _table_save(table, as_locked=as_locked, at=None, entry=entry)
    return entry


class CheckpointRefused(Exception):
    """The chain since the last checkpoint does not verify: nothing is signed over it."""

    def __init__(self, report: chain.ChainReport):
        super().__init__(report.as_text())
        self.report = report


def checkpoint_sign(*, property_id: int, reason: str = "interval") -> Checkpoint | None:
    """Sign the property's chain head with the checkpoint key, after checking the chain from the last
    checkpoint to it; None when the interval's checkpoint has nothing new to cover (a report's is always
    made). Raises checkpoints.CheckpointKeyMissing without a key ring, CheckpointRefused when the chain
    since the last checkpoint is broken or contradicts it, or when the database does not extend what
    the signer last signed for the property (its ledger, outside the database: deleted checkpoints or
    entries, an older backup, another property's identity), so nothing is signed over it.

    The chain's lock is held only to read the head and to append the checkpoint: the check and the
    timestamp authority's answer (a network call) come in between, and if another checkpoint was
    appended meanwhile, this one is made again over the newer head.
    """
    keys = checkpoints.checkpoint_keys()
    while True:
        with transaction.atomic():
            head = ChainHead.objects.select_for_update().filter(property_id=property_id).first()
            if head is None or head.length == 0:
                return None
            last = Checkpoint.objects.filter(property_id=property_id).order_by("-seq").first()
        if reason == "interval" and last is not None and last.entry_seq == head.length:
            return None
        # What the signer itself last signed, outside the database (its ledger): the chain must extend
        # it. Without it, a database whose checkpoints were all deleted would be checked against itself
        # alone, and its rewritten history signed.
        try:
            signed_before = ledger.ledger_read().get(property_id)
        except ledger.LedgerUnreadable as unreadable:
            refusal = chain.ChainReport(property_id=property_id, entries_checked=0, head_hash=chain.GENESIS)
            refusal.checkpoint_problem, refusal.reason = "unverifiable", str(unreadable)
            raise CheckpointRefused(refusal) from None
        verified = chain.chain_verify(
            property_id=property_id,
            since=last,
            upto=(head.length, head.head),
            known=[("the signer's ledger", signed_before)] if signed_before else [],
        )
        if not verified.ok:
            raise CheckpointRefused(verified)
        prop = Property.objects.get(pk=property_id)
        now = timezone.now()
        key = signing_key(keys, now)
        if key.private_key is None:  # signing_key answers only keys that have one
            raise RuntimeError(f"the signing key {key.key_id} has no private key")
        seq = last.seq + 1 if last else 1
        message = checkpoints.checkpoint_message(
            property_id=property_id,
            licence=prop.licence_number,
            jurisdiction=prop.jurisdiction,
            seq=seq,
            entry_seq=head.length,
            head=head.head,
            signed_at=now,
            key_id=key.key_id,
        )
        signature = key.private_key.sign(message)
        token, note = None, ""
        try:
            token = timestamp_fetch(signature)
        except TimestampUnavailable as unavailable:
            note = str(unavailable)[:300]
        with transaction.atomic():
            ChainHead.objects.select_for_update().filter(property_id=property_id).first()
            newest = Checkpoint.objects.filter(property_id=property_id).order_by("-seq").first()
            if (newest.seq if newest else 0) != seq - 1:
                continue  # another checkpoint came first: sign again over the head as it is now
            checkpoint = Checkpoint.objects.create(
                property_id=property_id,
                licence_number=prop.licence_number,
                jurisdiction=prop.jurisdiction,
                seq=seq,
                entry=Entry.objects.get(property_id=property_id, seq=head.length),
                entry_seq=head.length,
                head=head.head,
                signed_at=now,
                reason=reason,
                key_id=key.key_id,
                signature=signature.hex(),
                timestamp_token=token,
                timestamp_note=note,
            )
        # Into the ledger once the checkpoint is committed (at once here, or when an enclosing transaction
        # commits): it never records a checkpoint the database rolled back. A crash in between leaves it
        # one checkpoint behind, which the next one makes good.
        transaction.on_commit(partial(ledger.ledger_record, checkpoints.checkpoint_record(checkpoint)))
        return checkpoint


class HistoryLossRefused(Exception):
    """Nothing to accept: the database is not missing history the signer signed, or is broken otherwise."""


def checkpoint_history_loss_accept(*, property_id: int, reason: str) -> dict:
    """After restoring a backup older than the signer's ledger (README, Restore): the history the
    restore could not bring back is accepted as lost, so that the property's logbook is signed again
    from what the database holds. Only a loss is accepted: the database must otherwise verify (its
    chain whole, its checkpoints valid) and hold nothing that contradicts the ledger. The ledger keeps
    the lost record, the counts and `reason`, and verify_logbook names it from then on. Answers the loss."""
    if not reason.strip():
        raise HistoryLossRefused("say why the history is lost (the restore, its date)")
    keys = checkpoints.checkpoint_keys()
    lost = ledger.ledger_read().get(property_id)
    if lost is None:
        raise HistoryLossRefused(f"the signer's ledger holds nothing for property {property_id}")
    held = chain.known_checkpoint_check(property_id=property_id, record=lost, keys=keys, source="the signer's ledger")
    if held.problem != "missing_history":
        raise HistoryLossRefused(f"no history is missing to accept: {held.reason or 'the database reaches the ledger'}")
    verified = chain.chain_verify(property_id=property_id)
    # Entries the restore brought back after its last checkpoint may be old and uncovered: the next
    # checkpoint covers them.
    if not verified.ok and verified.checkpoint_problem != "uncovered":
        raise HistoryLossRefused(f"the database's own chain does not verify: {verified.as_text()}")
    last = Checkpoint.objects.filter(property_id=property_id).order_by("-seq").first()
    counts = {"missing_entries": held.missing_entries, "missing_checkpoints": held.missing_checkpoints}
    ledger.ledger_loss_accept(
        property_id=property_id,
        lost=lost,
        now=timezone.now().isoformat(),
        reason=reason.strip(),
        counts=counts,
        current=checkpoints.checkpoint_record(last) if last else None,
    )
    return {"lost": lost, **counts}


def checkpoint_grown(*, now: datetime | None = None, every: timedelta | None = None) -> dict[str, list[int]]:
    """Beat's task (every minute): a checkpoint for every property whose logbook grew since its last
    one, once that one is `every` old (LOGBOOK_CHECKPOINT_MINUTES unless given), so the setting alone
    sets the interval, whatever beat's schedule. Answers which were signed, and which were refused
    (their chain does not verify: logged as an error)."""
    now = now or timezone.now()
    every = timedelta(minutes=settings.LOGBOOK_CHECKPOINT_MINUTES) if every is None else every
    newest = Checkpoint.objects.filter(property_id=OuterRef("property_id")).order_by("-seq")
    grown = (
        ChainHead.objects.annotate(
            covered=Coalesce(Subquery(newest.values("entry_seq")[:1]), Value(0)),
            last_signed=Subquery(newest.values("signed_at")[:1]),
        )
        .filter(length__gt=F("covered"))
        .filter(Q(last_signed__isnull=True) | Q(last_signed__lte=now - every))
        .order_by("property_id")
        .values_list("property_id", flat=True)
    )
    done: dict[str, list[int]] = {"signed": [], "refused": []}
    for property_id in grown:
        try:
            if checkpoint_sign(property_id=property_id, reason="interval") is not None:
                done["signed"].append(property_id)
        except CheckpointRefused as refused:
            logger.error("checkpoint refused: %s", refused.report.as_text())
            done["refused"].append(property_id)
    return done
