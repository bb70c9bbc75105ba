"""The entries of the logbook: inspections, adjustments and replacements, table events,
irregularities and deck changes (services/_append.py signs and chains each)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_noop

from compliance.accounts.models import User
from compliance.accounts.signatures import SignatureInput, signer_authenticate
from compliance.approvals.selectors import layout_approved_for, rules_submission_in_effect
from compliance.casinos.clock import property_today
from compliance.casinos.models import Ball, Game, GamingTable
from compliance.casinos.services import equipment_lock
from compliance.rulebook import Jurisdiction, Violation, raise_if_any, table_states
from compliance.rulebook.games.casino_war import CARD_CHECKS
from compliance.rulebook.games.casino_war import IRREGULARITY_KINDS as CASINO_WAR_IRREGULARITY_KINDS
from inspections.logbook.deadlines import configuration_due
from inspections.logbook.models import (
    Entry,
    EntryKind,
    SignatureMeaning,
)
from inspections.logbook.services._append import (
    Signer,
    entry_append,
    entry_time,
    jurisdiction_of,
    photos_judged,
    table_changes,
    table_lock,
    table_recorded,
)


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
        signature=signature, field="signature", jurisdiction=lambda: jurisdiction_of(table_id), in_logbook=True
    )
    judged = photos_judged(table_id=table_id, files=photos, item=photo_item, inspection=True)
    with transaction.atomic():
        table, as_locked = table_lock(table_id)
        rules = table.property.rulebook()
        at, out_of_order = entry_time(table=table, at=performed_at, field="performed_at")
        raise_if_any([*rules.check_inspection(table=table, inspector=inspector, items=items), out_of_order])
        passed = rules.inspection_passed(items=items)
        failed = [item.label for item in rules.checklist_for(table) if not items[item.code]]
        table.status.last_inspection_at = at
        # An inspection with a failed item never lets the table open.
        table.status.inspection_void_reason = "" if passed else "failed"
        table.status.state = table_states.next_state(table.status.state, EntryKind.INSPECTION, passed=passed)
        changed = table_changes(table, as_locked=as_locked, at=at)
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
        table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)
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
        return jurisdiction_of(table_id)

    performer_user = signer_authenticate(
        signature=performer, field="performer", jurisdiction=jurisdiction, in_logbook=True
    )
    witness_user = (
        signer_authenticate(signature=witness, field="witness", jurisdiction=jurisdiction, in_logbook=True)
        if witness is not None
        else None
    )
    judged = photos_judged(table_id=table_id, files=photos)
    with transaction.atomic():
        table, as_locked = table_lock(table_id)
        rules = table.property.rulebook()
        at, out_of_order = entry_time(table=table, at=performed_at, field="performed_at")
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
        table.status.inspection_void_reason = "ball_change" if ball_change else kind
        if kind == EntryKind.ADJUSTMENT:
            table.status.last_adjustment_at = at
        else:
            table.status.last_replacement_at = at
        if new_ball is not None:
            table.ball = new_ball
        table.status.state = table_states.next_state(table.status.state, kind)
        changed = table_changes(table, as_locked=as_locked, at=at)
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
        table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)
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


@dataclass(frozen=True)
class Event:
    """An entry signed by the one person who records it (a table event, an irregularity, a deck
    change): what the rulebook checks of it, what the logbook says of it and how it moves the table.
    Each kind is a subclass; _recorded_event writes any of them the same way."""

    kind: str

    def guard(self, rules: Jurisdiction, table: GamingTable) -> Violation | None:
        """The rule that may refuse the event at this table's state (table_states)."""
        return table_states.may(rules, self.kind, table=table)

    def checks(self, rules: Jurisdiction, table: GamingTable) -> Sequence[Violation | None]:
        """What else the rulebook asks of this event, after the signer's right to record it."""
        return []

    def description(self, rules: Jurisdiction) -> str:
        raise NotImplementedError

    def details(self) -> dict | None:
        return None

    def move(self, table: GamingTable, at: datetime) -> None:
        """The table as the event leaves it (its state and clocks), before the deadlines are set."""


