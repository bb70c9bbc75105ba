"""The overdue scan: each kind of flag raised on the exact boundary of its deadline and resolved
when cured, concurrent scans, the mail, the digest, the beat schedule, and the policy."""

import html
import threading
import time
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone
from django_celery_beat.models import PeriodicTask
from kombu.exceptions import OperationalError

from compliance.approvals import services as approvals
from compliance.casinos import services as casinos
from compliance.casinos.clock import property_today
from compliance.casinos.models import GamingTable, Property, TableState
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.flags.tasks import scan_overdue
from inspections.flags.tasks import send_digests as send_digests_task
from inspections.logbook import services
from inspections.logbook.deadlines import deadlines_set
from tests.conftest import celery_connected_to
from tests.factories import PASSWORD, GamingTableFactory, PropertyFactory, RegulatorFactory
from tests.inspections.test_concurrency import run_at_once
from tests.support.logbook import ALL_PASS, adjust, event, inspect
from tests.support.people import sign

SECOND = timedelta(seconds=1)


def flags(kind=None, status="open"):
    found = ComplianceException.objects.filter(status=status)
    return list(found.filter(kind=kind) if kind else found)


def table_of(casino) -> GamingTable:
    return GamingTable.objects.get(pk=casino.table.pk)


def boundary(column: str, table: GamingTable, kind: str, citation: str) -> ComplianceException:
    """One second before the deadline: no flag; at it: one flag, with its citation and deadline."""
    due = getattr(table.status, column)
    assert due is not None
    flag_services.scan(now=due - SECOND)
    assert flags() == []
    flag_services.scan(now=due)
    (flag,) = flags()
    assert (flag.kind, flag.citation, flag.due_at, flag.table_id) == (kind, citation, due, table.pk)
    assert flag.detected_at == due
    flag_services.scan(now=due + timedelta(hours=1))  # later scans add nothing
    assert ComplianceException.objects.count() == 1
    return flag


def raised_by(entry, column: str, table: GamingTable, kind: str, citation: str) -> ComplianceException:
    """A problem made at once by an entry: its flag is raised in the entry's own transaction, before any
    scan, detected when the entry was recorded; a scan adds nothing."""
    due = getattr(table.status, column)
    assert due is not None
    (flag,) = flags()
    assert (flag.kind, flag.citation, flag.due_at, flag.table_id) == (kind, citation, due, table.pk)
    assert flag.detected_at == entry.recorded_at
    flag_services.scan(now=due + timedelta(hours=1))
    assert ComplianceException.objects.count() == 1
    return flag


def cured(flag: ComplianceException, *, by, at=None) -> None:
    """The entry `by` cured the flag in its own transaction, before any scan, and the flag names it."""
    flag.refresh_from_db()
    assert (flag.status, flag.resolution, flag.cured_by_entry, flag.resolved_by) == ("resolved", "cured", by, None)
    assert flag.resolved_at == by.recorded_at
    flag_services.scan(now=at)  # the scan leaves a cure as the entry recorded it
    flag.refresh_from_db()
    assert (flag.resolution, flag.cured_by_entry, flag.resolved_at) == ("cured", by, by.recorded_at)


@pytest.fixture
def opened(casino):
    inspect(casino)
    event(casino, "open")
    return casino


def test_a_wheel_left_uncovered_past_the_grace_period(opened):
    event(opened, "close")
    table = table_of(opened)
    assert table.status.cover_due_at == table.status.last_closed_at + timedelta(minutes=15)
    flag = boundary("cover_due_at", table, "not_covered", "58 Pa. Code § 617a.2(f)")
    cured(flag, by=event(opened, "cover"))


def test_an_open_table_on_an_inspection_older_than_the_policy(opened):
    table = table_of(opened)
    assert table.status.inspection_due_at == table.status.last_inspection_at + timedelta(hours=24)
    flag = boundary(
        "inspection_due_at",
        table,
        "inspection_stale",
        "Product policy: the property's re-inspection interval (58 Pa. Code § 617a.2(a) requires an inspection "
        "before opening only)",
    )
    # a fresh inspection moves the deadline a day on
    cured(flag, by=inspect(opened), at=flag.due_at + SECOND)


@pytest.mark.parametrize(
    ("kind", "column", "flag_kind", "citation"),
    [
        ("adjustment", "adjusted_since", "adjusted_after_inspection", "58 Pa. Code § 617a.2(c)"),
        ("replacement", "replaced_since", "replaced_without_inspection", "58 Pa. Code § 617a.2(d)"),
    ],
)
def test_an_adjustment_or_replacement_on_an_open_table(opened, kind, column, flag_kind, citation):
    entry = adjust(opened, kind=kind)
    table = table_of(opened)
    assert getattr(table.status, column) == entry.occurred_at and table.state == TableState.OPEN
    flag = raised_by(entry, column, table, flag_kind, citation)
    cured(flag, by=inspect(opened))


