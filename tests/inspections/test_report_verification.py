"""A report's check of the hash chain is incremental: it starts from the newest signed checkpoint before
its period (its signature checked, its head matched), walks through every checkpoint after it to the
period's end, and says on its cover exactly what it verified, from where. What it reads does not grow
with the history before that checkpoint; the whole history stays verify_logbook's to check."""

from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from compliance.casinos.clock import local_date
from inspections.logbook import chain, checkpoints, services
from inspections.logbook.models import Checkpoint, Entry
from inspections.reports import render
from inspections.reports.models import Report
from tests import append_only as triggers
from tests.support.logbook import a_day
from tests.support.reports import pdf_pages

# The history is laid down at fixed distances before now: the old days, then the period (yesterday
# and today in the property's zone), each at noon in New York, far from the property's midnight.
OLD = timedelta(days=20)
BETWEEN = timedelta(days=6)


@pytest.fixture(autouse=True)
def noon():
    """Today at noon in New York (17:00 UTC): every day of the history starts far from a midnight."""
    now = timezone.now()
    with time_machine.travel(now.replace(hour=17, minute=0, second=0, microsecond=0), tick=True):
        yield


def days(casino, count: int, *, ago: timedelta | None = None) -> None:
    """`count` of a table's days (six entries each), `ago` before now."""
    if ago is None:
        for _ in range(count):
            a_day(casino)
        return
    with time_machine.travel(timezone.now() - ago, tick=True):
        for _ in range(count):
            a_day(casino)


def beat(casino, *, ago: timedelta | None = None) -> Checkpoint:
    """The five-minute task's checkpoint over the logbook as it is."""
    if ago is None:
        return services.checkpoint_sign(property_id=casino.property.pk)
    with time_machine.travel(timezone.now() - ago, tick=True):
        return services.checkpoint_sign(property_id=casino.property.pk)


def period_report(casino, *, days_back: int = 1) -> Report:
    today = local_date(timezone.now(), casino.property.zone)
    return Report.objects.create(
        property=casino.property,
        kind="inspection_register",
        period_from=today - timedelta(days=days_back),
        period_to=today,
        requested_by=casino.compliance,
    )


def checked(report: Report) -> Report:
    """The report's plan (its own checkpoint signed first) and its chain check, without the PDF."""
    render.plan(report.pk)
    render.verify(report.pk)
    return Report.objects.select_related("chain_from", "checkpoint").get(pk=report.pk)


def tamper(statement: str, *params) -> None:
    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
    triggers.install(connection)


def entry(casino, seq: int) -> Entry:
    return Entry.objects.get(property=casino.property, seq=seq)


@pytest.fixture
def old_history(casino):
    """Two old days (12 entries) checkpointed by beat as #1, then a day in the period (6 entries)."""
    days(casino, 2, ago=OLD)
    beat(casino, ago=OLD - timedelta(minutes=10))
    days(casino, 1)
    return casino


def test_the_check_starts_from_the_newest_signed_checkpoint_before_the_period_and_says_so(
    committed_db,
    media,
    old_history,
):
    report = render.generate_locally(period_report(old_history).pk, processes=1)
    assert (report.status, report.chain_intact) == ("done", True)
    first = Checkpoint.objects.get(property=old_history.property, seq=1)
    assert (report.chain_from, report.chain_to_seq, report.chain_rows_read) == (first, 18, 6)
    assert report.checkpoint.seq == 2 and report.checkpoint.entry_seq == 18
    cover = " ".join(pdf_pages(report)[0].split())
    signed = f"{timezone.localtime(first.signed_at, old_history.property.zone):%Y-%m-%d %H:%M:%S %Z}"
    assert (
        f"Chain verified from signed checkpoint #1 (entry #12, signed {signed} by key {first.key_id}) to entry #18"
    ) in cover
    assert "The entries up to #12 were not re-checked for this report" in cover
    assert "verify_logbook checks the whole chain from the first entry" in cover


def test_without_a_checkpoint_before_the_period_the_check_starts_from_the_first_entry(casino):
    days(casino, 2)
    report = checked(period_report(casino))
    assert (report.chain_intact, report.chain_from, report.chain_to_seq, report.chain_rows_read) == (True, None, 12, 12)
    words = render.chain_checked_words(report)
    assert words == "Chain verified from the first entry of the property's logbook to entry #12."


