"""Amendments: a later entry that corrects an earlier one, or marks it entered in error or a
duplicate, and the table's state judged again on the log as amended."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from compliance.accounts.models import User
from compliance.accounts.signatures import SignatureInput, signer_authenticate
from compliance.approvals.selectors import rules_submission_in_effect
from compliance.casinos.clock import local_date
from compliance.casinos.models import Ball, GamingTable, TableState
from compliance.rulebook import Jurisdiction, raise_if_any, table_states
from inspections.logbook.models import (
    Entry,
    EntryKind,
    SignatureMeaning,
    amendment_label,
)
from inspections.logbook.selectors import (
    entry_details_as_amended,
    entry_time_as_amended,
    entry_voided_by,
    inspection_as_amended,
)
from inspections.logbook.services._append import (
    Signer,
    entry_append,
    in_zone,
    photos_judged,
    table_lock,
    table_save,
)

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
        entry_time_as_amended(entry)
        for entry in Entry.objects.filter(table=table, kind=kind)
        if entry_voided_by(entry, rules.VOIDING_AMENDMENTS) is None
    ]
    setattr(table.status, TIMED_BY[kind], max(times, default=None))


def _order_rejudged(*, table: GamingTable, rules: Jurisdiction) -> None:
    """§ 617a.2(c), (d) on the log as amended: when a corrected time puts an adjustment or replacement
    after the inspection the table's opening rests on, that inspection no longer counts, as if the log
    had always read so; an open table is then flagged by the overdue scan. Only ever taken away: a
    correction never makes an inspection count that did not (a new inspection does; docs/readings.md)."""
    last = Entry.objects.filter(table=table, kind=EntryKind.INSPECTION).order_by("-seq").first()
    if (
        last is None
        or table.status.inspection_void_reason
        or table.status.state not in (TableState.INSPECTED, TableState.OPEN)
    ):
        return
    inspected_at = entry_time_as_amended(last)
    latest: dict[str, datetime] = {}
    for work in Entry.objects.filter(table=table, kind__in=(EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT)):
        if entry_voided_by(work, rules.VOIDING_AMENDMENTS) is None:
            at = entry_time_as_amended(work)
            latest[work.kind] = max(at, latest.get(work.kind, at))
    table.status.last_inspection_at = inspected_at
    if EntryKind.ADJUSTMENT in latest:
        table.status.last_adjustment_at = latest[EntryKind.ADJUSTMENT]
    if EntryKind.REPLACEMENT in latest:
        table.status.last_replacement_at = latest[EntryKind.REPLACEMENT]
    for kind in (EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT):
        if kind in latest and latest[kind] > inspected_at:
            table.status.inspection_void_reason = kind
            table.status.state = table_states.next_state(table.status.state, table_states.VOID)
            return


def _inspection_amended_away(*, table: GamingTable, original: Entry, rules: Jurisdiction) -> None:
    """§ 617a.2(a): an inspection entered in error is no inspection; a duplicate counts only as the one
    it repeats, at that one's time (so it is void when that one is); one corrected to a failed item did
    not pass. When the amended inspection is the one the table's opening rests on (the last one, since
    the last closing), or one that last one repeats, the table needs a new one; an open table is
    flagged by the overdue scan. Amendments only ever take an inspection away, in whatever order."""
    last = Entry.objects.filter(table=table, kind=EntryKind.INSPECTION).order_by("-seq").first()
    if last is None or (table.status.last_closed_at and table.status.last_closed_at > last.occurred_at):
        return
    chain, voided, passed = inspection_as_amended(last, rules)
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
        since = table.status.last_inspection_at = effective.occurred_at
        if table.status.last_adjustment_at and table.status.last_adjustment_at > since:
            reason = EntryKind.ADJUSTMENT
        elif table.status.last_replacement_at and table.status.last_replacement_at > since:
            replaced = Entry.objects.filter(table=table, kind=EntryKind.REPLACEMENT).order_by("-seq").first()
            ball = replaced is not None and (replaced.details or {}).get("new_ball") is not None
            reason = "ball_change" if ball else EntryKind.REPLACEMENT
        elif table.status.last_closed_at and table.status.last_closed_at > since:
            reason = "duplicate"
        else:
            return  # the inspection it repeats still counts
    table.status.inspection_void_reason = reason
    table.status.state = table_states.next_state(table.status.state, table_states.VOID)


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
    judged = photos_judged(table_id=table_id, files=photos)
    with transaction.atomic():
        original = Entry.objects.get(pk=entry_id)
        table, as_locked = table_lock(original.table_id)
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
            recorded_at=in_zone(original.recorded_at, table.property.zone),
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
                    voided_by=entry_voided_by(original, rules.VOIDING_AMENDMENTS),
                ),
                *malformed,
                # What creation refuses, a correction refuses too (the table's jurisdiction, game and
                # the configuration approved on the entry's day), once its values are well formed.
                *(
                    rules.check_corrected_entry(
                        table=table,
                        entry_kind=original.kind,
                        details=entry_details_as_amended(original),
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
            occurred_at=max(now, table.status.last_entry_at or now),
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
            table_save(table, as_locked=as_locked, at=None, entry=entry)
    return entry
