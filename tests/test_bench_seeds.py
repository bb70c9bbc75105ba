"""The benchmarks' seeder writes in bulk beside the services: a migration that adds a required column
must fail here, not in the next `make bench`; and what it writes is a chain the verification finds
intact and a table open for the inspections the benchmark signs."""

import pytest

from compliance.casinos.models import TableState
from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry, TableStatus

pytestmark = pytest.mark.django_db


def test_the_benchmarks_seeder_writes_an_intact_chain_and_an_open_table():
    from bench.seed import seed

    world = seed(entries=300, tables=3, staff=2)
    assert Entry.objects.count() == 300 and len(world["people"]) == 3
    verified = chain_verify(property_id=world["property"].pk)
    # Every entry's hash recomputes and links; the seeder makes no checkpoint, which the tests' key
    # ring (a benchmark runs without one) finds missing.
    assert (verified.entries_checked, verified.broken_checkpoint_seq) == (300, None), verified.as_text()
    assert verified.checkpoint_problem == "uncovered" and verified.reason.startswith("entries from #1 on")
    status = TableStatus.objects.get(table=world["hot"])
    assert status.state == TableState.OPEN and status.next_due is not None
