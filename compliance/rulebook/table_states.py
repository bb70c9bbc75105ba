"""The table's state machine (docs/architecture.md: The table's state machine): which event moves a table from which state to which,
beside the guards that may still refuse it (procedure.py: may_open, may_close, may_cover,
may_unlock, may_record_irregularity, and the inspection's and adjustment's checks).

locked → unlocked → (adjustments) → inspected → open → closed → locked; an adjustment, a failed
inspection or an amendment that voids the inspection sends an inspected table back to unlocked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from compliance.rulebook.subjects import Table
from compliance.rulebook.violations import Violation
from compliance.rulebook.vocabulary import Game, TableState

if TYPE_CHECKING:
    from compliance.rulebook.jurisdiction import Jurisdiction

# The events of the logbook that move a table (the logbook's entry kinds of the same names).
UNLOCK, INSPECTION, ADJUSTMENT, OPEN, CLOSE, COVER, IRREGULARITY = (
    "unlock",
    "inspection",
    "adjustment",
    "open",
    "close",
    "cover",
    "irregularity",
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
TRANSITIONS: dict[tuple[TableState, str], TableState] = {
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


def next_state(state: TableState, event: str, *, passed: bool = True) -> TableState:
    """The state `event` leads to from `state`. A failed inspection, or an adjustment or replacement,
    leaves an inspected table unlocked and any other as it was (an adjustment of an open table is
    recorded and flagged, not refused)."""
    if event == INSPECTION and not passed:
        return UNLOCKED if state == INSPECTED else state
    if event in (ADJUSTMENT, "replacement"):
        return UNLOCKED if state == INSPECTED else state
    return TRANSITIONS.get((state, event), state)


def actions_from(state: TableState, game: str) -> tuple[str, ...]:
    """The events the floor pages offer a table in `state`, in the order a floor person does them."""
    return tuple(
        event for (source, event) in TRANSITIONS if source == state and (event != IRREGULARITY or game == Game.ROULETTE)
    )


def guard(rules: Jurisdiction, event: str) -> Callable[..., Violation | None]:
    """The rule that may refuse a table event (called with table=...)."""
    guards: dict[str, Callable[..., Violation | None]] = {
        UNLOCK: rules.may_unlock,
        OPEN: rules.may_open,
        CLOSE: rules.may_close,
        COVER: rules.may_cover,
        IRREGULARITY: rules.may_record_irregularity,
    }
    return guards[event]


def may(rules: Jurisdiction, event: str, *, table: Table) -> Violation | None:
    """Whether the table event is allowed now, by its guard."""
    return guard(rules, event)(table=table)
