"""Signed checkpoints: the chain's head signed with a key outside the database, so that a rewritten,
rechained history is caught without trusting the database (issue: proof that survives the DBA)."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from cryptography.hazmat.primitives.asymmetric import ed25519
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from compliance.accounts.signatures import canonical
from config import keyring
from inspections.logbook import chain, checkpoints, services
from inspections.logbook.models import ChainHead, Checkpoint, Entry
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


def verify(casino, **kwargs) -> chain.ChainReport:
    return chain.chain_verify(property_id=casino.property.pk, **kwargs)


def sql(statement: str, *params) -> None:
    triggers.drop(connection)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def red_team_rewrite(casino, *, seq: int = 4, description: str = "Nothing was adjusted") -> None:
    """The security review's rewrite: triggers dropped, entry #`seq` rewritten, and every later hash,
    every signature's content hash and the chain head recomputed, so that the chain alone says intact."""
    triggers.drop(connection)
    prev_hash = Entry.objects.get(property=casino.property, seq=seq - 1).entry_hash if seq > 1 else chain.GENESIS
    with connection.cursor() as cursor:
        for entry in Entry.objects.filter(property=casino.property, seq__gte=seq).order_by("seq"):
            if entry.seq == seq:
                entry.description = description
            body_hash = chain.content_hash(entry)
            cursor.execute("UPDATE logbook_signature SET content_hash = %s WHERE entry_id = %s", [body_hash, entry.pk])
            signatures = list(entry.signatures.all())
            new_hash = chain.entry_hash(prev_hash=prev_hash, entry=entry, signatures=signatures)
            cursor.execute(
                "UPDATE logbook_entry SET description = %s, prev_hash = %s, entry_hash = %s WHERE id = %s",
                [entry.description, prev_hash, new_hash, entry.pk],
            )
            prev_hash = new_hash
        cursor.execute("UPDATE logbook_chainhead SET head = %s WHERE property_id = %s", [prev_hash, casino.property.pk])


def test_a_checkpoint_signs_the_chain_head_with_a_key_outside_the_database(history, signing_keys):
    checkpoint = services.checkpoint_sign(property_id=history.property.pk)
    head = ChainHead.objects.get(property=history.property)
    assert (checkpoint.seq, checkpoint.entry_seq, checkpoint.head) == (1, 5, head.head)
    assert checkpoint.entry == Entry.objects.get(property=history.property, seq=5)
    (key,) = keyring.keyring_load(signing_keys.ring)
    assert checkpoint.key_id == key.key_id
    key.public_key.verify(bytes.fromhex(checkpoint.signature), checkpoints.message_of(checkpoint))
    # No authority configured: the checkpoint says so rather than carrying a token.
    assert checkpoint.timestamp_token is None
    assert "no timestamp authority is configured" in checkpoint.timestamp_note


def test_a_checkpoint_carries_a_real_timestamp_token_when_an_authority_is_configured(history, tsa):
    checkpoint = services.checkpoint_sign(property_id=history.property.pk)
    assert tsa.requests == 1 and checkpoint.timestamp_token and checkpoint.timestamp_note == ""
    check = checkpoints.checkpoint_check(checkpoint, checkpoints.checkpoint_keys())
    assert check.ok, check.reason
    assert abs(check.trusted_time - checkpoint.signed_at) < timedelta(seconds=30)
    assert verify(history).ok


def test_a_timestamp_from_an_untrusted_authority_is_reported(history, tsa, settings, tmp_path):
    from tests.tsa import LocalTSA

    impostor = LocalTSA(tmp_path, name="Impostor authority")
    try:
        settings.LOGBOOK_TSA_URL = impostor.url
        services.checkpoint_sign(property_id=history.property.pk)
    finally:
        impostor.stop()
    report = verify(history)
    assert report.checkpoint_problem == "invalid" and report.broken_checkpoint_seq == 1
    assert "not a trusted authority" in report.reason


def test_an_authority_that_does_not_answer_leaves_a_checkpoint_that_says_so(history, settings):
    settings.LOGBOOK_TSA_URL = "http://127.0.0.1:9/tsa"  # the discard port: nobody answers
    checkpoint = services.checkpoint_sign(property_id=history.property.pk)
    assert checkpoint.timestamp_token is None
    assert "did not answer" in checkpoint.timestamp_note
    assert verify(history).ok