def _recorded_event(
    *,
    table_id: int,
    event: Event,
    signature: SignatureInput,
    recorded_by: User,
    at: datetime | None,
    photos: Sequence = (),
) -> Entry:
    """An entry signed by the one person who records it: lock, check, append, move the table."""
    signer = signer_authenticate(
        signature=signature, field="signature", jurisdiction=lambda: jurisdiction_of(table_id), in_logbook=True
    )
    judged = photos_judged(table_id=table_id, files=photos)
    with transaction.atomic():
        table, as_locked = table_lock(table_id)
        rules = table.property.rulebook()
        at, out_of_order = entry_time(table=table, at=at, field="at")
        raise_if_any(
            [
                event.guard(rules, table),
                *rules.signer_may_record(event=event.kind, signer=signer, table=table),
                *event.checks(rules, table),
                out_of_order,
            ]
        )
        description = event.description(rules)
        event.move(table, at)
        changed = table_changes(table, as_locked=as_locked, at=at, unlocking=event.kind == EntryKind.UNLOCK)
        entry = entry_append(
            table=table,
            kind=event.kind,
            occurred_at=at,
            recorded_by=recorded_by,
            signers=[Signer(signer, SignatureMeaning.RECORDED)],
            description=description,
            details=event.details(),
            table_columns=changed,
            photos=judged,
        )
        table_recorded(table, as_locked=as_locked, changed=changed, entry=entry)
    return entry


# The table events and what the logbook says of each; the rule that may refuse one and the state it
# leads to are the rulebook's (table_states: guard, next_state).
# The record keeps English; a page says it in the reader's language (the catalogue's entries).
EVENT_DESCRIPTIONS: dict[str, str] = {
    EntryKind.UNLOCK: gettext_noop("Wheel cover unlocked and removed"),
    EntryKind.OPEN: gettext_noop("Table opened for play"),
    EntryKind.CLOSE: gettext_noop("Table closed"),
    EntryKind.COVER: gettext_noop("Wheel covered and the cover securely locked"),
}


