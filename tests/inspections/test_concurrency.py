"""Two tablets at once: the table's row lock keeps the state machine and the chain consistent."""

import threading

from django.db import connection

from compliance.casinos.models import TableState
from compliance.rulebook import RuleViolation
from inspections.logbook import services
from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry
from tests.factories import GamingTableFactory
from tests.support.logbook import ALL_PASS, inspect
from tests.support.people import sign


def run_at_once(calls) -> list:
    """Start every call together; return each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_only_one_of_several_simultaneous_openings_succeeds(committed_db, casino):
    inspect(casino)
    opens = [
        lambda: services.table_event_record(
            table_id=casino.table.pk, kind="open", signature=sign(casino.security), recorded_by=casino.security
        )
        for _ in range(6)
    ]
    results = run_at_once(opens)
    accepted = [r for r in results if isinstance(r, Entry)]
    refused = [r for r in results if isinstance(r, RuleViolation)]
    assert len(accepted) == 1, results
    assert len(refused) == 5
    assert {v.code for r in refused for v in r.violations} == {"table_already_open"}
    casino.table.refresh_from_db()
    assert casino.table.state == TableState.OPEN
    assert Entry.objects.filter(kind="open").count() == 1


def test_simultaneous_entries_on_several_tables_keep_one_unbroken_chain(committed_db, casino):
    tables = [casino.table, *(GamingTableFactory(property=casino.property) for _ in range(3))]
    calls = [
        (
            lambda table=table: services.inspection_record(
                table_id=table.pk, items=ALL_PASS, signature=sign(casino.floorperson), recorded_by=casino.floorperson
            )
        )
        for table in tables
        for _ in range(3)
    ]
    results = run_at_once(calls)
    assert all(isinstance(r, Entry) for r in results), results
    report = chain_verify(property_id=casino.property.pk)
    assert report.ok, report.reason
    assert report.entries_checked == 12
    assert sorted(Entry.objects.values_list("seq", flat=True)) == list(range(1, 13))
