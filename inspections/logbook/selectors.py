"""Reads of the logbook, scoped by `Entry.objects.restrict` (config.visibility)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db.models import Prefetch, QuerySet

from compliance.casinos.models import GamingTable
from config.keyring import KeyringError, signing_key
from inspections.logbook import checkpoints
from inspections.logbook.models import Checkpoint, Entry

# What the apps above the logbook show with each table of the floor pages, as the prefetches they
# add in their AppConfig.ready() (inspections.flags: `table.open_flags`). The logbook names none of
# them: it sits below them and imports none.
TABLE_PREFETCHES: list[Callable[[], Prefetch]] = []


def entries_visible_to(user) -> QuerySet[Entry]:
    return Entry.objects.restrict(user).for_register()


def logbook_rows(*, viewer, kinds: tuple[str, ...] | None = None) -> QuerySet[Entry]:
    """The § 617a.2(e) register, in time order."""
    entries = entries_visible_to(viewer)
    if kinds:
        entries = entries.filter(kind__in=kinds)
    return entries.order_by("occurred_at", "seq")


def floor_tables(tables: QuerySet[GamingTable]) -> QuerySet[GamingTable]:
    """The tables with what the other apps show on the floor pages, one query each however many tables."""
    return tables.prefetch_related(*(prefetch() for prefetch in TABLE_PREFETCHES))


def checkpoints_visible_to(user) -> QuerySet[Checkpoint]:
    return Checkpoint.objects.restrict(user)


def checkpoint_key_list(*, now: datetime) -> list[dict]:
    """Every checkpoint key's public half with its validity, oldest first (none without a key ring):
    public to every signed-in person, as a verifier needs them all, the retired ones included."""
    try:
        keys = checkpoints.checkpoint_keys()
    except checkpoints.CheckpointKeyMissing:
        return []
    try:
        signing = signing_key(keys, now).key_id
    except KeyringError:
        signing = None
    return [
        {
            "key_id": key.key_id,
            "algorithm": "Ed25519",
            "public_key_pem": key.public_pem,
            "valid_from": key.valid_from,
            "valid_until": key.valid_until,
            "signing": key.key_id == signing,
        }
        for key in keys
    ]