def test_a_row_altered_in_the_period_after_a_later_checkpoint_is_caught(old_history):
    """Entry #14 (in the period) is altered after beat signed #2 over it: the report's own checkpoint,
    signed over what came since #2, would not see it; the walk from #1 through #2 does."""
    beat(old_history)
    days(old_history, 1)
    tamper("UPDATE logbook_entry SET description = 'nothing happened' WHERE id = %s", entry(old_history, 14).pk)
    report = checked(period_report(old_history))
    assert report.checkpoint is not None and report.checkpoint.seq == 3  # signed: the chain since #2 holds
    assert (report.chain_intact, report.chain_broken_seq, report.chain_from.seq) == (False, 14, 1)
    assert "does not match its content" in report.chain_broken_reason


def test_a_row_altered_between_the_checkpoint_and_the_period_is_caught(casino):
    days(casino, 2, ago=OLD)
    beat(casino, ago=OLD - timedelta(minutes=10))  # #1 over entry #12
    days(casino, 1, ago=BETWEEN)  # #13 to #18, before the period, no checkpoint after them
    days(casino, 1)  # the period: #19 to #24
    beat(casino)  # #2 over #24
    tamper("UPDATE logbook_entry SET table_number = 'R-99' WHERE id = %s", entry(casino, 15).pk)
    report = checked(period_report(casino))
    assert report.checkpoint is not None and report.checkpoint.seq == 3
    assert (report.chain_intact, report.chain_broken_seq, report.chain_from.seq) == (False, 15, 1)


def test_a_row_altered_before_the_starting_checkpoint_is_left_to_verify_logbook(old_history, capsys):
    """The report does not re-check what its starting checkpoint vouches for, and its cover says so;
    verify_logbook, the check of the whole history, catches the altered row."""
    tamper("UPDATE logbook_entry SET description = 'nothing happened' WHERE id = %s", entry(old_history, 4).pk)
    report = checked(period_report(old_history))
    assert (report.chain_intact, report.chain_from.seq, report.chain_rows_read) == (True, 1, 6)
    assert "The entries up to #12 were not re-checked for this report" in render.chain_checked_words(report)
    with pytest.raises(SystemExit) as exited:
        call_command("verify_logbook", property=old_history.property.pk)
    assert exited.value.code == 1
    assert f"BROKEN at entry #4 (id {entry(old_history, 4).pk})" in capsys.readouterr().err


def test_a_forged_checkpoint_is_never_a_start(casino):
    """#2's signature is replaced: the check starts from #1 instead, walks into #2 and names it."""
    days(casino, 1, ago=OLD)
    beat(casino, ago=OLD - timedelta(minutes=10))  # #1 over #6
    days(casino, 1, ago=BETWEEN)
    forged = beat(casino, ago=BETWEEN - timedelta(minutes=10))  # #2 over #12
    days(casino, 1)
    tamper("UPDATE logbook_checkpoint SET signature = %s WHERE id = %s", "ab" * 64, forged.pk)
    keys = checkpoints.checkpoint_keys()
    assert chain.start_checkpoint(property_id=casino.property.pk, before_seq=13, keys=keys).seq == 1
    report = checked(period_report(casino))
    assert report.checkpoint is None  # nothing is signed over a chain whose last checkpoint is forged
    assert (report.chain_intact, report.chain_from.seq) == (False, 1)
    assert "checkpoint #2" in report.chain_broken_reason and "signature does not verify" in report.chain_broken_reason


def test_a_contradicted_starting_checkpoint_gets_no_report(old_history):
    """#1's signature holds but the chain no longer has its head at entry #12 (rewritten after it was
    signed). The report's own checkpoint, over what came since #2, is signed; the walk from #1 is
    what refuses the report."""
    beat(old_history)
    days(old_history, 1)
    first = Checkpoint.objects.get(property=old_history.property, seq=1)
    tamper("UPDATE logbook_entry SET entry_hash = %s WHERE id = %s", "f" * 64, first.entry_id)
    report = period_report(old_history)
    render.plan(report.pk)
    assert Report.objects.get(pk=report.pk).checkpoint.seq == 3
    with pytest.raises(render.ReportRefused, match=r"cannot be produced.*checkpoint #1"):
        render.verify(report.pk)


