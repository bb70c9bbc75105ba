"""Proof against the database administrator (issue 32, item 1): whoever can write the database deletes
every checkpoint, deletes the newest entries with their checkpoints, restores an older dump, or swaps
two properties' identities. The signer's ledger, beside its key and outside the database
(inspections/logbook/ledger.py), and checkpoints that sign the property's licence and jurisdiction
make each one seen: the signer refuses, and verify_logbook says how much history is missing.

On SQLite here, on PostgreSQL in CI (DATABASE_URL): each scenario writes the database as its owner
would, triggers dropped."""

import json
import os
import sqlite3
import subprocess
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.db import connection

from inspections.logbook import chain, checkpoints, ledger, services
from inspections.logbook.models import ChainHead, Checkpoint, Entry
from tests import append_only as triggers
from tests.support.logbook import adjust, event, inspect


def sql(statement: str, *params) -> None:
    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def verify_logbook(capsys, *arguments) -> tuple[int, str]:
    """verify_logbook's exit status and what it wrote."""
    try:
        call_command("verify_logbook", *arguments)
        code = 0
    except SystemExit as exited:
        code = exited.code
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def history(committed_db, casino):
    """Five entries, signed by checkpoint #1 (entry #5); then two more, signed by checkpoint #2 (entry #7).
    Committed, so the ledger records what the signer signed as it does in production."""
    event(casino, "cover")
    event(casino, "unlock")
    adjust(casino)
    inspect(casino)
    event(casino, "open")
    services.checkpoint_sign(property_id=casino.property.pk)
    event(casino, "close")
    event(casino, "cover")
    services.checkpoint_sign(property_id=casino.property.pk)
    return casino


def rewrite_and_rechain(casino, *, seq: int) -> None:
    """The red team's rewrite: entry #`seq` changed, every later hash and the chain head recomputed."""
    triggers.drop(connection)
    prev_hash = Entry.objects.get(property=casino.property, seq=seq - 1).entry_hash
    with connection.cursor() as cursor:
        for entry in Entry.objects.filter(property=casino.property, seq__gte=seq).order_by("seq"):
            if entry.seq == seq:
                entry.description = "Nothing was adjusted"
            cursor.execute(
                "UPDATE logbook_signature SET content_hash = %s WHERE entry_id = %s",
                [chain.content_hash(entry), entry.pk],
            )
            new_hash = chain.entry_hash(prev_hash=prev_hash, entry=entry, signatures=list(entry.signatures.all()))
            cursor.execute(
                "UPDATE logbook_entry SET description = %s, prev_hash = %s, entry_hash = %s WHERE id = %s",
                [entry.description, prev_hash, new_hash, entry.pk],
            )
            prev_hash = new_hash
        cursor.execute("UPDATE logbook_chainhead SET head = %s WHERE property_id = %s", [prev_hash, casino.property.pk])


def delete_newest(casino, *, keep: int) -> None:
    """Entries after #`keep` deleted with their signatures and the checkpoints over them, and the chain
    head put back on entry #`keep`: the database alone reads as a shorter, intact logbook."""
    prop = casino.property.pk
    newest = f"SELECT id FROM logbook_entry WHERE property_id = {prop} AND seq > {keep}"
    sql(f"DELETE FROM logbook_checkpoint WHERE property_id = {prop} AND entry_seq > {keep}")
    sql(f"DELETE FROM logbook_signature WHERE entry_id IN ({newest})")
    sql(f"DELETE FROM logbook_entry WHERE id IN ({newest})")
    head = Entry.objects.get(property_id=prop, seq=keep).entry_hash
    sql("UPDATE logbook_chainhead SET length = %s, head = %s WHERE property_id = %s", keep, head, prop)


def test_the_ledger_holds_the_last_checkpoint_outside_the_database(history, checkpoint_ledger):
    last = Checkpoint.objects.get(property=history.property, seq=2)
    assert ledger.ledger_read() == {history.property.pk: checkpoints.checkpoint_record(last)}
    document = json.loads(checkpoint_ledger.read_text())
    assert document["format"] == "logbook-signed-heads/1"
    assert document["properties"][str(history.property.pk)]["entry_seq"] == 7
    assert oct(checkpoint_ledger.stat().st_mode & 0o777) == "0o600"


def test_with_every_checkpoint_deleted_the_signer_refuses_a_rewritten_history(history):
    """Before: the signer checked the rewritten chain against itself and signed it."""
    rewrite_and_rechain(history, seq=3)
    sql("DELETE FROM logbook_checkpoint")
    event(history, "unlock")
    with pytest.raises(services.CheckpointRefused) as refused:
        services.checkpoint_sign(property_id=history.property.pk)
    assert refused.value.report.checkpoint_problem == "missing_history"
    assert "2 checkpoints are missing" in refused.value.report.reason
    assert services.checkpoint_grown()["refused"] == [history.property.pk]
    assert not Checkpoint.objects.exists()


