"""Reads of the logbook, scoped by `Entry.objects.restrict` (config.visibility)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.db.models import Count, Expression, IntegerField, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from compliance.casinos.models import GamingTable, TableState
from compliance.casinos.selectors import properties_visible_to
from compliance.rulebook import Jurisdiction
from compliance.rulebook.amendments import parse_time
from config.keyring import KeyringError, signing_key
from inspections.logbook import checkpoints
from inspections.logbook.models import Entry, EntryKind

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
            open_count=count_of(tables.filter(status__state=TableState.OPEN)),
            overdue_count=count_of(tables.filter(status__next_due__lte=now)),
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


# The log as its amendments leave it: what the amendment service judges the table on again.


def entry_voided_by(entry: Entry, voiding: frozenset[str]) -> int | None:
    """The number of the amendment that marked this entry entered in error or a duplicate, if any."""
    for details, seq in entry.amendments.values_list("details", "seq").order_by("seq"):
        if details.get("amendment_kind") in voiding:
            return seq
    return None


def inspection_as_amended(entry: Entry, rules: Jurisdiction) -> tuple[list[Entry], bool, bool]:
    """What an inspection counts as after its amendments: a duplicate counts only as the inspection it
    repeats (through any chain of duplicates), an inspection entered in error is none, and its items
    are as the corrections left them. Returns (the chain from the entry to the inspection it counts
    as, voided, passed)."""
    chain = [entry]
    while True:
        marks = list(entry.amendments.values_list("details", flat=True).order_by("seq"))
        kinds = {details.get("amendment_kind"): details for details in marks}
        if "entered_in_error" in kinds:
            return chain, True, False
        if "duplicate" not in kinds:
            break
        # check_amendment made it an earlier entry of the same table: the chain ends.
        entry = Entry.objects.get(property_id=entry.property_id, seq=kinds["duplicate"]["duplicate_of"])
        chain.append(entry)
    items = dict(entry.details.get("items", {}))
    for details in marks:
        items |= (details.get("correction") or {}).get("items", {})
    return chain, False, rules.inspection_passed(items=items)


def entry_details_as_amended(entry: Entry) -> dict[str, object]:
    """The entry's details as its corrections so far leave them (a correction names the API's fields:
    an irregularity's `kind` is its details' `irregularity`)."""
    details = dict(entry.details or {})
    for amendment in entry.amendments.values_list("details", flat=True).order_by("seq"):
        for name, value in (amendment.get("correction") or {}).items():
            details["irregularity" if entry.kind == EntryKind.IRREGULARITY and name == "kind" else name] = value
    return details


def entry_time_as_amended(entry: Entry) -> datetime:
    """When the entry says it happened, as its corrections so far leave it (an inspection's,
    adjustment's or replacement's `performed_at`, a table event's or deck change's `at`)."""
    amended = entry_details_as_amended(entry)
    corrected = amended.get("performed_at", amended.get("at"))
    return (parse_time(corrected) if isinstance(corrected, str) else None) or entry.occurred_at
