"""`check --deploy` on the signing set-up (issue 32): it was silent when a timestamp authority was set
without its certificates (any authority's token then trusted), when a signing key file was readable
by others, and when the key ring sat under MEDIA_ROOT."""

import shutil

import pytest

from config import keyring
from inspections.logbook.checks import signing_kept_apart


@pytest.fixture
def ring(tmp_path, settings, signing_keys):
    """A copy of the test ring, in a directory of the test's own."""
    directory = tmp_path / "keys"
    shutil.copytree(signing_keys.directory, directory)
    settings.LOGBOOK_CHECKPOINT_KEYRING = str(directory / "checkpoint-keyring.json")
    settings.LOGBOOK_CHECKPOINT_LEDGER = ""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return directory


def ids() -> list[str]:
    return [warning.id for warning in signing_kept_apart(None)]


def test_a_careful_set_up_is_not_warned(ring, settings):
    for path in ring.glob("*"):
        path.chmod(0o600)
    settings.LOGBOOK_REPORT_SIGNING_KEY = str(ring / "report-signing.key")
    settings.LOGBOOK_TSA_URL, settings.LOGBOOK_TSA_CERTIFICATES = (
        "http://tsa.example/",
        str(ring / "report-signing.pem"),
    )
    assert ids() == []


def test_a_timestamp_authority_without_its_certificates_is_warned(ring, settings):
    settings.LOGBOOK_TSA_URL, settings.LOGBOOK_TSA_CERTIFICATES = "http://tsa.example/", ""
    assert ids() == ["logbook.W003"]


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_every_private_key_file_others_may_read_is_warned(ring, settings, mode):
    settings.LOGBOOK_REPORT_SIGNING_KEY = str(ring / "report-signing.key")
    (key_file,) = ring.glob("checkpoint-*.pem")
    key_file.chmod(mode)
    (ring / "report-signing.key").chmod(mode)
    warnings = signing_kept_apart(None)
    assert [w.id for w in warnings] == ["logbook.W004", "logbook.W004"]
    assert str(key_file) in warnings[0].msg and "report-signing.key" in warnings[1].msg


def test_a_public_key_readable_by_all_is_not_warned(ring):
    (key_file,) = ring.glob("checkpoint-*.pem")
    (public,) = keyring.keyring_load(ring / "checkpoint-keyring.json")
    key_file.write_text(public.public_pem)
    key_file.chmod(0o644)
    assert ids() == []


def test_a_key_ring_or_ledger_under_media_root_is_warned(ring, settings, tmp_path):
    settings.MEDIA_ROOT = str(ring.parent)
    assert ids() == ["logbook.W005", "logbook.W005"]  # the ring, and the ledger beside it
    settings.MEDIA_ROOT = str(tmp_path / "media")
    settings.LOGBOOK_CHECKPOINT_LEDGER = str(tmp_path / "media" / "ledger.json")
    warnings = signing_kept_apart(None)
    assert [w.id for w in warnings] == ["logbook.W005"] and "signer's ledger" in warnings[0].msg
