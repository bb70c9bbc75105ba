"""The benchmarks' seeder writes in bulk beside the services: a migration that adds a required column
must fail here, not in the next `make bench`; and what it writes is a chain the verification finds
intact, signed by checkpoints as beat signs them (the report's own checkpoint then extends them, as
the signer's ledger requires), and a table open for the inspections the benchmark signs."""

from itertools import pairwise

import pytest

from compliance.casinos.models import TableState
from inspections.logbook.chain import chain_verify
from inspections.logbook.ledger import ledger_read
from inspections.logbook.models import Checkpoint, Entry, TableStatus
from inspections.logbook.services import checkpoint_sign

pytestmark = pytest.mark.django_db


def test_the_benchmarks_seeder_writes_an_intact_chain_and_an_open_table():
    from bench.seed import seed

    world = seed(entries=300, tables=3, staff=2, signed=True)
    assert Entry.objects.count() == 300 and len(world["people"]) == 3
    prop = world["property"]
    # Every entry's hash recomputes and links, every checkpoint verifies with the tests' key ring, and
    # the newest covers the head (no entry is left uncovered).
    verified = chain_verify(property_id=prop.pk)
    assert verified.ok and verified.entries_checked == 300, verified.as_text()
    signed = list(Checkpoint.objects.filter(property=prop).order_by("seq"))
    # One a five-minute window with entries: a table's day writes in several windows.
    assert 300 // 5 < len(signed) < 300 and signed[-1].entry_seq == 300
    assert verified.checkpoints_checked == len(signed)
    assert all(later.signed_at > earlier.signed_at for earlier, later in pairwise(signed))
    assert ledger_read()[prop.pk]["seq"] == signed[-1].seq
    # A report's checkpoint: the chain since the last one checked against the ledger, then signed.
    assert checkpoint_sign(property_id=prop.pk, reason="report").seq == signed[-1].seq + 1
    status = TableStatus.objects.get(table=world["hot"])
    assert status.state == TableState.OPEN and status.next_due is not None
