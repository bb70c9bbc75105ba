"""Signed checkpoints: what is signed, with which key, and how a checkpoint is checked.

A checkpoint's signed message is the canonical JSON of
    {"format": "logbook-checkpoint/2", "property", "licence", "jurisdiction", "seq", "entry_seq", "head",
     "signed_at", "key_id"}
(format 1, signed before the property's identity was bound, lacks "licence" and "jurisdiction")
signed with Ed25519 by a key of the ring LOGBOOK_CHECKPOINT_KEYRING names (config/keyring.py), which
is outside the database: whoever rewrites the database cannot make a checkpoint that verifies. Its
RFC 3161 token, when there is one, is over the signature's bytes. The formats and the message are
logbook_proof.formats's, which the offline verifier (logbook-verify) shares.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from django.conf import settings

from compliance.casinos.clock import local_text
from config.keyring import CheckpointKey, KeyringError, keyring_load
from inspections.logbook.models import Checkpoint
from inspections.logbook.timestamps import timestamp_check
from logbook_proof.formats import CHECKPOINT_FORMAT as FORMAT
from logbook_proof.formats import CHECKPOINT_FORMAT_1 as FORMAT_1  # noqa: F401  (its name here, for the callers)
from logbook_proof.formats import SIGNED_FIELDS as SIGNED_FIELDS
from logbook_proof.formats import record_message

# What each format signs (SIGNED_FIELDS): format 2 binds the property's identity (its licence number
# and jurisdiction), not only its number: swapping two properties' names and licences in the database
# no longer leaves their checkpoints verifying. Format-1 checkpoints (signed before) keep verifying.
# A token's time may run this far from the checkpoint's own (the authority is asked right after signing).
TIMESTAMP_SLACK = dt.timedelta(minutes=5)


class CheckpointKeyMissing(Exception):
    """No key ring is configured (LOGBOOK_CHECKPOINT_KEYRING): nothing can be signed or checked."""


_loaded: dict[tuple[str, float], list[CheckpointKey]] = {}


def checkpoint_keys() -> list[CheckpointKey]:
    """The configured ring's keys (read again when the file changes: a rotation needs no restart)."""
    path = settings.LOGBOOK_CHECKPOINT_KEYRING
    if not path:
        raise CheckpointKeyMissing("no checkpoint key ring is configured (LOGBOOK_CHECKPOINT_KEYRING)")
    try:
        stamp = (str(path), Path(path).stat().st_mtime)
    except OSError as error:
        raise CheckpointKeyMissing(f"the checkpoint key ring {path} cannot be read: {error.strerror}") from None
    if stamp not in _loaded:
        try:
            _loaded.clear()
            _loaded[stamp] = keyring_load(path)
        except KeyringError as error:
            raise CheckpointKeyMissing(str(error)) from None
    return _loaded[stamp]


def _time(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


def checkpoint_message(
    *,
    property_id: int,
    licence: str,
    jurisdiction: str,
    seq: int,
    entry_seq: int,
    head: str,
    signed_at: dt.datetime,
    key_id: str,
) -> bytes:
    """What a new checkpoint signs (format 2)."""
    return record_message(
        {
            "format": FORMAT,
            "property": property_id,
            "licence": licence,
            "jurisdiction": jurisdiction,
            "seq": seq,
            "entry_seq": entry_seq,
            "head": head,
            "signed_at": _time(signed_at),
            "key_id": key_id,
        }
    )


def message_of(checkpoint: Checkpoint) -> bytes:
    return record_message(checkpoint_record(checkpoint))


def checkpoint_record(checkpoint: Checkpoint) -> dict:
    """The checkpoint as a report and the signer's ledger carry it (the offline verifier reads exactly this)."""
    token = checkpoint.timestamp_token
    identity = (
        {"licence": checkpoint.licence_number, "jurisdiction": checkpoint.jurisdiction}
        if checkpoint.format == FORMAT
        else {}
    )
    return {
        "format": checkpoint.format,
        "property": checkpoint.property_id,
        **identity,
        "seq": checkpoint.seq,
        "entry_seq": checkpoint.entry_seq,
        "head": checkpoint.head,
        "signed_at": _time(checkpoint.signed_at),
        "key_id": checkpoint.key_id,
        "signature": checkpoint.signature,
        "timestamp_token": bytes(token).hex() if token else None,
        "timestamp_note": checkpoint.timestamp_note,
    }


@dataclass(frozen=True)
class CheckpointCheck:
    ok: bool
    reason: str = ""
    trusted_time: dt.datetime | None = None


def record_check(record: dict, keys: list[CheckpointKey]) -> CheckpointCheck:
    """A checkpoint record's signature by a key of the ring, valid when it says it was signed."""
    key = next((key for key in keys if key.key_id == record.get("key_id")), None)
    if key is None:
        return CheckpointCheck(False, f"it is signed by key {record.get('key_id')}, which is not a checkpoint key")
    try:
        key.public_key.verify(bytes.fromhex(record["signature"]), record_message(record))
        signed_at = dt.datetime.fromisoformat(record["signed_at"])
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return CheckpointCheck(False, f"its signature does not verify with key {record.get('key_id')}")
    if not key.valid_at(signed_at):
        return CheckpointCheck(
            False, f"it says it was signed at {record['signed_at']}, outside key {key.key_id}'s validity"
        )
    return CheckpointCheck(True)


def checkpoint_check(checkpoint: Checkpoint, keys: list[CheckpointKey]) -> CheckpointCheck:
    """Its signature by a key of the ring, valid when it was signed, and its timestamp token if any."""
    signed = record_check(checkpoint_record(checkpoint), keys)
    if not signed.ok:
        return signed
    if not checkpoint.timestamp_token:
        return CheckpointCheck(True)
    stamped = timestamp_check(bytes(checkpoint.timestamp_token), bytes.fromhex(checkpoint.signature))
    if not stamped.ok:
        return CheckpointCheck(False, f"its timestamp: {stamped.reason}")
    if stamped.time is None or abs(stamped.time - checkpoint.signed_at) > TIMESTAMP_SLACK:
        return CheckpointCheck(
            False, f"its timestamp says {stamped.time}, not the time it was signed ({_time(checkpoint.signed_at)})"
        )
    return CheckpointCheck(True, trusted_time=stamped.time)


def describe(checkpoint: Checkpoint) -> str:
    return f"checkpoint #{checkpoint.seq} (entry #{checkpoint.entry_seq}, signed {local_text(checkpoint.signed_at, dt.UTC, seconds=True)})"