@dataclass(frozen=True)
class TableEvent(Event):
    """Unlock, open, close, or cover-and-lock (§ 617a.2(f)); an opening of a Casino War table states how
    its cards were inspected (`cards`, § 651a.4)."""

    cards: str | None = None

    def checks(self, rules: Jurisdiction, table: GamingTable) -> Sequence[Violation | None]:
        # Opening also needs what the regulator approved, in effect today, and registered equipment,
        # and at a Casino War table its cards inspected (§ 651a.4).
        if self.kind != EntryKind.OPEN:
            return []
        return [
            rules.cards_at_opening(table=table, cards=self.cards),
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

    def description(self, rules: Jurisdiction) -> str:
        description = EVENT_DESCRIPTIONS[self.kind]
        if self.kind == EntryKind.OPEN and self.cards in dict(CARD_CHECKS):
            description = f"{description}; {dict(CARD_CHECKS)[self.cards]}"
        return description

    def details(self) -> dict | None:
        return {"cards": self.cards} if self.kind == EntryKind.OPEN and self.cards else None

    def move(self, table: GamingTable, at: datetime) -> None:
        table.status.state = table_states.next_state(table.status.state, self.kind)
        if self.kind == EntryKind.OPEN:
            table.status.last_opened_at = at
            # Approved and in effect now (the gate checked); when a later version takes effect
            # that does not allow this table, the scan flags it from then.
            table.status.approval_due_at = configuration_due(table, now=at)
        elif self.kind == EntryKind.CLOSE:
            # § 617a.2(a): the next opening needs a new inspection.
            table.status.last_closed_at = at
            table.status.inspection_void_reason = ""


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
    if kind not in EVENT_DESCRIPTIONS:  # refused before any signer is authenticated
        raise KeyError(kind)
    return _recorded_event(
        table_id=table_id,
        event=TableEvent(kind=kind, cards=cards),
        signature=signature,
        recorded_by=recorded_by,
        at=at,
    )


@dataclass(frozen=True)
class Irregularity(Event):
    """§ 617a.6: a "no spin" and its reason; on a Casino War table, § 651a.11: the automated card
    shuffling device's irregularities. A replacement ball becomes the table's ball."""

    irregularity: str = ""
    ball_replaced: bool = False
    new_ball: Ball | None = None
    notes: str = ""

    def checks(self, rules: Jurisdiction, table: GamingTable) -> Sequence[Violation | None]:
        # The jurisdiction's list of "no spin" kinds is Roulette's; a Casino War table's own reasons are
        # judged by irregularity_kind_for_game.
        return [
            rules.check_irregularity_kind(kind=self.irregularity) if table.game == Game.ROULETTE else None,
            *self._new_ball_checks(rules, table),
        ]

    def _new_ball_checks(self, rules: Jurisdiction, table: GamingTable) -> Sequence[Violation | None]:
        # § 617a.6 on a Roulette table, § 651a.11 on a Casino War table.
        wrong_kind = rules.irregularity_kind_for_game(
            table=table,
            kind=self.irregularity,
            roulette_kinds=rules.IRREGULARITY_KINDS,
            ball_replaced=self.ball_replaced,
        )
        if wrong_kind is not None:
            return [wrong_kind]
        if self.new_ball is None:
            return [rules.ball_replacement_named(table=table, ball_replaced=self.ball_replaced, new_ball_named=False)]
        # Lock the new ball before asking where it is (as the table services do): two tables
        # taking the same spare at once wait in turn, and the second sees it in use.
        equipment_lock({"ball": self.new_ball})
        in_use_on = GamingTable.objects.filter(ball=self.new_ball).exclude(pk=table.pk).values_list("number", flat=True)
        return [
            *rules.table_equipment(table=table, wheel=None, ball=self.new_ball),
            rules.ball_free(ball=self.new_ball, in_use_on=list(in_use_on), table=table),
        ]

    def description(self, rules: Jurisdiction) -> str:
        if self.irregularity in dict(CASINO_WAR_IRREGULARITY_KINDS):
            return f"Irregularity: {dict(CASINO_WAR_IRREGULARITY_KINDS)[self.irregularity]}"
        return f"No spin: {dict(rules.IRREGULARITY_KINDS)[self.irregularity]}" + (
            f"; ball replaced by {self.new_ball.serial}"
            if self.new_ball
            else "; ball replaced"
            if self.ball_replaced
            else ""
        )

    def details(self) -> dict | None:
        return {
            "irregularity": self.irregularity,
            "ball_replaced": self.ball_replaced,
            "new_ball": self.new_ball.pk if self.new_ball else None,
            "notes": self.notes,
        }

    def move(self, table: GamingTable, at: datetime) -> None:
        table.status.state = table_states.next_state(table.status.state, EntryKind.IRREGULARITY)  # play goes on
        if self.new_ball is not None:
            table.ball = self.new_ball


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
    return _recorded_event(
        table_id=table_id,
        event=Irregularity(
            kind=EntryKind.IRREGULARITY,
            irregularity=kind,
            ball_replaced=ball_replaced,
            new_ball=new_ball,
            notes=notes,
        ),
        signature=signature,
        recorded_by=recorded_by,
        at=at,
        photos=photos,
    )


@dataclass(frozen=True)
class DeckChange(Event):
    """Casino War: the decks of the shoe changed (§ 651a.3(d)); their 24 hours run from this entry. The
    entry states what each deck holds and the colour of the backs, one per batch (§ 651a.3(a), (c)(2))."""

    decks: int = 0
    cards_per_deck: int | None = None
    cover_cards_per_deck: int | None = None
    back_colours: list[str] | None = None

    def guard(self, rules: Jurisdiction, table: GamingTable) -> Violation | None:
        return rules.may_change_decks(table=table)

    def checks(self, rules: Jurisdiction, table: GamingTable) -> Sequence[Violation | None]:
        # Six or eight decks from a manual shoe; 12 to 16 only with a shuffler the table's Rules
        # Submission in effect approves (§ 651a.3(a), (c)); 52 cards and 2 cover cards a deck, and the
        # backs one colour, or a different colour a batch (§ 651a.3(a), (c)(2)).
        allowed = rules.deck_change_allowed(
            table=table,
            decks=self.decks,
            rules_submission=rules_submission_in_effect(
                property_id=table.property_id, game=table.game, on=property_today(table.property)
            ),
        )
        return [
            allowed,
            *rules.deck_composition(
                table=table,
                decks=self.decks,
                cards_per_deck=self.cards_per_deck,
                cover_cards_per_deck=self.cover_cards_per_deck,
                back_colours=self.back_colours,
                decks_allowed=allowed is None,
            ),
        ]

    def description(self, rules: Jurisdiction) -> str:
        backs = self.back_colours
        return f"{self.decks} new decks put in the shoe" + (
            f" ({self.cards_per_deck} cards and {self.cover_cards_per_deck} cover cards each; backs {' and '.join(backs)})"
            if backs
            else ""
        )

    def details(self) -> dict | None:
        return {
            "decks": self.decks,
            "cards_per_deck": self.cards_per_deck,
            "cover_cards_per_deck": self.cover_cards_per_deck,
            "back_colours": self.back_colours,
        }

    def move(self, table: GamingTable, at: datetime) -> None:
        table.status.last_deck_change_at = at


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
    """Casino War: the decks of the shoe changed (§ 651a.3(d)), with what each deck holds and the
    colour of the backs (DeckChange)."""
    return _recorded_event(
        table_id=table_id,
        event=DeckChange(
            kind=EntryKind.DECK_CHANGE,
            decks=decks,
            cards_per_deck=cards_per_deck,
            cover_cards_per_deck=cover_cards_per_deck,
            back_colours=[colour.strip() for colour in back_colours] if back_colours is not None else None,
        ),
        signature=signature,
        recorded_by=recorded_by,
        at=at,
    )
