"""Reads of the logbook, scoped by `Entry.objects.restrict` (config.visibility)."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Prefetch, QuerySet

from compliance.casinos.models import GamingTable
from inspections.logbook.models import Entry

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
