"""The table's state machine (docs/architecture.md: The table's state machine): which event moves a table from which state to which,
beside the guards that may still refuse it (procedure.py: may_open, may_close, may_cover,
may_unlock, may_record_irregularity, and the inspection's and adjustment's checks).

locked → unlocked → (adjustments) → inspected → open → closed → locked; an adjustment, a failed
inspection or an amendment that voids the inspection sends an inspected table back to unlocked.

The logbook's services move a table with `next_state` after its guard (`guard`, `may`) allowed the
event, and the floor pages offer `actions_from` the table's state: neither keeps a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from compliance.rulebook.subjects import Person, Table
from compliance.rulebook.violations import Violation
from compliance.rulebook.vocabulary import Game, TableState

if TYPE_CHECKING:
    from compliance.rulebook.rulebooks import Pennsylvania as Jurisdiction

# The events of the logbook that move a table (the logbook's entry kinds of the same names), and
# VOID: an amendment that takes away the inspection the table's opening rests on.
UNLOCK, INSPECTION, ADJUSTMENT, REPLACEMENT, OPEN, CLOSE, COVER, IRREGULARITY, VOID = (
    "unlock",
    "inspection",
    "adjustment",
    "replacement",
    "open",
    "close",
    "cover",
    "irregularity",
    "void",
)

LOCKED, UNLOCKED, CLOSED, INSPECTED, OPENED = (
    TableState.LOCKED,
    TableState.UNLOCKED,
    TableState.CLOSED,
    TableState.INSPECTED,
    TableState.OPEN,
)

# (state, event) → the state it leads to, for a passing inspection; in each state, the events in the
# order a floor person does them (the floor pages offer them in this order).
TRANSITIONS: dict[tuple[str, str], TableState] = {
    (LOCKED, UNLOCK): UNLOCKED,
    (UNLOCKED, INSPECTION): INSPECTED,
    (UNLOCKED, ADJUSTMENT): UNLOCKED,
    (UNLOCKED, COVER): LOCKED,
    (CLOSED, COVER): LOCKED,
    (CLOSED, INSPECTION): INSPECTED,
    (CLOSED, ADJUSTMENT): CLOSED,
    (INSPECTED, OPEN): OPENED,
    # § 617a.2(c): an adjustment after the inspection voids it.
    (INSPECTED, ADJUSTMENT): UNLOCKED,
    (INSPECTED, INSPECTION): INSPECTED,
    (INSPECTED, COVER): LOCKED,
    (OPENED, CLOSE): CLOSED,
    # An open table stays open: the logbook records what happened, the overdue scan flags it.
    (OPENED, INSPECTION): OPENED,
    # § 617a.6: a "no spin" during play (Roulette only: may_record_irregularity).
    (OPENED, IRREGULARITY): OPENED,
}


# The method of the jurisdiction's rules that may refuse each table event (called with table=...).
GUARDS = {
    UNLOCK: "may_unlock",
    OPEN: "may_open",
    CLOSE: "may_close",
    COVER: "may_cover",
    IRREGULARITY: "may_record_irregularity",
}
# Where a guarded event leads, from any state its guard allows it in: the transitions above are a
# Roulette table's course, and a Big Six or Casino War table (no § 617a.2 inspection) opens from any
# state but open (procedure.may_open). Each of these events leads to one state wherever it happens.
ENTERS = {event: target for (_, event), target in TRANSITIONS.items() if event in GUARDS}


# `state` is the table's column as stored, a str (each TableState is one).
def next_state(state: str, event: str, *, passed: bool = True) -> str:
    """The state `event` leads to from `state`. A failed inspection, an adjustment or replacement, or
    an amendment that voids the inspection leaves an inspected table unlocked and any other as it
    was (an adjustment of an open table is recorded and flagged, not refused)."""
    if (event == INSPECTION and not passed) or event in (ADJUSTMENT, REPLACEMENT, VOID):
        return UNLOCKED if state == INSPECTED else state
    return TRANSITIONS.get((state, event), ENTERS.get(event, state))


def actions_from(state: str, game: str) -> tuple[str, ...]:
    """The events the floor pages offer a table in `state`, in the order a floor person does them."""
    return tuple(
        event
        for (source, event) in TRANSITIONS
        # § 617a.2(f)'s cover is the Roulette wheel's; an irregularity is Roulette's "no spin"
        # (§ 617a.6) or a Casino War table's (§ 651a.11, proposed); Big Six has none listed.
        if source == state
        and (event != COVER or game == Game.ROULETTE)
        and (event != IRREGULARITY or game in (Game.ROULETTE, Game.CASINO_WAR))
    )


# A ball change: a replacement of the ball, which the floor names on its own (every Roulette table has
# a ball, whatever its wheel); it moves the table as a replacement does (procedure.BALL_CHANGE_POLICY).
BALL_CHANGE = "ball_change"
# Every event the floor pages name for a table, in the order a floor person does them: each is offered
# as a button, or listed with the reason it is not (actions_for).
FLOOR_EVENTS = (UNLOCK, INSPECTION, ADJUSTMENT, BALL_CHANGE, OPEN, CLOSE, COVER, IRREGULARITY)
# A Big Six or Casino War table has no § 617a.2 procedure: it opens and closes; a Casino War table
# also logs its irregularities (§ 651a.11, proposed).
OTHER_GAMES_EVENTS = (OPEN, CLOSE)
EVENTS_BY_GAME: dict[str, tuple[str, ...]] = {Game.ROULETTE: FLOOR_EVENTS, Game.CASINO_WAR: (OPEN, CLOSE, IRREGULARITY)}


def actions_for(
    rules: Jurisdiction, *, table: Table, person: Person, opening: Sequence[Violation | None] = ()
) -> list[tuple[str, Violation | None]]:
    """Each event the floor names for this table, with None where this person may record it now, or the
    rule that would refuse it (the same words and citation the service answers after the signatures):
    the table's state (its guard), its wheel, and the person's role as its signer. `opening`: what else
    refuses an opening now (the approved configuration, which the caller reads)."""
    answers: list[tuple[str, Violation | None]] = []
    for event in EVENTS_BY_GAME.get(table.game, OTHER_GAMES_EVENTS):
        if event == INSPECTION:
            reason = rules.inspection_offered(table=table, person=person)
        elif event == ADJUSTMENT:
            reason = rules.adjustment_offered(table=table, person=person)
        elif event == BALL_CHANGE:
            reason = rules.ball_change_offered(table=table, person=person)
        else:
            found = [may(rules, event, table=table), *rules.signer_may_record(event=event, signer=person, table=table)]
            if event == OPEN:
                found.extend(opening)
            reason = next((v for v in found if v is not None), None)
        answers.append((event, reason))
    return answers


def guard(rules: Jurisdiction, event: str) -> Callable[..., Violation | None]:
    """The rule that may refuse a table event (called with table=...)."""
    found: Callable[..., Violation | None] = getattr(rules, GUARDS[event])
    return found


def may(rules: Jurisdiction, event: str, *, table: Table) -> Violation | None:
    """Whether the table event is allowed now, by its guard."""
    return guard(rules, event)(table=table)