def test_an_open_table_whose_inspection_failed(opened):
    failing = inspect(opened, items={**ALL_PASS, "parts_secure": False})
    table = table_of(opened)
    assert table.status.uninspected_since == failing.occurred_at
    flag = raised_by(failing, "uninspected_since", table, "opened_uninspected", "58 Pa. Code § 617a.2(a)")
    cured(flag, by=inspect(opened))


def test_a_table_open_without_any_inspection_is_flagged_at_its_opening(casino):
    """The opening gate refuses this; a table found so (an import, a restored backup) is still flagged."""
    now = datetime(2026, 11, 23, 12, tzinfo=ZoneInfo("UTC"))
    table = table_of(casino)
    table.status.state, table.status.last_opened_at = TableState.OPEN, now
    deadlines_set(table)
    table.status.save()
    boundary("uninspected_since", table, "opened_uninspected", "58 Pa. Code § 617a.2(a)")


def test_casino_war_decks_older_than_24_hours(casino):
    """§ 651a.3(d): the 24 hours run from the deck change that opened the decks, not the opening."""
    table = GamingTableFactory(property=casino.property, number="CW-1", game="casino_war", wheel_type=None)
    changed_at = datetime(2026, 11, 22, 18, tzinfo=ZoneInfo("UTC"))
    opened_at = datetime(2026, 11, 22, 20, tzinfo=ZoneInfo("UTC"))
    table.status.last_deck_change_at = changed_at
    table.status.state, table.status.last_opened_at, table.status.last_entry_at = TableState.OPEN, opened_at, opened_at
    deadlines_set(table)
    table.status.save()
    assert table.status.decks_due_at == changed_at + timedelta(hours=24)
    flag = boundary("decks_due_at", table, "decks_stale", "58 Pa. Code § 651a.3(d) (proposed, 41 Pa.B. 3000)")
    changed = services.deck_change_record(
        table_id=table.pk,
        decks=6,
        signature=sign(casino.security),
        recorded_by=casino.security,
        cards_per_deck=52,
        cover_cards_per_deck=2,
        back_colours=["red"],
    )
    cured(flag, by=changed, at=flag.due_at + SECOND)


@pytest.mark.any_hour
def test_an_open_table_whose_rules_submission_is_superseded_without_its_wheel_type(opened):
    """A new version, approved, takes effect tomorrow without double-zero wheels: from the local
    midnight it takes effect, the open double-zero table is flagged."""
    prop = opened.property
    tomorrow = approvals_today(prop) + timedelta(days=1)
    version = approved_version(opened, wheel_types=["single_zero"], effective_from=tomorrow)
    table = table_of(opened)
    midnight = datetime.combine(tomorrow, datetime.min.time(), tzinfo=prop.zone)
    assert table.status.approval_due_at == midnight
    flag = boundary("approval_due_at", table, "not_approved", "58 Pa. Code § 617a.1(f); 58 Pa. Code § 601a.2")
    approved_version(opened, wheel_types=["single_zero", "double_zero"], effective_from=tomorrow)
    assert table_of(opened).status.approval_due_at is None
    # The approval lifts the deadline, and the flag stays open, saying so, until the closing ends
    # the play it is about (a flag closes only with its entry).
    flag_services.scan(now=midnight + timedelta(hours=1))
    flag.refresh_from_db()
    assert flag.status == "open"
    assert [(event.kind, event.cause) for event in flag.history.all()] == [("lifted", "approval")]
    assert version.status == "approved"
    cured(flag, by=event(opened, "close"), at=midnight + timedelta(hours=2))


@pytest.mark.any_hour
def test_a_table_closed_past_its_approval_deadline_is_cured_by_its_closing(opened):
    prop = opened.property
    tomorrow = approvals_today(prop) + timedelta(days=1)
    approved_version(opened, wheel_types=["single_zero"], effective_from=tomorrow)
    table = table_of(opened)
    flag = boundary("approval_due_at", table, "not_approved", "58 Pa. Code § 617a.1(f); 58 Pa. Code § 601a.2")
    cured(flag, by=event(opened, "close"), at=table.status.approval_due_at + SECOND)


