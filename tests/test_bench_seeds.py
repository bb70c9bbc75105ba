"""The benchmarks seed their databases with SQL of their own, beside the services: a migration that
adds a required column (a person's language) must fail here, not in the next `make bench` on a fresh
machine. PostgreSQL only: the seeds are its SQL (generate_series, COPY), as the benchmarks are."""

import pytest
from django.db import connection

from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the benchmarks seed with PostgreSQL's SQL (generate_series)"
)


# committed_db: the seed builds indexes after its inserts, which PostgreSQL refuses inside one
# transaction with the foreign keys still to check.
def test_the_scan_benchmark_seeds_the_schema_as_it_is_now_and_its_late_tables_are_flagged(committed_db):
    from bench import scan

    as_of = scan.seed(tables=1_000, entries=10_000, properties=10)
    late = scan.late_by_kind(as_of)
    assert all(late.values()), late  # every kind of flag has late tables to catch
    flag_services.scan(now=as_of)
    assert ComplianceException.objects.count() == sum(late.values())


def test_the_report_benchmark_seeds_a_chain_the_verification_finds_intact(committed_db):
    from bench import report

    report.seed(entries=500, small=100)
    assert Entry.objects.count() == 500
    verified = chain_verify(property_id=Entry.objects.values_list("property_id", flat=True).first())
    # Every entry's hash recomputes and links (the benchmark seeds no checkpoint: it runs without a
    # key ring, where the tests' settings have one and so also find the entries uncovered).
    assert (verified.entries_checked, verified.broken_checkpoint_seq) == (500, None), verified.as_text()
    assert verified.checkpoint_problem == "uncovered" and verified.reason.startswith("entries from #1 on")