def test_what_the_check_reads_does_not_grow_with_the_history_before_its_checkpoint(casino):
    """Two reports of one day's six entries each: the second with five times the history (and the
    checkpoints) before it reads the same rows in the same number of queries."""
    zone = casino.property.zone

    def a_reported_day(history_days: int, ago: timedelta) -> tuple[Report, int]:
        days(casino, history_days, ago=ago + timedelta(days=1))
        beat(casino, ago=ago + timedelta(hours=20))
        with time_machine.travel(timezone.now() - ago, tick=True):
            days(casino, 1)
            day = local_date(timezone.now(), zone)
            report = Report.objects.create(
                property=casino.property,
                kind="inspection_register",
                period_from=day,
                period_to=day,
                requested_by=casino.compliance,
            )
            render.plan(report.pk)
            with CaptureQueriesContext(connection) as queries:
                render.verify(report.pk)
        # Every read of the checkpoints is bounded: a LIMIT, or from the starting checkpoint's number on
        # (an unbounded one was planned as a scan of every checkpoint of the property).
        for query in queries.captured_queries:
            if 'FROM "logbook_checkpoint"' in query["sql"]:
                assert "LIMIT" in query["sql"] or '"logbook_checkpoint"."seq" >' in query["sql"], query["sql"]
        return Report.objects.get(pk=report.pk), len(queries)

    small, small_queries = a_reported_day(1, timedelta(days=10))
    large, large_queries = a_reported_day(5, timedelta(days=3))
    assert (small.chain_intact, large.chain_intact) == (True, True)
    assert large.chain_from.entry_seq > 3 * small.chain_from.entry_seq  # far more history before it
    assert small.chain_rows_read == large.chain_rows_read == 6
    assert small_queries == large_queries
    # The whole check reads every entry.
    assert chain.chain_verify(property_id=casino.property.pk).rows_read == Entry.objects.count()


def test_the_offline_verifier_reads_the_registers_times_with_their_zone_and_as_reports_wrote_them_before():
    """Issue 30: the register's Time cell and signatures name their zone ("01:25 EST"); a report made
    before, whose CSV wrote "01:25:07" and "2026-11-24 01:25", still verifies; a wrong time does not."""
    import csv as csv_module
    import io

    from logbook_proof import formats, verify

    entry = {
        "record": {
            "body": {
                "seq": 7,
                "table": 1,
                "table_number": "R-01",
                "kind": "unlock",
                "occurred_at": "2026-11-24T06:25:07+00:00",
                "description": "Wheel cover unlocked and removed",
                "details": {},
                "passed": None,
            },
            "signatures": [
                {
                    "signer_name": "Dana Whitfield",
                    "credential_number": "PGCB-SEC-20417",
                    "meaning": "recorded",
                    "signed_at": "2026-11-24T06:25:07+00:00",
                }
            ],
        }
    }
    segment = {
        "report": {
            "kind": "inspection_register",
            "rows_are_entries": True,
            "csv": "inspection_register.csv",
            "period_start": "2026-11-24T05:00:00+00:00",
            "period_end": "2026-11-25T05:00:00+00:00",
        },
        "property": {"time_zone": "America/New_York"},
    }

    def verdict_of(time: str, signed: str) -> bool:
        columns = formats.REGISTER_LABELS
        row = {
            columns["seq"]: "7",
            columns["date"]: "2026-11-24",
            columns["time"]: time,
            columns["table_number"]: "R-01",
            columns["kind"]: formats.KIND_WORDS["unlock"],
            columns["part"]: "",
            columns["notes"]: "",
            columns["inspection_certified"]: "",
            columns["signatures"]: f"Dana Whitfield, PGCB-SEC-20417, recorded, {signed}",
            columns["description"]: "Wheel cover unlocked and removed",
            columns["failed_items"]: "",
        }
        out = io.StringIO()
        writer = csv_module.DictWriter(out, fieldnames=list(row))
        writer.writeheader()
        writer.writerow(row)
        verdict = verify.Verdict()
        verify.check_csv(segment, {7: entry}, out.getvalue().encode(), verdict)
        return not verdict.failed

    expected = formats.expected_cells(entry, verify.ZoneInfo("America/New_York"))
    assert expected["time"] == "01:25 EST" and expected["signatures"].endswith(", 2026-11-24 01:25 EST")
    assert verdict_of("01:25 EST", "2026-11-24 01:25 EST")
    assert verdict_of("01:25:07", "2026-11-24 01:25")  # a report made before the zone was named
    assert not verdict_of("02:25 EST", "2026-11-24 01:25 EST")