def test_an_entry_that_moves_no_missed_deadline_cures_nothing(opened):
    """A no spin leaves the adjustment's deadline where it was: its flag stays open, to be cured
    by the inspection, which it names."""
    adjusted = adjust(opened)
    flag_services.scan(now=adjusted.occurred_at)
    (flag,) = flags()
    services.irregularity_record(
        table_id=opened.table.pk,
        kind="ball_left_wheel",
        signature=sign(opened.floorperson),
        recorded_by=opened.floorperson,
    )
    flag_services.scan(now=adjusted.occurred_at + timedelta(minutes=1))
    flag.refresh_from_db()
    assert (flag.status, flag.resolution, flag.cured_by_entry) == ("open", "", None)
    cured(flag, by=inspect(opened))


def test_an_entry_that_leaves_the_violation_standing_cures_nothing(opened):
    """Issue 30, item 4: a second adjustment during play does not end the first one's violation (the
    table is still open uninspected after an adjustment): the flag stays open with its first missed
    deadline, and the inspection cures it; nothing is raised twice."""
    first = adjust(opened)
    (flag,) = flags("adjusted_after_inspection")
    with time_machine.travel(first.recorded_at + timedelta(minutes=1), tick=True):
        second = adjust(opened)
        assert second.occurred_at > first.occurred_at
        flag_services.scan(now=second.occurred_at + timedelta(seconds=1))
        flag.refresh_from_db()
        assert (flag.status, flag.due_at) == ("open", first.occurred_at)
        assert ComplianceException.objects.filter(kind="adjusted_after_inspection").count() == 1
        cure = inspect(opened)
        assert cure.occurred_at > second.occurred_at
        cured(flag, by=cure)


@pytest.mark.any_hour
def test_an_open_table_whose_configuration_a_later_version_drops_is_flagged_from_its_midnight(opened):
    """The scan reads the table's configuration (issue 19, item 1): a version taking effect tomorrow
    that keeps the property's standard configuration but drops the one this table uses flags this
    table from the local midnight it takes effect; a table of the standard configuration is not."""
    prop = opened.property
    with_lightning = [
        {"key": "lucky", "name": "Lucky", "wheel_types": ["double_zero"], "payout_odds": {"straight": [35, 1]}}
    ]
    today, tomorrow = approvals_today(prop), approvals_today(prop) + timedelta(days=1)
    event(opened, "close")
    approved_version(opened, wheel_types=["double_zero"], effective_from=today, configurations=with_lightning)
    casinos.table_update(table_id=opened.table.pk, actor=opened.compliance, changes={"configuration": "lucky"})
    inspect(opened)
    event(opened, "open")
    assert table_of(opened).status.approval_due_at is None
    approved_version(opened, wheel_types=["double_zero"], effective_from=tomorrow)
    table = table_of(opened)
    assert table.status.approval_due_at == datetime.combine(tomorrow, datetime.min.time(), tzinfo=prop.zone)
    boundary("approval_due_at", table, "not_approved", "58 Pa. Code § 617a.1(f); 58 Pa. Code § 601a.2")


def approvals_today(prop) -> date:
    return property_today(prop)


def approved_version(casino, *, wheel_types, effective_from, configurations=None):
    odds = {"straight": [35, 1], "split": [17, 1]}
    draft = approvals.rules_submission_draft(
        prop=casino.property,
        game="roulette",
        effective_from=effective_from,
        wheel_types=wheel_types,
        payout_odds=odds,
        options={},
        configurations=configurations,
        created_by=casino.compliance,
    )
    approvals.rules_submission_file(submission_id=draft.pk, signature=sign(casino.compliance))
    regulator = RegulatorFactory()
    return approvals.rules_submission_decide(
        submission_id=draft.pk, decision="approved", reference="PGCB-9", signature=sign(regulator)
    )


def test_a_flag_closed_by_hand_before_acknowledgements_is_raised_again_while_its_violation_stands(opened):
    """Issue 30, item 4: a flag closed by a manager's note under the old rule left the wheel with
    no open flag; the next scan raises one again, for the same missed deadline."""
    event(opened, "close")
    due = table_of(opened).status.cover_due_at
    flag_services.scan(now=due)
    ComplianceException.objects.update(status="resolved", resolved_by=opened.compliance, resolution="manager")
    flag_services.scan(now=due + timedelta(minutes=5))
    (flag,) = flags("not_covered")
    assert flag.due_at == due and ComplianceException.objects.count() == 2


