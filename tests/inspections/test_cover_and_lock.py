"""58 Pa. Code § 617a.2(f): "When a Roulette table is not open for play, the Roulette wheel shall be
secured by placing a cover over the entire wheel and securely locking the cover."

Roulette tables only, in every state but open. The property's grace period (15 minutes here) runs
from when the wheel was last uncovered while the table is not open: unlocking starts the clock,
opening stops it, closing restarts it, covering and locking ends it (docs/readings.md).
"""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from compliance.casinos import services as casinos
from compliance.casinos.models import GamingTable, TableState
from compliance.rulebook import table_states
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook import services
from tests.factories import GamingTableFactory
from tests.support.logbook import adjust, event, inspect, refused
from tests.support.people import sign

GRACE = timedelta(minutes=15)
SECOND = timedelta(seconds=1)
COVER_AND_LOCK = "58 Pa. Code § 617a.2(f)"


def table_of(casino) -> GamingTable:
    return GamingTable.objects.get(pk=casino.table.pk)


def flagged_at(due, table) -> ComplianceException:
    """No flag a second before `due`; one not_covered flag at it, with § 617a.2(f)."""
    flag_services.scan(now=due - SECOND)
    assert not ComplianceException.objects.filter(kind="not_covered").exists()
    flag_services.scan(now=due)
    (flag,) = ComplianceException.objects.filter(kind="not_covered", status="open")
    assert (flag.citation, flag.due_at, flag.table_id) == (COVER_AND_LOCK, due, table.pk)
    return flag


def test_a_new_roulette_table_is_due_to_be_covered_from_its_creation(casino):
    """A new table is closed and has never opened: its wheel is not covered either."""
    created = timezone.now()
    with time_machine.travel(created, tick=False):
        table = casinos.table_create(
            actor=casino.compliance,
            property=casino.property,
            number="R-09",
            game="roulette",
            wheel_type="single_zero",
            has_external_movable_parts=True,
        )
    assert (table.state, table.status.cover_due_at) == (TableState.CLOSED, created + GRACE)
    flag = flagged_at(created + GRACE, table)
    covered = services.table_event_record(
        table_id=table.pk, kind="cover", signature=sign(casino.security), recorded_by=casino.security
    )
    flag.refresh_from_db()
    assert (flag.status, flag.cured_by_entry) == ("resolved", covered)


def test_an_unlocked_wheel_is_due_from_its_unlocking_until_the_table_opens(casino):
    event(casino, "cover")
    assert table_of(casino).status.cover_due_at is None  # covered and locked
    unlocked = event(casino, "unlock")
    table = table_of(casino)
    assert (table.state, table.status.cover_due_at) == (TableState.UNLOCKED, unlocked.occurred_at + GRACE)
    adjust(casino)  # the wheel is being adjusted: the clock goes on from the unlocking
    inspect(casino)  # inspected, not yet open: still not open for play
    table = table_of(casino)
    assert (table.state, table.status.cover_due_at) == (TableState.INSPECTED, unlocked.occurred_at + GRACE)
    flag = flagged_at(unlocked.occurred_at + GRACE, table)
    opened = event(casino, "open")  # opening stops the clock (and cures the flag)
    flag.refresh_from_db()
    assert (flag.status, flag.cured_by_entry) == ("resolved", opened)
    assert table_of(casino).status.cover_due_at is None
    closed = event(casino, "close")  # closing restarts it
    assert table_of(casino).status.cover_due_at == closed.occurred_at + GRACE


def test_a_table_inspected_after_closing_and_not_opened_is_due_from_its_closing(casino):
    inspect(casino)
    event(casino, "open")
    closed = event(casino, "close")
    inspect(casino)
    table = table_of(casino)
    assert (table.state, table.status.cover_due_at) == (TableState.INSPECTED, closed.occurred_at + GRACE)
    flagged_at(closed.occurred_at + GRACE, table)


def test_an_unlocked_wheel_may_be_covered_again_without_opening(casino):
    event(casino, "cover")
    event(casino, "unlock")
    event(casino, "cover")
    table = table_of(casino)
    assert (table.state, table.status.cover_due_at) == (TableState.LOCKED, None)


def test_the_grace_period_moves_with_the_policy_from_the_unlocking(casino):
    event(casino, "cover")
    unlocked = event(casino, "unlock")
    casinos.property_update(property_id=casino.property.pk, actor=casino.compliance, changes={"cover_grace_minutes": 5})
    assert table_of(casino).status.cover_due_at == unlocked.occurred_at + timedelta(minutes=5)


@pytest.mark.parametrize("game", ["big_six", "casino_war"])
def test_big_six_and_casino_war_tables_have_no_cover_rule(casino, game):
    """§ 617a.2(f) is the Roulette wheel's: another game's closed table is never flagged for it, its
    wheel or shoe is not "covered and locked" in the logbook, and the floor does not offer it."""
    with time_machine.travel(timezone.now(), tick=False):
        table = casinos.table_create(
            actor=casino.compliance, property=casino.property, number="G-01", game=game, wheel_type=None
        )
    assert table.status.cover_due_at is None
    flag_services.scan(now=timezone.now() + timedelta(days=2))
    assert not ComplianceException.objects.filter(kind="not_covered").exists()
    (found,) = refused(
        lambda: services.table_event_record(
            table_id=table.pk, kind="cover", signature=sign(casino.security), recorded_by=casino.security
        ),
        "not_a_roulette_table",
        COVER_AND_LOCK,
    )
    assert found.field == "table"
    assert "cover" not in table_states.actions_from(TableState.CLOSED, game)
    assert "cover" in table_states.actions_from(TableState.CLOSED, "roulette")


def test_a_big_six_table_closed_after_play_is_not_flagged(casino):
    table = GamingTableFactory(property=casino.property, number="B6-1", game="big_six", wheel_type=None)
    table.status.state = TableState.OPEN
    table.status.save()
    closed = services.table_event_record(
        table_id=table.pk, kind="close", signature=sign(casino.security), recorded_by=casino.security
    )
    table.refresh_from_db()
    assert (table.state, table.status.cover_due_at) == (TableState.CLOSED, None)
    flag_services.scan(now=closed.occurred_at + timedelta(hours=1))
    assert not ComplianceException.objects.filter(kind="not_covered").exists()