def test_checkpoints_are_append_only(history):
    services.checkpoint_sign(property_id=history.property.pk)
    for statement in ("UPDATE logbook_checkpoint SET head = 'x'", "DELETE FROM logbook_checkpoint"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert Checkpoint.objects.count() == 1


def test_the_interval_task_signs_only_the_logbooks_that_grew(history, other_casino, settings):
    assert services.checkpoint_grown() == {"signed": [history.property.pk], "refused": []}
    assert services.checkpoint_grown() == {"signed": [], "refused": []}
    inspect(other_casino)
    event(history, "open")
    later = timezone.now() + timedelta(minutes=settings.LOGBOOK_CHECKPOINT_MINUTES)
    assert services.checkpoint_grown(now=later)["signed"] == sorted([history.property.pk, other_casino.property.pk])
    assert list(Checkpoint.objects.filter(property=history.property).values_list("seq", "entry_seq")) == [
        (1, 5),
        (2, 6),
    ]


@pytest.mark.parametrize("minutes", [1, 5, 15])
def test_the_setting_alone_sets_the_interval_beat_asks_every_minute(history, settings, minutes):
    settings.LOGBOOK_CHECKPOINT_MINUTES = minutes
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert services.checkpoint_grown()["signed"] == [history.property.pk]
        event(history, "open")
        for _ in range(minutes - 1):
            clock.shift(timedelta(minutes=1))
            assert services.checkpoint_grown()["signed"] == [], "signed before the interval was up"
        clock.shift(timedelta(minutes=1))
        assert services.checkpoint_grown()["signed"] == [history.property.pk]
    assert settings.CELERY_BEAT_SCHEDULE["Logbook checkpoints"]["schedule"] == timedelta(minutes=1)


def test_the_red_team_rewrite_passes_the_chain_alone_but_not_the_signed_checkpoint(history, capsys):
    """Triggers dropped, entry #4 rewritten, every later hash, signature content hash and the chain head
    recomputed: the chain agrees with itself, but not with what the key signed."""
    services.checkpoint_sign(property_id=history.property.pk)  # covers #5
    event(history, "open")
    services.checkpoint_sign(property_id=history.property.pk)  # covers #6
    red_team_rewrite(history, seq=4)
    assert Entry.objects.get(property=history.property, seq=4).description == "Nothing was adjusted"
    report = verify(history)
    assert not report.ok and report.contradicted
    # The first checkpoint it contradicts: #1, over entry #5.
    assert (report.broken_checkpoint_seq, report.broken_seq) == (1, 5)
    assert "checkpoint #1" in report.reason and "rewritten after it was signed" in report.reason
    with pytest.raises(SystemExit) as exited:
        call_command("verify_logbook", property=history.property.pk)
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert "checkpoint #1 (entry #5" in err and "rewritten after it was signed" in err


def test_without_checkpoints_the_same_rewrite_would_read_intact(history):
    """Why the checkpoints exist: the chain alone cannot see a rechained rewrite (none older than the
    interval is uncovered here, so the only witness would be a checkpoint)."""
    red_team_rewrite(history, seq=4)
    assert verify(history).ok


def test_a_rewrite_is_refused_a_new_checkpoint(history):
    services.checkpoint_sign(property_id=history.property.pk)
    red_team_rewrite(history, seq=2)
    event(history, "open")
    with pytest.raises(services.CheckpointRefused) as refused:
        services.checkpoint_sign(property_id=history.property.pk)
    assert refused.value.report.contradicted
    assert Checkpoint.objects.count() == 1


def test_deleted_checkpoints_leave_old_entries_uncovered(history):
    services.checkpoint_sign(property_id=history.property.pk)
    sql("DELETE FROM logbook_checkpoint")
    assert verify(history).ok  # within the interval: the next checkpoint is not due yet
    with time_machine.travel(datetime.now(UTC) + timedelta(minutes=11), tick=False):
        report = verify(history)
    assert report.checkpoint_problem == "uncovered" and report.broken_seq == 1
    assert "no signed checkpoint covers them" in report.reason


def test_a_deleted_checkpoint_in_the_middle_is_missing(history):
    for _ in range(3):
        inspect(history)
        services.checkpoint_sign(property_id=history.property.pk)
    sql("DELETE FROM logbook_checkpoint WHERE seq = 2")
    report = verify(history)
    assert (report.checkpoint_problem, report.broken_checkpoint_seq) == ("missing", 2)


def test_a_checkpoint_signed_by_an_unknown_key_is_refused(history):
    services.checkpoint_sign(property_id=history.property.pk)
    head = ChainHead.objects.get(property=history.property)
    forger = ed25519.Ed25519PrivateKey.generate()
    key_id = keyring.key_id_of(forger.public_key())
    signed_at = datetime.now(UTC)
    prop = history.property
    message = checkpoints.checkpoint_message(
        property_id=prop.pk,
        licence=prop.licence_number,
        jurisdiction=prop.jurisdiction,
        seq=2,
        entry_seq=5,
        head=head.head,
        signed_at=signed_at,
        key_id=key_id,
    )
    entry = Entry.objects.get(property=history.property, seq=5)
    sql(
        "INSERT INTO logbook_checkpoint (property_id, licence_number, jurisdiction, seq, entry_id, entry_seq, head,"
        " signed_at, reason, key_id, signature, timestamp_note) VALUES (%s, %s, %s, 2, %s, 5, %s, %s, 'interval',"
        " %s, %s, '')",
        prop.pk,
        prop.licence_number,
        prop.jurisdiction,
        entry.pk,
        head.head,
        signed_at,
        key_id,
        forger.sign(message).hex(),
    )
    report = verify(history)
    assert (report.checkpoint_problem, report.broken_checkpoint_seq) == ("invalid", 2)
    assert f"signed by key {key_id}, which is not a checkpoint key" in report.reason


def test_a_checkpoint_whose_signed_content_was_changed_is_refused(history):
    checkpoint = services.checkpoint_sign(property_id=history.property.pk)
    sql("UPDATE logbook_checkpoint SET entry_seq = 4 WHERE id = %s", checkpoint.pk)
    report = verify(history)
    assert report.checkpoint_problem == "invalid" and "does not verify" in report.reason


def test_checkpoints_signed_before_and_after_a_key_rotation_both_verify(history, signing_keys, settings, tmp_path):
    ring = tmp_path / "ring.json"
    ring.write_text(signing_keys.ring.read_text())
    for path in signing_keys.directory.glob("checkpoint-*.pem"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    settings.LOGBOOK_CHECKPOINT_KEYRING = str(ring)
    before = services.checkpoint_sign(property_id=history.property.pk)
    new = keyring.checkpoint_key_add(ring, now=datetime.now(UTC))
    event(history, "open")
    after = services.checkpoint_sign(property_id=history.property.pk)
    assert before.key_id != after.key_id == new.key_id
    report = verify(history)
    assert report.ok and report.checkpoints_checked == 2, report.reason
    old = next(key for key in keyring.keyring_load(ring) if key.key_id == before.key_id)
    assert old.valid_until is not None and not old.valid_at(datetime.now(UTC))


def test_the_checkpoint_message_is_canonical_json_of_its_fields(history):
    checkpoint = services.checkpoint_sign(property_id=history.property.pk)
    assert checkpoints.message_of(checkpoint) == canonical(
        {
            "format": "logbook-checkpoint/2",
            "property": history.property.pk,
            "licence": history.property.licence_number,
            "jurisdiction": history.property.jurisdiction,
            "seq": 1,
            "entry_seq": 5,
            "head": checkpoint.head,
            "signed_at": checkpoint.signed_at.astimezone(UTC).isoformat(timespec="microseconds"),
            "key_id": checkpoint.key_id,
        }
    )


def test_verify_logbook_says_how_many_checkpoints_it_verified(history, capsys):
    services.checkpoint_sign(property_id=history.property.pk)
    call_command("verify_logbook", property=history.property.pk)
    assert "intact, 5 entries" in capsys.readouterr().out


def test_every_signed_in_person_reads_every_checkpoint_key_as_pem(history, client, settings, tmp_path, signing_keys):
    ring = tmp_path / "ring.json"
    ring.write_text(signing_keys.ring.read_text())
    for path in signing_keys.directory.glob("checkpoint-*.pem"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    settings.LOGBOOK_CHECKPOINT_KEYRING = str(ring)
    old = keyring.keyring_load(ring)[0]
    new = keyring.checkpoint_key_add(ring, now=datetime.now(UTC))
    assert client.get("/api/checkpoint-keys/").status_code in (401, 403)
    client.force_login(history.security)
    keys = client.get("/api/checkpoint-keys/").json()
    assert [(key["key_id"], key["signing"]) for key in keys] == [(old.key_id, False), (new.key_id, True)]
    assert keys[0]["public_key_pem"].startswith("-----BEGIN PUBLIC KEY-----")
    assert keys[0]["valid_until"] is not None and keys[1]["valid_until"] is None
    assert keys[0]["algorithm"] == "Ed25519"


def test_the_admin_lists_checkpoints_read_only_under_the_published_keys(history, client, signing_keys):
    from compliance.accounts.models import User

    services.checkpoint_sign(property_id=history.property.pk)
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase"))
    page = client.get("/admin/logbook/checkpoint/").content.decode()
    (key,) = keyring.keyring_load(signing_keys.ring)
    assert key.key_id in page and "BEGIN PUBLIC KEY" in page and "signs now" in page
    checkpoint = Checkpoint.objects.get()
    assert client.get(f"/admin/logbook/checkpoint/{checkpoint.pk}/change/").status_code == 200
    assert client.get(f"/admin/logbook/checkpoint/{checkpoint.pk}/delete/").status_code == 403
    assert client.get("/admin/logbook/checkpoint/add/").status_code == 403