def test_the_policy_moves_the_deadlines(client, opened):
    event(opened, "close")
    closed_at = table_of(opened).status.last_closed_at
    client.force_login(opened.compliance)
    response = client.patch(
        f"/api/properties/{opened.property.pk}/",
        {"cover_grace_minutes": 2, "notify_emails": ["supervisor@example.com"]},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    table = table_of(opened)
    assert table.status.cover_due_at == closed_at + timedelta(minutes=2) == table.status.next_due
    assert Property.objects.get(pk=opened.property.pk).notify_emails == ["supervisor@example.com"]


def test_a_new_flag_is_mailed_once_to_the_supervisors(opened):
    Property.objects.filter(pk=opened.property.pk).update(notify_emails=["supervisor@example.com"])
    event(opened, "close")
    flag_services.scan(now=table_of(opened).status.cover_due_at)
    assert flag_services.notify_new_flags() == 1
    assert flag_services.notify_new_flags() == 0
    (message,) = mail.outbox
    assert message.to == ["supervisor@example.com"]
    assert "R-01" in message.subject and "58 Pa. Code § 617a.2(f)" in message.body


def test_the_morning_digest_is_sent_once_a_day_in_the_propertys_time(opened):
    Property.objects.filter(pk=opened.property.pk).update(notify_emails=["supervisor@example.com"])
    event(opened, "close")
    flag_services.scan(now=table_of(opened).status.cover_due_at)
    new_york = ZoneInfo("America/New_York")
    assert flag_services.send_digests(now=datetime(2026, 11, 24, 6, 59, tzinfo=new_york)) == 0
    assert flag_services.send_digests(now=datetime(2026, 11, 24, 7, 0, tzinfo=new_york)) == 1
    assert flag_services.send_digests(now=datetime(2026, 11, 24, 9, 0, tzinfo=new_york)) == 0
    (digest,) = mail.outbox
    assert "1 open flag(s) on 2026-11-24" in digest.subject and "R-01" in digest.body


def beat_ticks(start: datetime, minutes: int) -> list[datetime]:
    """The times beat runs the digest's check from `start` on, by its schedule in the database."""
    task = PeriodicTask.objects.get(task="inspections.flags.tasks.send_digests")
    assert task.enabled
    if task.interval is not None:
        step = timedelta(**{task.interval.period: task.interval.every})
        return [start + step * n for n in range(int(timedelta(minutes=minutes) / step))]
    cron = task.crontab.schedule  # celery's crontab: the minutes and hours it runs at, in its zone (UTC)
    moments = (start + timedelta(minutes=n) for n in range(minutes))
    return [m for m in moments if m.astimezone(UTC).minute in cron.minute and m.astimezone(UTC).hour in cron.hour]


def test_the_digest_goes_out_at_seven_in_each_propertys_own_zone_never_in_the_evening(casino, beat_started):
    """Each property gets its digest from its own 07:00 hour (a failed one is tried again until
    11:00): not at 20:00 on the evening it was set up, not at 07:00 UTC (02:00 in New York)."""
    Property.objects.filter(pk=casino.property.pk).update(notify_emails=["keystone@example.com"])
    PropertyFactory(name="Pacific Casino", time_zone="America/Los_Angeles", notify_emails=["pacific@example.com"])
    zones = {
        "keystone@example.com": ZoneInfo("America/New_York"),
        "pacific@example.com": ZoneInfo("America/Los_Angeles"),
    }
    start = datetime(2026, 11, 23, 19, 0, tzinfo=zones["keystone@example.com"]).astimezone(UTC)  # one evening
    sent = []
    with time_machine.travel(start, tick=False) as clock:
        # As beat ticks, to 09:00 New York (06:00 Los Angeles) two days later.
        for tick in beat_ticks(start, 38 * 60 + 1):
            clock.move_to(tick)
            before = len(mail.outbox)
            send_digests_task()
            sent += [
                (m.to[0], f"{timezone.localtime(timezone.now(), zones[m.to[0]]):%Y-%m-%d %H:%M %Z}")
                for m in mail.outbox[before:]
            ]
    assert sent == [
        ("keystone@example.com", "2026-11-24 07:00 EST"),
        ("pacific@example.com", "2026-11-24 07:00 PST"),
        ("keystone@example.com", "2026-11-25 07:00 EST"),
    ]
    assert "on 2026-11-24" in mail.outbox[0].subject  # the property's date, not UTC's


def test_the_beat_schedule_exists_once_beat_started(beat_started):
    scan = PeriodicTask.objects.get(task="inspections.flags.tasks.scan_overdue")
    assert scan.enabled and (scan.interval.every, scan.interval.period) == (60, "seconds")
    assert PeriodicTask.objects.filter(task="inspections.flags.tasks.send_digests", enabled=True).exists()


def test_the_command_runs_the_scan(opened, capsys):
    event(opened, "close")
    call_command("scan_overdue", "--at", (table_of(opened).status.cover_due_at).isoformat())
    assert "1 raised" in capsys.readouterr().out
    assert [f.kind for f in flags()] == ["not_covered"]


def test_two_scans_at_once_raise_one_flag(committed_db, casino):
    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    due = table_of(casino).status.cover_due_at
    results = run_at_once([lambda: flag_services.scan(now=due)] * 3)
    assert sorted(result["raised"] for result in results) == [0, 0, 1], results
    assert ComplianceException.objects.filter(kind="not_covered").count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time: no such race")
def test_a_scan_never_raises_a_flag_from_a_deadline_an_entry_is_moving(committed_db, casino):
    """The wheel is covered (in a transaction still running) as the scan reaches its deadline: the
    scan waits for the table, then sees it covered. Without the wait it raised a flag the covering
    could no longer cure."""
    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    due = table_of(casino).status.cover_due_at
    covering = threading.Event()

    def cover_slowly():
        with transaction.atomic():
            entry = event(casino, "cover")
            covering.set()
            time.sleep(1)
        return entry

    def scan_meanwhile():
        covering.wait(5)
        return flag_services.scan(now=due)

    cover, scanned = run_at_once([cover_slowly, scan_meanwhile])
    assert scanned == {"raised": 0}, scanned
    assert table_of(casino).status.cover_due_at is None and cover.kind == "cover"
    assert not ComplianceException.objects.exists()


def test_the_scan_cites_each_kind_as_the_rulebook_does_for_the_jurisdiction_and_the_game(db):
    """The raise's citation is one CASE a kind over the property's jurisdiction and the table's game:
    every kind, at a table of every game in every jurisdiction, cites what the jurisdiction's
    rulebook says for that game (FlagKind.citation_for), and nothing else is raised."""
    from compliance.casinos.models import Game, Jurisdiction
    from compliance.rulebook import LOGBOOK_PROCEDURE
    from compliance.rulebook.flags import DEADLINE_COLUMNS
    from inspections.logbook.models import TableStatus

    now = timezone.now()
    tables = [
        GamingTableFactory(property=PropertyFactory(jurisdiction=jurisdiction), game=game)
        for jurisdiction in Jurisdiction.values
        for game in Game.values
    ]
    TableStatus.objects.update(**dict.fromkeys(DEADLINE_COLUMNS, now - timedelta(minutes=1)))
    flag_services.scan(now=now)
    raised = {(flag.table_id, flag.kind): flag.citation for flag in flags()}
    assert raised == {
        (table.pk, kind.code): kind.citation_for(table.game)
        for table in tables
        for kind in LOGBOOK_PROCEDURE[table.property.jurisdiction].FLAG_KINDS
    }


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer at a time: no lock")
def test_the_scan_locks_each_table_with_a_passed_deadline_and_no_open_flag_of_its_kind(casino):
    """The lock statement (one SELECT a deadline, each on its partial index) locks, in id order and
    once each, the tables the raise will flag: a deadline passed and no open flag of its kind; not a
    table whose passed deadline is already flagged, nor one whose deadline is ahead."""
    from compliance.rulebook.flags import DEADLINE_OF
    from inspections.logbook.models import TableStatus

    now = timezone.now()
    past, ahead = now - timedelta(minutes=1), now + timedelta(hours=1)
    due, later, twice, flagged, other_kind = (
        GamingTableFactory(property=casino.property, number=f"L-{n}") for n in range(5)
    )
    for table, deadlines in [
        (due, {"cover_due_at": past}),
        (later, {"cover_due_at": ahead}),
        (twice, {"inspection_due_at": past, "adjusted_since": past}),
        (flagged, {"cover_due_at": past}),
        (other_kind, {"cover_due_at": past}),
    ]:
        TableStatus.objects.filter(table=table).update(**deadlines)
    for table, kind in [(flagged, "not_covered"), (other_kind, "inspection_stale")]:
        ComplianceException.objects.create(
            property=casino.property, table=table, kind=kind, citation="58 Pa. Code", due_at=past, detected_at=past
        )
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(*flag_services._lock_sql(now))
        locked = [row[0] for row in cursor.fetchall()]
    open_kinds = {(flag.table_id, flag.kind) for flag in flags()}
    standing = sorted(
        status.table_id
        for status in TableStatus.objects.all()
        if any(
            getattr(status, column) is not None
            and getattr(status, column) <= now
            and (status.table_id, kind) not in open_kinds
            for kind, column in DEADLINE_OF.items()
        )
    )
    assert locked == standing
    assert {due.pk, twice.pk, other_kind.pk} <= set(locked) and not {later.pk, flagged.pk} & set(locked)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs the scan's statements one by one")
def test_the_scan_is_one_round_trip_and_all_or_nothing(committed_db, casino):
    """On PostgreSQL the lock and the raise go as one query string, which PostgreSQL runs as one
    transaction: a statement that fails takes the others back with it (the lock's work included),
    as the atomic block of two statements did."""
    from django.test.utils import CaptureQueriesContext

    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    due = table_of(casino).status.cover_due_at
    with CaptureQueriesContext(connection) as captured:
        assert flag_services.scan(now=due) == {"raised": 1}
    assert len(captured.captured_queries) == 1, [query["sql"][:60] for query in captured.captured_queries]
    assert len(flags("not_covered")) == 1
    ComplianceException.objects.all().delete()  # flags are not append-only (the benchmark clears them too)
    with connection.cursor() as cursor:  # the raise made to fail: a flag's citation may not be empty
        cursor.execute(
            "ALTER TABLE flags_complianceexception ADD CONSTRAINT test_refuse_all CHECK (citation = '') NOT VALID"
        )
    try:
        with pytest.raises(Exception, match="test_refuse_all"):
            flag_services.scan(now=due)
        assert connection.get_autocommit() and not ComplianceException.objects.exists()
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE flags_complianceexception DROP CONSTRAINT test_refuse_all")
    assert flag_services.scan(now=due) == {"raised": 1}


@pytest.fixture
def broker_down():
    """Celery's broker is an address where nothing listens, as when Redis is stopped."""
    with celery_connected_to("redis://127.0.0.1:1/0", "cache+memory://"):
        yield


@pytest.mark.slow  # some 6 s: Celery retries the stopped broker before it gives up
def test_nothing_in_a_request_needs_the_broker(client, casino, broker_down):
    """Redis down: signing in and logging keep working (the scan catches up when it is back)."""
    with pytest.raises(OperationalError):  # the broker really is unreachable here
        scan_overdue.apply_async(retry=False)
    # Through the sign-in page: a password is only ever checked with the request that brought it.
    signed_in = client.post("/login/", {"username": casino.security.username, "password": PASSWORD})
    assert signed_in.status_code == 302 and "_auth_user_id" in client.session
    response = client.post(
        f"/api/tables/{casino.table.pk}/cover/",
        {"signature": {"username": casino.security.username, "password": PASSWORD}},
        content_type="application/json",
    )
    assert response.status_code in (200, 201), response.content


@pytest.fixture
def flagged(opened):
    event(opened, "close")
    flag_services.scan(now=table_of(opened).status.cover_due_at)
    return opened


def test_the_api_lists_the_propertys_flags_only(client, flagged, other_casino):
    client.force_login(other_casino.compliance)
    assert client.get("/api/exceptions/").json()["results"] == []
    client.force_login(flagged.security)
    (row,) = client.get("/api/exceptions/?status=open&kind=not_covered").json()["results"]
    assert (row["table"], row["citation"], row["status"]) == (flagged.table.pk, "58 Pa. Code § 617a.2(f)", "open")
    assert row["label"].startswith("Wheel not covered")


@pytest.mark.parametrize("action", ["acknowledge", "resolve"])
def test_a_compliance_manager_acknowledges_a_flag_with_a_signed_note_and_it_stays_open(client, flagged, action):
    """Issue 30, item 4: `resolve` (kept for existing clients) acknowledges as `acknowledge` does: the
    note is signed and in the flag's history, and the flag stays open while the wheel is uncovered."""
    flag = ComplianceException.objects.get()
    url = f"/api/exceptions/{flag.pk}/{action}/"
    client.force_login(flagged.security)
    refused = client.post(
        url,
        {"note": "covered late", "signature": {"username": flagged.security.username, "password": PASSWORD}},
        "application/json",
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "resolver_role"
    client.force_login(flagged.compliance)
    signature = {"username": flagged.compliance.username, "password": PASSWORD}
    assert client.post(url, {"note": " ", "signature": signature}, "application/json").status_code == 400
    done = client.post(
        url, {"note": "Wheel covered at 09:40; officer briefed.", "signature": signature}, "application/json"
    )
    assert done.status_code == 200, done.content
    body = done.json()
    assert (body["status"], body["acknowledged"], body["status_text"], body["resolution"]) == (
        "open",
        True,
        "Open, acknowledged",
        "",
    )
    (line,) = body["history"]
    assert (line["kind"], line["actor_name"], line["actor_credential"], line["note"]) == (
        "acknowledged",
        flagged.compliance.display_name,
        flagged.compliance.credential_number,
        "Wheel covered at 09:40; officer briefed.",
    )
    flag.refresh_from_db()
    assert (flag.status, flag.resolved_by, flag.resolved_at) == ("open", None, None)
    # The scan raises nothing more (one open flag), and the cover entry cures it.
    flag_services.scan(now=flag.due_at + timedelta(hours=1))
    assert ComplianceException.objects.count() == 1
    cured(flag, by=event(flagged, "cover"))


def test_the_floor_and_the_table_page_show_open_flags(client, flagged):
    client.force_login(flagged.security)
    assert "Overdue: Wheel not covered" in client.get("/floor/").content.decode()
    page = client.get(f"/tables/{flagged.table.pk}/").content.decode()
    assert "Open flags" in page and "58 Pa. Code § 617a.2(f)" in page


def test_the_flags_page_lists_and_the_manager_acknowledges_in_the_browser(client, flagged):
    flag = ComplianceException.objects.get()
    client.force_login(flagged.security)
    page = client.get("/flags/").content.decode()
    assert "58 Pa. Code § 617a.2(f)" in page and f"/flags/{flag.pk}/resolve/" not in page
    assert client.get(f"/flags/{flag.pk}/resolve/").status_code == 403
    client.force_login(flagged.compliance)
    url = f"/flags/{flag.pk}/resolve/"
    kept = client.post(url, {"note": "Covered late", "username": flagged.compliance.username, "password": "x"})
    assert "is wrong" in kept.content.decode() and "Covered late" in kept.content.decode()
    done = client.post(url, {"note": "Covered late", "username": flagged.compliance.username, "password": PASSWORD})
    assert done.status_code == 302
    flag.refresh_from_db()
    assert flag.status == "open" and flag.history.get().note == "Covered late"
    page = html.unescape(client.get("/flags/").content.decode())
    assert "Covered late" in page and 'data-status="acknowledged"' in page


@pytest.mark.any_hour
def test_the_flags_page_and_the_api_name_the_curing_entry_and_the_managers_acknowledgement(client, opened):
    """As the flags report does: "Cured by entry #N (kind, time)" against "Open, acknowledged by
    <name> (credential X), <time>: <note>", and in the API which entry cured the flag."""
    event(opened, "close")
    flag_services.scan(now=table_of(opened).status.cover_due_at)
    cover = event(opened, "cover")
    event(opened, "unlock")
    inspect(opened)
    event(opened, "open")
    adjusted = adjust(opened)
    flag_services.scan(now=adjusted.occurred_at)
    manual = ComplianceException.objects.get(kind="adjusted_after_inspection")
    flag_services.flag_acknowledge(
        flag_id=manual.pk, note="Re-inspected by the pit boss", signature=sign(opened.compliance)
    )
    local = timezone.localtime(cover.occurred_at, opened.property.zone)
    cure = f"Cured by entry #{cover.seq}: Wheel covered and locked, {local:%Y-%m-%d %H:%M %Z}"
    compliance = opened.compliance
    acknowledged_at = timezone.localtime(manual.history.get().at, opened.property.zone)
    by_hand = (
        f"Open, acknowledged by {compliance.display_name} (credential {compliance.credential_number}), "
        f"{acknowledged_at:%Y-%m-%d %H:%M %Z}: Re-inspected by the pit boss"
    )
    client.force_login(opened.security)
    rows = {row["kind"]: row for row in client.get("/api/exceptions/").json()["results"]}
    cured_row, manual_row = rows["not_covered"], rows["adjusted_after_inspection"]
    assert (cured_row["resolution"], cured_row["resolution_text"], cured_row["resolved_by_system"]) == (
        "cured",
        cure,
        True,
    )
    assert {key: cured_row["cured_by_entry"][key] for key in ("id", "seq", "kind")} == {
        "id": cover.pk,
        "seq": cover.seq,
        "kind": "cover",
    }
    assert (manual_row["status"], manual_row["resolution_text"], manual_row["cured_by_entry"]) == (
        "open",
        by_hand,
        None,
    )
    page = html.unescape(client.get("/flags/").content.decode())
    signed = f"Acknowledged by {compliance.display_name} (credential {compliance.credential_number}), "
    assert (
        cure in page
        and "Open, acknowledged" in page
        and signed + "the flag staying open until cured: Re-inspected by the pit boss" in page
    )


def test_a_new_time_zone_moves_the_midnight_a_later_version_takes_effect(client, opened):
    """The approval deadline is a local midnight: the property's time zone changed, it moves with it."""
    prop = opened.property
    tomorrow = approvals_today(prop) + timedelta(days=1)
    approved_version(opened, wheel_types=["single_zero"], effective_from=tomorrow)
    assert table_of(opened).status.approval_due_at == datetime.combine(tomorrow, datetime.min.time(), tzinfo=prop.zone)
    client.force_login(opened.compliance)
    response = client.patch(
        f"/api/properties/{prop.pk}/", {"time_zone": "America/Los_Angeles"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    # Los Angeles's date is never ahead of New York's: the version still takes effect at a later midnight.
    west = datetime.combine(tomorrow, datetime.min.time(), tzinfo=ZoneInfo("America/Los_Angeles"))
    assert table_of(opened).status.approval_due_at == west


# A server started at 07:47 local (the trial's): in winter and summer, on the days the clocks change,
# and where the property's 07:00 is the day before in UTC (Tokyo: 22:00 UTC) or the same day (Honolulu).
STARTED_AT_0747 = {
    "new-york-winter": datetime(2026, 11, 26, 7, 47, tzinfo=ZoneInfo("America/New_York")),
    "new-york-summer": datetime(2026, 7, 15, 7, 47, tzinfo=ZoneInfo("America/New_York")),
    "new-york-clocks-forward": datetime(2026, 3, 8, 7, 47, tzinfo=ZoneInfo("America/New_York")),
    "new-york-clocks-back": datetime(2026, 11, 1, 7, 47, tzinfo=ZoneInfo("America/New_York")),
    "tokyo-utc-yesterday": datetime(2026, 11, 26, 7, 47, tzinfo=ZoneInfo("Asia/Tokyo")),
    "honolulu-utc-evening": datetime(2026, 11, 26, 7, 47, tzinfo=ZoneInfo("Pacific/Honolulu")),
}


@pytest.mark.parametrize("started", list(STARTED_AT_0747.values()), ids=list(STARTED_AT_0747))
def test_a_server_started_late_in_the_seven_oclock_hour_still_sends_the_digest_in_it(casino, started, beat_started):
    """Issue 30: the server started at 07:47 EST; beat, asking every hour on the hour, sent the
    07:00 digest at 08:00 EST. By beat's schedule, from the start, it goes out in the 07:00 hour."""
    zone = started.tzinfo
    Property.objects.filter(pk=casino.property.pk).update(time_zone=zone.key, notify_emails=["sup@example.com"])
    sent = []
    with time_machine.travel(started.astimezone(UTC), tick=False) as clock:
        for tick in beat_ticks(started, 4 * 60):
            clock.move_to(tick)
            if send_digests_task():
                sent.append(timezone.localtime(timezone.now(), zone))
    assert len(sent) == 1 and sent[0].hour == 7, sent
    (digest,) = mail.outbox
    assert f"on {started:%Y-%m-%d}" in digest.subject


def test_a_flags_mail_and_the_digest_link_to_the_flag_and_the_table(opened, settings, client):
    """Issue 30: a flag's mail had no link to the flag. It carries absolute links (SITE_URL) to the
    flag, which opens on the flags page whether still open or resolved, and to its table."""
    settings.SITE_URL = "https://logbook.keystone.example"
    Property.objects.filter(pk=opened.property.pk).update(notify_emails=["supervisor@example.com"])
    event(opened, "close")
    flag_services.scan(now=table_of(opened).status.cover_due_at)
    flag_services.notify_new_flags()
    flag_services.send_digests(now=datetime(2026, 11, 24, 7, 0, tzinfo=ZoneInfo("America/New_York")))
    flag = ComplianceException.objects.get()
    to_flag = f"https://logbook.keystone.example/flags/?flag={flag.pk}"
    to_table = f"https://logbook.keystone.example/tables/{opened.table.pk}/"
    assert len(mail.outbox) == 2  # the flag's mail, the digest
    for message in mail.outbox:
        assert to_flag in message.body.split() and to_table in message.body.split(), message.body
    client.force_login(opened.security)
    for status in ("open", "resolved"):
        if status == "resolved":
            event(opened, "cover")
        page = client.get(to_flag.removeprefix(settings.SITE_URL)).content.decode()
        assert page.count("<tr data-flag=") == 1 and f'<tr data-flag="{flag.pk}">' in page, status
    assert client.get(to_table.removeprefix(settings.SITE_URL)).status_code == 200
