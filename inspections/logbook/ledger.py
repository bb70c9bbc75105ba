"""The signer's ledger: what the checkpoint signer last signed for each property, kept outside the
database, beside the key ring (LOGBOOK_CHECKPOINT_LEDGER, or `checkpoint-ledger.json` in the ring's
directory).

Whoever can write the database can delete the newest entries with their checkpoints, or restore an
older backup, and the database alone then reads intact; with every checkpoint deleted, the signer
would even sign the rewritten chain. The ledger is what the database cannot change: for each
property, the last checkpoint's record as checkpoints.checkpoint_record makes it (number, entry,
head, time, the property's licence and jurisdiction, the signature). The signer refuses to sign a
chain that does not extend it, and verify_logbook compares the database with it
(chain.known_checkpoint_check).

The file is JSON, {"format": "logbook-signed-heads/1", "properties": {"<id>": record}, "losses": [...]}
(a loss: history a restore could not bring back, accepted by an operator; ledger_loss_accept). It is
written after the checkpoint's transaction commits (a crash between leaves it one checkpoint behind
the database, which is still a true statement of the past), under an exclusive lock of
`<file>.lock`, by writing a new file and renaming it over the old one (never half-written), and a
property's record only ever moves forward.
"""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

FORMAT = "logbook-signed-heads/1"


class LedgerUnreadable(Exception):
    """The ledger exists but cannot be read: nothing is signed until it is repaired."""


def ledger_path() -> Path | None:
    """Where the ledger lives; None without a key ring (nothing is signed then)."""
    if settings.LOGBOOK_CHECKPOINT_LEDGER:
        return Path(settings.LOGBOOK_CHECKPOINT_LEDGER)
    if settings.LOGBOOK_CHECKPOINT_KEYRING:
        return Path(settings.LOGBOOK_CHECKPOINT_KEYRING).parent / "checkpoint-ledger.json"
    return None


def _read(path: Path) -> dict:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"format": FORMAT, "properties": {}}
    except (OSError, ValueError) as error:
        raise LedgerUnreadable(f"the signer's ledger {path} cannot be read: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise LedgerUnreadable(f"the signer's ledger {path} is not a {FORMAT} file")
    return document


def ledger_read() -> dict[int, dict]:
    """Each property's last signed checkpoint record, by property id (empty: no ledger yet)."""
    path = ledger_path()
    if path is None:
        return {}
    return {int(key): record for key, record in _read(path)["properties"].items()}


@contextmanager
def _locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def ledger_losses(property_id: int) -> list[dict]:
    """The history losses accepted for a property after a restore (ledger_loss_accept), oldest first."""
    path = ledger_path()
    if path is None:
        return []
    return [loss for loss in _read(path).get("losses", []) if loss["lost"]["property"] == property_id]


def ledger_loss_accept(
    *, property_id: int, lost: dict, now: str, reason: str, counts: dict, current: dict | None
) -> None:
    """After a restore that lost history: the signed record the database no longer reaches is kept
    among the ledger's losses (with the counts, the time and the reason given), and the property's
    record becomes the database's last checkpoint (`current`), so that signing can go on from there.
    Nothing is forgotten: verify_logbook names every loss."""
    path = ledger_path()
    if path is None:
        return
    with _locked(path):
        document = _read(path)
        if document["properties"].get(str(property_id)) != lost:
            raise LedgerUnreadable("the signer's ledger changed meanwhile: check again")
        document.setdefault("losses", []).append({"lost": lost, "accepted_at": now, "reason": reason, **counts})
        if current is None:
            del document["properties"][str(property_id)]
        else:
            document["properties"][str(property_id)] = current
        _write(path, document)


def ledger_record(record: dict) -> None:
    """Remember a checkpoint the signer made (its record), unless the ledger already holds a later one."""
    path = ledger_path()
    if path is None:
        return
    with _locked(path):
        document = _read(path)
        known = document["properties"].get(str(record["property"]))
        if known is not None and known["seq"] >= record["seq"]:
            return
        document["properties"][str(record["property"])] = record
        _write(path, document)


def _write(path: Path, document: dict) -> None:
    """A new file renamed over the old one: a reader sees the old ledger or the new, never half of one."""
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(document, handle, indent=1, sort_keys=True)
        handle.flush()
        os.fsync(handle.fileno())
    temporary.replace(path)
