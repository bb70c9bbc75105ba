"""Append-only triggers and the hash chain, on whichever database the suite runs."""

import itertools

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from compliance.casinos.models import Property
from inspections.logbook import chain
from inspections.logbook.models import Entry, Signature
from tests import append_only as triggers
from tests.support.logbook import adjust, event, inspect


@pytest.fixture
def history(casino):
    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    adjust(casino)
    inspect(casino)
    return casino


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE logbook_entry SET description = 'changed'",
        "DELETE FROM logbook_entry",
        "UPDATE logbook_signature SET credential_number = 'forged'",
        "DELETE FROM logbook_signature",
    ],
)
def test_raw_sql_cannot_change_or_delete_entries(history, sql):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert Entry.objects.filter(description="changed").count() == 0
    assert Signature.objects.filter(credential_number="forged").count() == 0
    assert Entry.objects.count() == 5


@pytest.mark.skipif(connection.vendor != "postgresql", reason="TRUNCATE exists on PostgreSQL only")
def test_truncate_is_refused_on_postgresql(committed_db, history):
    # Committed first: PostgreSQL refuses TRUNCATE in the transaction that inserted the rows anyway.
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE logbook_signature")


def test_the_orm_cannot_update_entries_either(history):
    with pytest.raises(DatabaseError), transaction.atomic():
        Entry.objects.update(description="changed")


def test_an_intact_chain_verifies(history):
    report = chain.chain_verify(property_id=history.property.pk)
    assert report.ok, report.reason
    assert report.entries_checked == 5
    prop = Property.objects.get(pk=history.property.pk)
    assert report.head_hash == prop.chain.head == Entry.objects.get(property=prop, seq=5).entry_hash


def test_each_entry_links_to_the_one_before(history):
    entries = list(Entry.objects.filter(property=history.property).order_by("seq"))
    assert entries[0].prev_hash == chain.GENESIS
    assert all(later.prev_hash == earlier.entry_hash for earlier, later in itertools.pairwise(entries))


def tamper(sql: str, *params) -> None:
    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_a_changed_row_is_named(history):
    third = Entry.objects.get(property=history.property, seq=3)
    tamper("UPDATE logbook_entry SET description = %s WHERE id = %s", "Table closed early", third.pk)
    report = chain.chain_verify(property_id=history.property.pk)
    assert (report.broken_seq, report.broken_entry_id) == (3, third.pk)


def test_a_moved_signature_is_named(history):
    second = Entry.objects.get(property=history.property, seq=2)
    fifth_signature = Signature.objects.filter(entry__seq=5, entry__property=history.property).first()
    tamper("UPDATE logbook_signature SET entry_id = %s WHERE id = %s", second.pk, fifth_signature.pk)
    report = chain.chain_verify(property_id=history.property.pk)
    assert report.broken_seq == 2
    assert "signature" in report.reason


def test_a_deleted_row_is_named(history):
    fourth = Entry.objects.get(property=history.property, seq=4)
    tamper("DELETE FROM logbook_signature WHERE entry_id = %s", fourth.pk)
    tamper("DELETE FROM logbook_entry WHERE id = %s", fourth.pk)
    report = chain.chain_verify(property_id=history.property.pk)
    assert report.broken_seq == 4
    assert "missing" in report.reason


def test_a_deleted_last_row_is_named(history):
    last = Entry.objects.get(property=history.property, seq=5)
    tamper("DELETE FROM logbook_signature WHERE entry_id = %s", last.pk)
    tamper("DELETE FROM logbook_entry WHERE id = %s", last.pk)
    assert chain.chain_verify(property_id=history.property.pk).broken_seq == 5


def test_verify_logbook_command_exits_1_naming_the_entry(history, capsys):
    call_command("verify_logbook", property=history.property.pk)
    assert "intact, 5 entries" in capsys.readouterr().out
    third = Entry.objects.get(property=history.property, seq=3)
    tamper("UPDATE logbook_entry SET occurred_at = occurred_at WHERE id = %s", third.pk)
    tamper("UPDATE logbook_entry SET table_number = %s WHERE id = %s", "R-99", third.pk)
    with pytest.raises(SystemExit) as exited:
        call_command("verify_logbook")
    assert exited.value.code == 1
    assert f"BROKEN at entry #3 (id {third.pk})" in capsys.readouterr().err
