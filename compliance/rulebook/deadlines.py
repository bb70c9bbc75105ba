"""When each kind of flag of the overdue scan falls due (docs/architecture.md: The flag kinds): the law
of the deadlines, as plain functions of a table's logbook state and its property's policy.

The logbook keeps their results with the table's state (inspections.logbook.deadlines, with every
entry and every change of policy or approval), so the scan compares columns with the clock and
nothing else. Each function says the paragraph it applies; the names of the results are the
registry's deadline columns (compliance.rulebook.flags.FLAG_KINDS).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Protocol

from compliance.rulebook.flags import DUE_COLUMNS
from compliance.rulebook.vocabulary import TableState

# The inspection void reasons that leave no inspection at all (§ 617a.2(a)): it failed, or an
# amendment took it away (entered in error, a duplicate that no longer counts).
NO_INSPECTION = ("failed", "entered_in_error", "duplicate")


class Clocks(Protocol):
    """What the deadlines run from: the table's logbook state and clocks, and the two deadlines that
    are kept rather than derived here (a new table's cover deadline, the configuration's approval)."""

    state: str
    inspection_void_reason: str
    last_inspection_at: datetime | None
    last_adjustment_at: datetime | None
    last_replacement_at: datetime | None
    last_opened_at: datetime | None
    last_closed_at: datetime | None
    last_deck_change_at: datetime | None
    cover_due_at: datetime | None
    approval_due_at: datetime | None


@dataclass(frozen=True)
class Deadlines:
    """A table's deadlines, each the moment a kind of flag is due, or None while nothing is pending;
    named as the registry's deadline columns."""

    uninspected_since: datetime | None
    adjusted_since: datetime | None
    replaced_since: datetime | None
    cover_due_at: datetime | None
    inspection_due_at: datetime | None
    decks_due_at: datetime | None
    approval_due_at: datetime | None

    @property
    def next_due(self) -> datetime | None:
        """The earliest of the deadlines still to come (shown on the floor as "due")."""
        return min((due for name in DUE_COLUMNS if (due := getattr(self, name))), default=None)

    def columns(self) -> dict[str, datetime | None]:
        """The deadlines and `next_due`, by column name."""
        return {**asdict(self), "next_due": self.next_due}


def after(moment: datetime | None, since: datetime | None) -> bool:
    """`moment` happened, and after `since` (or there is no `since`)."""
    return moment is not None and (since is None or moment > since)


def cover_due(*, uncovered_since: datetime | None, grace: timedelta, kept: datetime | None, now: datetime) -> datetime:
    """58 Pa. Code § 617a.2(f): "When a Roulette table is not open for play, the Roulette wheel shall be
    secured by placing a cover over the entire wheel and securely locking the cover." Reading
    (docs/readings.md): the rule holds in every state but open, so the property's grace period runs
    from when the wheel was last uncovered while the table is not open: unlocking starts the clock,
    opening stops it, closing restarts it, covering and locking ends it. A new table, never closed nor
    unlocked, is uncovered from when the logbook first knew it: the deadline then set (`kept`) stays."""
    if uncovered_since is not None:
        return uncovered_since + grace
    return kept or now + grace


def inspection_due(*, last_inspection_at: datetime | None, interval: timedelta) -> datetime | None:
    """The property's re-inspection interval, on an open table (product policy: 58 Pa. Code
    § 617a.2(a) requires an inspection before opening only)."""
    return last_inspection_at + interval if last_inspection_at else None


def inspection_counts(clocks: Clocks) -> bool:
    """58 Pa. Code § 617a.2(a): an inspection since the last closing that passed and that no amendment
    took away."""
    return (
        clocks.inspection_void_reason not in NO_INSPECTION
        and clocks.last_inspection_at is not None
        and not after(clocks.last_closed_at, clocks.last_inspection_at)
    )


def uninspected_since(clocks: Clocks) -> datetime | None:
    """58 Pa. Code § 617a.2(a), on an open table: open on no inspection since the last closing (from the
    opening), or on one that failed (from the inspection)."""
    if inspection_counts(clocks):
        return None
    return clocks.last_inspection_at if clocks.inspection_void_reason == "failed" else clocks.last_opened_at


def adjusted_since(clocks: Clocks) -> datetime | None:
    """58 Pa. Code § 617a.2(c), on an open table: an adjustment after the inspection."""
    return clocks.last_adjustment_at if after(clocks.last_adjustment_at, clocks.last_inspection_at) else None


def replaced_since(clocks: Clocks) -> datetime | None:
    """58 Pa. Code § 617a.2(d), on an open table: a replacement after the inspection."""
    return clocks.last_replacement_at if after(clocks.last_replacement_at, clocks.last_inspection_at) else None


def decks_due(*, last_deck_change_at: datetime | None, last_opened_at: datetime | None, hours: int) -> datetime | None:
    """58 Pa. Code § 651a.3(d) (proposed, 41 Pa.B. 3000), on an open Casino War
    table: the decks opened for use are changed at least once every 24 hours. The clock runs from the
    deck change that opened them, whatever the table did since (a reopening does not restart it); an
    open table with no deck change on record is due at its opening, since nothing in the logbook says
    how old its decks are (docs/readings.md)."""
    if last_deck_change_at:
        return last_deck_change_at + timedelta(hours=hours)
    return last_opened_at


def deadlines(
    clocks: Clocks,
    *,
    roulette: bool,
    casino_war: bool,
    uncovered_since: datetime | None,
    grace: timedelta,
    inspection_interval: timedelta,
    deck_change_hours: int,
    now: datetime,
) -> Deadlines:
    """A table's deadlines from its state. `roulette`: a Roulette table at a property that keeps
    § 617a.2 (compliance.rulebook.rulebook_for). `uncovered_since`: when its wheel was last uncovered
    while not open (its last closing, or its last unlocking if later). The approval's deadline is set
    where the configuration is checked (at opening, and when an approval changes what is in effect):
    kept while the table is open, none otherwise."""
    is_open = clocks.state == TableState.OPEN
    roulette_open = is_open and roulette
    covered_or_open = clocks.state in (TableState.OPEN, TableState.LOCKED)
    return Deadlines(
        uninspected_since=uninspected_since(clocks) if roulette_open else None,
        adjusted_since=adjusted_since(clocks) if roulette_open else None,
        replaced_since=replaced_since(clocks) if roulette_open else None,
        cover_due_at=(
            cover_due(uncovered_since=uncovered_since, grace=grace, kept=clocks.cover_due_at, now=now)
            if roulette and not covered_or_open
            else None
        ),
        inspection_due_at=(
            inspection_due(last_inspection_at=clocks.last_inspection_at, interval=inspection_interval)
            if roulette_open
            else None
        ),
        decks_due_at=(
            decks_due(
                last_deck_change_at=clocks.last_deck_change_at,
                last_opened_at=clocks.last_opened_at,
                hours=deck_change_hours,
            )
            if is_open and casino_war
            else None
        ),
        approval_due_at=clocks.approval_due_at if is_open else None,
    )
