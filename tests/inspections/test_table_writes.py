"""What an entry writes of its table (issue 17, items 5 and 6): only the columns it changed, under
the table's lock; a replacement ball taken under the ball's lock, so one ball is never on two tables."""

import contextlib
import re
import threading
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from compliance.casinos.models import Ball, GamingTable
from compliance.rulebook import RuleViolation, pa
from inspections.logbook import services
from inspections.logbook.models import Entry
from tests.factories import GamingTableFactory, configure_for_opening
from tests.inspections.test_concurrency import run_at_once
from tests.support.logbook import adjust, event, inspect
from tests.support.people import sign

# What no entry ever moves: the configuration and equipment the table services own.
CONFIGURATION = {"property_id", "number", "game", "wheel_type", "has_external_movable_parts", "electronic", "wheel_id"}


def table_updates(queries, rows: str = "casinos_gamingtable|logbook_tablestatus") -> list[set[str]]:
    """The columns each UPDATE of a table's row set, alone or within the entry's one statement (on
    PostgreSQL the entry, its signatures, the chain head and the table are written together)."""
    found = []
    for query in queries:
        # The table's row, and its logbook status's (logbook.TableStatus), unless `rows` names one.
        for match in re.finditer(rf'UPDATE "(?:{rows})" SET (.*?) WHERE', query["sql"], re.S):
            found.append(set(re.findall(r'"(\w+)" = ', match.group(1))))
    return found


def spare_ball(prop, serial="B-SPARE") -> Ball:
    return Ball.objects.create(property=prop, serial=serial, material="non_metallic", diameter_inches=Decimal("0.8125"))


def no_spin(casino, table, ball, who=None):
    who = who or casino.floorperson
    return services.irregularity_record(
        table_id=table.pk,
        kind="ball_left_wheel",
        ball_replaced=True,
        new_ball=ball,
        signature=sign(who),
        recorded_by=who,
    )


@pytest.mark.parametrize(
    "record, moved",
    [
        (lambda casino: inspect(casino), {"state", "last_inspection_at", "last_entry_at"}),
        (lambda casino: adjust(casino), {"inspection_void_reason", "last_adjustment_at", "last_entry_at"}),
        (lambda casino: (inspect(casino), event(casino, "open")), {"state", "last_opened_at", "last_entry_at"}),
    ],
    ids=["inspection", "adjustment", "open"],
)
def test_an_entry_writes_only_the_table_columns_it_changed(casino, record, moved):
    with CaptureQueriesContext(connection) as queries:
        record(casino)
    updates = table_updates(queries.captured_queries)
    assert updates, "the entry wrote no table row"
    assert moved <= updates[-1], updates
    for columns in updates:
        assert not columns & CONFIGURATION, columns
        # Everything it writes is the state, a time or a deadline the entry moved.
        assert columns <= {
            "state",
            "inspection_void_reason",
            "next_due",
            "last_entry_at",
            "last_inspection_at",
            "last_adjustment_at",
            "last_replacement_at",
            "last_opened_at",
            "last_closed_at",
            "uninspected_since",
            "adjusted_since",
            "replaced_since",
            "cover_due_at",
            "inspection_due_at",
            "decks_due_at",
            "approval_due_at",
        }, columns


def test_a_no_spin_with_a_new_ball_writes_the_ball_and_not_the_wheel(casino):
    inspect(casino)
    event(casino, "open")
    ball = spare_ball(casino.property)
    with CaptureQueriesContext(connection) as queries:
        no_spin(casino, casino.table, ball)
    (columns,) = table_updates(queries.captured_queries, rows="casinos_gamingtable")
    assert "ball_id" in columns and not columns & CONFIGURATION, columns
    assert GamingTable.objects.get(pk=casino.table.pk).ball == ball


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has no row locks: it runs one writer at a time")
def test_two_no_spins_at_once_never_put_one_spare_ball_on_two_tables(committed_db, casino, monkeypatch):
    second = configure_for_opening(
        GamingTableFactory(property=casino.property, number="R-02"), created_by=casino.compliance
    )
    for table in (casino.table, second):
        here = SimpleNamespace(**{**vars(casino), "table": table})
        inspect(here)
        event(here, "open")
    ball = spare_ball(casino.property)

    # A deterministic interleaving: each waits (a little) at the rule for the other to have looked
    # where the ball is. Without the ball's lock both looked before either wrote; with it, the
    # second waits at the lock until the first has committed, and then sees the ball in use.
    met = threading.Barrier(2)
    ball_free = pa.ball_free

    def looked_at_the_same_time(**kwargs):
        with contextlib.suppress(threading.BrokenBarrierError):
            met.wait(timeout=2)
        return ball_free(**kwargs)

    monkeypatch.setattr(pa, "ball_free", looked_at_the_same_time)
    results = run_at_once(
        [
            lambda: no_spin(casino, casino.table, ball, who=casino.floorperson),
            lambda: no_spin(casino, second, ball, who=casino.security),
        ]
    )
    accepted = [r for r in results if isinstance(r, Entry)]
    refused = [r for r in results if isinstance(r, RuleViolation)]
    assert len(accepted) == 1 and len(refused) == 1, results
    assert [v.code for v in refused[0].violations] == ["ball_in_use"]
    assert GamingTable.objects.filter(ball=ball).count() == 1
