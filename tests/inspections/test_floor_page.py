"""The floor page (Django's test client): overdue tables first, each tile saying what is due and by when; a menu for the floor."""

from datetime import timedelta
from types import SimpleNamespace

from django.utils import timezone

from compliance.casinos.models import GamingTable
from compliance.rulebook.flags import DUE_COLUMNS
from inspections.logbook.templatetags.floor import DUE_WORDS, due_of
from tests.factories import GamingTableFactory, configure_for_opening
from tests.support.logbook import event, inspect


def test_every_deadline_the_floor_shows_has_its_words():
    assert set(DUE_WORDS) == set(DUE_COLUMNS)


def test_overdue_tables_come_first_each_tile_saying_what_is_due_and_by_when(client, casino):
    now = timezone.now()
    # R-01 opens now: its next deadline is the property's re-inspection, a day away.
    event(casino, "cover")
    event(casino, "unlock")
    inspect(casino)
    event(casino, "open")
    # R-02 closed three hours ago and its wheel was never covered: late since the grace period ended.
    late = SimpleNamespace(**vars(casino))
    late.table = configure_for_opening(
        GamingTableFactory(property=casino.property, number="R-02"), created_by=casino.compliance
    )
    start = now - timedelta(hours=3)
    event(late, "cover", at=start)
    event(late, "unlock", at=start + timedelta(minutes=1))
    inspect(late, at=start + timedelta(minutes=2))
    event(late, "open", at=start + timedelta(minutes=3))
    event(late, "close", at=start + timedelta(minutes=4))
    client.force_login(casino.security)
    page = client.get("/floor/").content.decode()
    assert page.index(f"/tables/{late.table.pk}/") < page.index(f"/tables/{casino.table.pk}/")
    assert "Overdue: Cover and lock the wheel, by " in page
    assert "Due: Inspect again, by " in page
    table = GamingTable.objects.get(pk=late.table.pk)
    due = due_of(table, now=now)
    assert (due.what, due.at, due.late) == ("Cover and lock the wheel", table.status.cover_due_at, True)


def test_a_table_with_no_deadline_says_nothing_is_due(casino):
    assert due_of(GamingTable.objects.get(pk=casino.table.pk), now=timezone.now()) is None


def test_the_floors_menu_leaves_out_the_api_documentation_which_has_no_way_back(client, casino, regulator):
    client.force_login(casino.security)
    assert 'href="/api/docs/"' not in client.get("/floor/").content.decode()
    for person in (casino.compliance, regulator):
        client.force_login(person)
        assert 'href="/api/docs/"' in client.get("/flags/").content.decode()
