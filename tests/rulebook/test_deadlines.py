"""The law of the deadlines (compliance.rulebook.deadlines), pure: each deadline from the clocks it
runs from, without a database (the logbook's services are tested through their entries)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from compliance.rulebook import deadlines as law

NOON = datetime(2026, 11, 26, 12, tzinfo=UTC)
HOUR = timedelta(hours=1)


def clocks(**given) -> SimpleNamespace:
    blank = dict.fromkeys(
        (
            "last_inspection_at",
            "last_adjustment_at",
            "last_replacement_at",
            "last_opened_at",
            "last_closed_at",
            "last_deck_change_at",
            "cover_due_at",
            "approval_due_at",
        )
    )
    return SimpleNamespace(**{"state": "closed", "inspection_void_reason": "", **blank, **given})


def due(table, *, roulette=True, casino_war=False, uncovered_since=None) -> law.Deadlines:
    return law.deadlines(
        table,
        roulette=roulette,
        casino_war=casino_war,
        uncovered_since=uncovered_since,
        grace=timedelta(minutes=30),
        inspection_interval=timedelta(hours=8),
        deck_change_hours=24,
        now=NOON,
    )


def test_617a_2_f_the_grace_period_runs_from_when_the_wheel_was_uncovered():
    assert due(clocks(), uncovered_since=NOON).cover_due_at == NOON + timedelta(minutes=30)
    # A new table, never closed nor unlocked: the deadline set when the logbook first knew it stays.
    assert due(clocks(cover_due_at=NOON - HOUR)).cover_due_at == NOON - HOUR
    assert due(clocks()).cover_due_at == NOON + timedelta(minutes=30)
    # Covered and locked, or open: nothing to cover.
    assert due(clocks(state="locked"), uncovered_since=NOON).cover_due_at is None
    assert due(clocks(state="open"), uncovered_since=NOON).cover_due_at is None


def test_617a_2_a_open_on_no_inspection_since_the_closing_or_on_a_failed_one():
    opened = clocks(state="open", last_opened_at=NOON, last_inspection_at=NOON - 2 * HOUR)
    assert due(opened).uninspected_since is None
    assert due(clocks(**{**vars(opened), "last_closed_at": NOON - HOUR})).uninspected_since == NOON
    failed = clocks(**{**vars(opened), "inspection_void_reason": "failed"})
    assert due(failed).uninspected_since == NOON - 2 * HOUR
    assert due(opened).inspection_due_at == NOON + 6 * HOUR


def test_617a_2_c_d_an_adjustment_or_replacement_after_the_inspection_on_an_open_table():
    table = clocks(state="open", last_inspection_at=NOON, last_adjustment_at=NOON + HOUR, last_replacement_at=NOON)
    assert (due(table).adjusted_since, due(table).replaced_since) == (NOON + HOUR, None)
    # Not a Roulette table that keeps the procedure: § 617a.2 is not its.
    assert due(table, roulette=False).adjusted_since is None


def test_651a_3_d_the_decks_are_due_24_hours_after_their_change_or_at_the_opening():
    table = clocks(state="open", last_opened_at=NOON, last_deck_change_at=NOON - HOUR)
    assert due(table, roulette=False, casino_war=True).decks_due_at == NOON + 23 * HOUR
    table.last_deck_change_at = None
    assert due(table, roulette=False, casino_war=True).decks_due_at == NOON
    assert due(clocks(last_opened_at=NOON), roulette=False, casino_war=True).decks_due_at is None


def test_next_due_is_the_earliest_deadline_still_to_come():
    table = clocks(state="open", last_inspection_at=NOON, last_adjustment_at=NOON + HOUR, approval_due_at=NOON + HOUR)
    found = due(table)
    assert found.next_due == NOON + HOUR  # the approval's; adjusted_since is no deadline to come
    assert found.columns()["inspection_due_at"] == NOON + 8 * HOUR
    assert due(clocks(state="locked")).next_due is None