def segment_bounds(report: Report) -> tuple[int, int]:
    render.plan(report.pk)
    return render._segment_bounds(Report.objects.select_related("checkpoint", "property").get(pk=report.pk))


def test_an_old_weeks_segment_ends_at_the_first_signed_checkpoint_after_it_not_at_the_head(casino):
    """Issue 35, goal 4: the segment runs from the entry after the signed checkpoint before the period
    to the first signed checkpoint after it, so an old period's costs what the latest's does. On the
    old code it ran from the period's first entry to the chain's head (#1 to #24 here)."""
    days(casino, 1, ago=OLD)  # #1 to #6
    beat(casino, ago=OLD - timedelta(minutes=10))  # #1 over #6
    days(casino, 1, ago=BETWEEN)  # the old period: #7 to #12
    beat(casino, ago=BETWEEN - timedelta(minutes=10))  # #2 over #12
    days(casino, 2)  # #13 to #24, the latest days
    old_day = local_date(timezone.now() - BETWEEN, casino.property.zone)
    old = Report.objects.create(
        property=casino.property,
        kind="inspection_register",
        period_from=old_day,
        period_to=old_day,
        requested_by=casino.compliance,
    )
    assert segment_bounds(old) == (7, 12)
    # The latest days: from after #2 to the report's own checkpoint over the head.
    latest = period_report(casino)
    assert segment_bounds(latest) == (13, 24)
    # Without a checkpoint before the period, from the first entry.
    everything = period_report(casino, days_back=30)
    assert segment_bounds(everything) == (1, 24)


def test_an_old_weeks_register_verifies_offline_between_its_two_checkpoints(
    committed_db, media, casino, signing_keys, tmp_path
):
    from pathlib import Path

    from tests.inspections.test_signed_reports import keys_pem, offline, segment_of

    days(casino, 1, ago=OLD)
    beat(casino, ago=OLD - timedelta(minutes=10))
    days(casino, 1, ago=BETWEEN)
    beat(casino, ago=BETWEEN - timedelta(minutes=10))
    days(casino, 1)
    old_day = local_date(timezone.now() - BETWEEN, casino.property.zone)
    report = Report.objects.create(
        property=casino.property,
        kind="inspection_register",
        period_from=old_day,
        period_to=old_day,
        requested_by=casino.compliance,
    )
    report = render.generate_locally(report.pk, processes=1)
    segment = segment_of(report.file.path)
    assert [entry["seq"] for entry in segment["entries"]] == list(range(7, 13))
    assert [checkpoint["seq"] for checkpoint in segment["checkpoints"]] == [1, 2]
    result = offline(Path(report.file.path), "--key", str(keys_pem(tmp_path, signing_keys.ring)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK      the segment starts right after signed checkpoint #1 (entry #6)" in result.stdout
    assert "OK      the segment ends on signed checkpoint #2: entry #12" in result.stdout
    assert "the register's 6 rows on them are the segment's entries of the period" in result.stdout


def test_the_proof_formats_words_are_the_applications():
    """The register's words the verifier reads by are the ones the application prints: the kinds'
    names, every register field's heading, the checkpoint formats."""
    from django.utils import translation

    from inspections.logbook.models import EntryKind
    from inspections.logbook.register import REGISTER_FIELDS
    from inspections.reports.kinds import REGISTER_COLUMNS
    from logbook_proof import formats

    with translation.override("en"):
        assert {value: str(label) for value, label in EntryKind.choices} == formats.KIND_WORDS
    assert set(formats.REGISTER_LABELS) == set(REGISTER_FIELDS)
    assert [column.label for column in REGISTER_COLUMNS] == [formats.REGISTER_LABELS[f] for f in REGISTER_FIELDS]
    assert checkpoints.SIGNED_FIELDS is formats.SIGNED_FIELDS and chain.GENESIS == formats.GENESIS