def test_with_every_checkpoint_deleted_the_signer_refuses_even_an_unchanged_history(history):
    sql("DELETE FROM logbook_checkpoint")
    with pytest.raises(services.CheckpointRefused):
        services.checkpoint_sign(property_id=history.property.pk, reason="report")
    assert not Checkpoint.objects.exists()


def test_deleting_the_newest_entries_with_their_checkpoints_is_reported_with_counts(history, capsys):
    """Before: verify_logbook answered intact, 5 entries."""
    delete_newest(history, keep=5)
    assert chain.chain_verify(property_id=history.property.pk).ok  # the database alone reads intact
    code, said = verify_logbook(capsys, "--property", str(history.property.pk))
    assert code == 1, said
    assert "history is missing" in said and "2 entries and 1 checkpoints are missing" in said
    report = chain.chain_verify_whole(property_id=history.property.pk)
    assert (report.missing_entries, report.missing_checkpoints) == (2, 1)
    with pytest.raises(services.CheckpointRefused):
        services.checkpoint_sign(property_id=history.property.pk, reason="report")


@pytest.fixture
def dump(committed_db, tmp_path):
    """`take()` dumps the database as it is; `restore()` puts that dump back (pg_dump and pg_restore
    --clean on PostgreSQL, as docs/operations.md's restore; SQLite's backup API here)."""
    if connection.vendor == "postgresql":
        db = connection.settings_dict
        env = {**os.environ, "PGPASSWORD": db["PASSWORD"] or ""}
        where = ["-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432), "-U", db["USER"]]
        path = tmp_path / "logbook.dump"

        def take():
            subprocess.run(["pg_dump", *where, "--format=custom", "--file", str(path), db["NAME"]], env=env, check=True)

        def restore():
            connection.close()
            subprocess.run(
                ["pg_restore", *where, "--clean", "--if-exists", "--no-owner", "-d", db["NAME"], str(path)],
                env=env,
                check=True,
                capture_output=True,
            )

    else:
        copy = sqlite3.connect(":memory:")

        def take():
            connection.ensure_connection()
            connection.connection.backup(copy)

        def restore():
            connection.ensure_connection()
            copy.backup(connection.connection)

    return type("Dump", (), {"take": staticmethod(take), "restore": staticmethod(restore)})


def test_an_older_dump_restored_is_reported_with_counts(committed_db, casino, dump, capsys):
    """Before: verify_logbook answered intact after the restore, and the logbook went on from there."""
    event(casino, "cover")
    event(casino, "unlock")
    services.checkpoint_sign(property_id=casino.property.pk)
    dump.take()
    adjust(casino)
    inspect(casino)
    event(casino, "open")
    services.checkpoint_sign(property_id=casino.property.pk)
    inspect(casino)
    services.checkpoint_sign(property_id=casino.property.pk, reason="report")
    dump.restore()
    assert ChainHead.objects.get(property=casino.property).length == 2
    code, said = verify_logbook(capsys)
    assert code == 1, said
    assert "4 entries and 2 checkpoints are missing" in said
    assert "older backup restored" in said
    with pytest.raises(services.CheckpointRefused):
        services.checkpoint_sign(property_id=casino.property.pk, reason="report")


def test_a_regulator_holding_an_earlier_checkpoint_proves_the_same(history, capsys, tmp_path, checkpoint_ledger):
    """Without the ledger (lost with the key's machine), a checkpoint a regulator holds from a report
    is enough: verify_logbook --known compares the database with it."""
    held = tmp_path / "held.json"
    held.write_text(json.dumps(checkpoints.checkpoint_record(Checkpoint.objects.get(seq=2))))
    delete_newest(history, keep=5)
    checkpoint_ledger.unlink()
    assert verify_logbook(capsys)[0] == 0
    code, said = verify_logbook(capsys, "--known", str(held))
    assert code == 1 and "2 entries and 1 checkpoints are missing" in said, said
    assert f"held in {held}" in said


def test_a_forged_ledger_record_is_not_believed(history, checkpoint_ledger, capsys):
    document = json.loads(checkpoint_ledger.read_text())
    document["properties"][str(history.property.pk)]["entry_seq"] = 99
    checkpoint_ledger.write_text(json.dumps(document))
    code, said = verify_logbook(capsys)
    assert code == 1 and "the signer's ledger" in said and "not a valid signed checkpoint" in said


def test_swapping_two_properties_identities_breaks_both_chains_naming_it(
    committed_db, casino, other_casino, capsys, settings
):
    """Before: both chains read intact, and each property's reports named the other casino."""
    for staff in (casino, other_casino):
        inspect(staff)
        services.checkpoint_sign(property_id=staff.property.pk)
    one, two = casino.property, other_casino.property
    sql("UPDATE casinos_property SET licence_number = 'swap' WHERE id = %s", one.pk)
    sql(
        "UPDATE casinos_property SET name = %s, licence_number = %s WHERE id = %s", one.name, one.licence_number, two.pk
    )
    sql(
        "UPDATE casinos_property SET name = %s, licence_number = %s WHERE id = %s", two.name, two.licence_number, one.pk
    )
    # Without the ledger, the checkpoints alone catch it; with it, the ledger first.
    settings.LOGBOOK_CHECKPOINT_LEDGER = str(settings.LOGBOOK_CHECKPOINT_LEDGER) + ".absent"
    report = chain.chain_verify(property_id=one.pk)
    assert report.checkpoint_problem == "identity" and report.broken_checkpoint_seq == 1
    assert f"signed for licence {one.licence_number}" in report.reason
    assert f"now says licence {two.licence_number}" in report.reason
    settings.LOGBOOK_CHECKPOINT_LEDGER = settings.LOGBOOK_CHECKPOINT_LEDGER.removesuffix(".absent")
    code, said = verify_logbook(capsys)
    assert code == 1
    assert said.count("the property's identity was changed in the database") == 2, said
    inspect(casino)
    with pytest.raises(services.CheckpointRefused) as refused:
        services.checkpoint_sign(property_id=one.pk)
    assert refused.value.report.checkpoint_problem == "identity"


def test_a_checkpoint_signed_before_identities_were_bound_still_verifies(history):
    """Format 1 (property number only) keeps verifying: what was signed is what it says."""
    key = checkpoints.checkpoint_keys()[-1]
    head = ChainHead.objects.get(property=history.property)
    record = {
        "format": checkpoints.FORMAT_1,
        "property": history.property.pk,
        "seq": 3,
        "entry_seq": head.length,
        "head": head.head,
        "signed_at": "2026-11-26T12:00:00.000000+00:00",
        "key_id": key.key_id,
    }
    signature = key.private_key.sign(checkpoints.record_message(record)).hex()
    entry = Entry.objects.get(property=history.property, seq=head.length)
    sql(
        "INSERT INTO logbook_checkpoint (property_id, seq, entry_id, entry_seq, head, signed_at, reason, key_id,"
        " signature, timestamp_note) VALUES (%s, 3, %s, %s, %s, %s, 'interval', %s, %s, '')",
        history.property.pk,
        entry.pk,
        head.length,
        head.head,
        datetime(2026, 11, 26, 12, tzinfo=UTC),
        key.key_id,
        signature,
    )
    checkpoint = Checkpoint.objects.get(seq=3)
    assert checkpoint.format == checkpoints.FORMAT_1 and checkpoints.checkpoint_record(checkpoint)["format"] == (
        "logbook-checkpoint/1"
    )
    report = chain.chain_verify_whole(property_id=history.property.pk)
    assert report.ok and report.checkpoints_checked == 3, report.reason


def test_a_loss_accepted_after_a_restore_lets_signing_go_on_and_is_named_for_ever(committed_db, casino, dump, capsys):
    """A real disaster recovery: the older dump is all there is. The operator accepts the loss; the
    signer signs again from the database, and verify_logbook names the loss on every run."""
    event(casino, "cover")
    services.checkpoint_sign(property_id=casino.property.pk)
    event(casino, "unlock")  # in the backup, after its last checkpoint
    dump.take()
    adjust(casino)
    inspect(casino)
    services.checkpoint_sign(property_id=casino.property.pk)
    dump.restore()
    assert Entry.objects.filter(property=casino.property).count() == 2
    with pytest.raises(CommandError, match="say why the history is lost"):
        call_command("checkpoint_accept_loss", property=casino.property.pk, reason=" ")
    # Hours later: the restored entries after its last checkpoint are old, and no checkpoint covers them yet.
    with time_machine.travel(datetime.now(UTC) + timedelta(hours=3), tick=False):
        call_command("checkpoint_accept_loss", property=casino.property.pk, reason="restored the 02:00 backup")
    assert "accepted as lost 2 entries and 1 checkpoints" in capsys.readouterr().out
    adjust(casino)
    assert services.checkpoint_sign(property_id=casino.property.pk, reason="report").seq == 2
    code, said = verify_logbook(capsys)
    assert code == 0, said
    assert "history lost at a restore" in said and "restored the 02:00 backup" in said
    assert "2 entries and 1 checkpoints were not restored" in said
    with pytest.raises(CommandError, match="no history is missing"):
        call_command("checkpoint_accept_loss", property=casino.property.pk, reason="again")


def test_a_rewrite_is_never_accepted_as_a_loss(history):
    rewrite_and_rechain(history, seq=7)
    with pytest.raises(CommandError, match="no history is missing"):
        call_command("checkpoint_accept_loss", property=history.property.pk, reason="it was not a restore")
