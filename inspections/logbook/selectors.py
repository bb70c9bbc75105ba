"""Reads of the logbook, scoped by `Entry.objects.restrict` (config.visibility)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db.models import Count, Expression, IntegerField, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from compliance.casinos.models import GamingTable, TableState
from compliance.casinos.selectors import properties_visible_to
from config.keyring import KeyringError, signing_key
from inspections.logbook import checkpoints
from inspections.logbook.models import Checkpoint, Entry

# What the apps above the logbook show with each table of the floor pages, as the prefetches they
# add in their AppConfig.ready() (inspections.flags: `table.open_flags`). The logbook names none of
# them: it sits below them and imports none.
TABLE_PREFETCHES: list[Callable[[], Prefetch]] = []
# What those apps count for each property of a regulator's floor summary, by name (inspections.flags:
# `open_flag_count`): each a function of the moment giving a correlated count (`count_of`).
PROPERTY_COUNTS: dict[str, Callable[[datetime], Expression]] = {}


def count_of(rows: QuerySet, *, per: str = "property") -> Expression:
    """How many of `rows` (filtered on `per` = OuterRef("pk")) each outer row has: one correlated
    subquery, read through an index on `per` for just the rows of the page, never a GROUP BY of all."""
    counted = rows.order_by().values(per).annotate(n=Count("*")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def floor_summary(user, *, now: datetime, page: int, size: int) -> tuple[list[dict], bool]:
    """A page of the properties `user` sees (a regulator's jurisdiction), by name, each as plain values
    (`pk`, `name`, `licence_number`) with its tables, open tables, overdue tables and what the apps
    above count (`PROPERTY_COUNTS`); and whether a next page exists. No COUNT of the jurisdiction:
    the page's rows and one more."""
    tables = GamingTable.objects.filter(property=OuterRef("pk"))
    properties = (
        properties_visible_to(user)
        .order_by("name", "pk")
        .annotate(
            table_count=count_of(tables),
            open_count=count_of(tables.filter(state=TableState.OPEN)),
            overdue_count=count_of(tables.filter(next_due__lte=now)),
            **{name: make(now) for name, make in PROPERTY_COUNTS.items()},
        )
        # What a tile shows, as values: no model instance a property, no policy, no mail list.
        .values("pk", "name", "licence_number", "table_count", "open_count", "overdue_count", *PROPERTY_COUNTS)
    )
    start = (page - 1) * size
    rows = list(properties[start : start + size + 1])
    return rows[:size], len(rows) > size


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
