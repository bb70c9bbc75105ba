"""A corrected time of a closing, opening or deck change re-judges the deadlines that run from it, as
if the log had always read so (issue 31, item 2: amendments answer to the same rules as the entries
they correct). § 617a.2(f): the wheel is covered and locked when the table is not open, the property's
grace period running from the closing; § 651a.3(d) (proposed): the decks are changed at least once
every 24 hours, from the deck change."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from compliance.casinos.models import GamingTable
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook import services
from tests.conftest import sign, staff_of
from tests.factories import PropertyFactory
from tests.inspections.test_casino_war_logbook import change_decks, war_event, war_table
from tests.inspections.test_services import event, inspect

COVER_AND_LOCK = "58 Pa. Code § 617a.2(f)"


def amend_time(people, entry, at):
    return services.amendment_record(
        entry_id=entry.pk,
        reason="The time was written wrong.",
        correction={"at": at.isoformat()},
        signature=sign(people.compliance),
        recorded_by=people.compliance,
    )


def test_a_closing_corrected_earlier_moves_the_cover_deadline_and_the_scan_flags_it(casino):
    now = timezone.now().replace(microsecond=0)
    inspect(casino, at=now - timedelta(hours=2))
    event(casino, "open", at=now - timedelta(minutes=90))
    closing = event(casino, "close", at=now - timedelta(minutes=10))
    grace = timedelta(minutes=casino.property.cover_grace_minutes)
    table = GamingTable.objects.get(pk=casino.table.pk)
    assert table.status.cover_due_at == closing.occurred_at + grace
    flag_services.scan(now=now)
    assert not ComplianceException.objects.filter(kind="not_covered").exists()

    corrected = now - timedelta(minutes=40)
    amend_time(casino, closing, corrected)
    table = GamingTable.objects.get(pk=casino.table.pk)
    assert table.status.last_closed_at == corrected
    assert table.status.cover_due_at == corrected + grace
    flag_services.scan(now=now)
    (flag,) = ComplianceException.objects.filter(kind="not_covered", status="open")
    assert (flag.due_at, flag.citation) == (corrected + grace, COVER_AND_LOCK)


def test_a_closing_corrected_later_gives_the_grace_period_from_the_corrected_time(casino):
    now = timezone.now().replace(microsecond=0)
    inspect(casino, at=now - timedelta(hours=2))
    event(casino, "open", at=now - timedelta(minutes=90))
    closing = event(casino, "close", at=now - timedelta(minutes=60))
    amend_time(casino, closing, now - timedelta(minutes=5))
    table = GamingTable.objects.get(pk=casino.table.pk)
    assert table.status.cover_due_at == now - timedelta(minutes=5) + timedelta(
        minutes=casino.property.cover_grace_minutes
    )


def test_a_deck_change_corrected_earlier_moves_its_24_hours(db):
    people = staff_of(PropertyFactory(name="House of War", jurisdiction="PA"))
    table = war_table(people, shuffler=False)
    now = timezone.now().replace(microsecond=0)
    changed = change_decks(people, table, 6, at=now - timedelta(hours=2))
    war_event(people, table, "open", at=now - timedelta(hours=1))
    assert GamingTable.objects.get(pk=table.pk).status.decks_due_at == changed.occurred_at + timedelta(hours=24)
    corrected = now - timedelta(hours=3)
    amend_time(people, changed, corrected)
    table.refresh_from_db()
    assert (table.status.last_deck_change_at, table.status.decks_due_at) == (corrected, corrected + timedelta(hours=24))
