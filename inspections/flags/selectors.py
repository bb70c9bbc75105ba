"""Reads of the flags, scoped by `ComplianceException.objects.restrict` (config.visibility)."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Expression, OuterRef, Prefetch, QuerySet

from inspections.flags.models import ComplianceException, FlagStatus
from inspections.logbook.selectors import count_of


def flags_visible_to(user) -> QuerySet[ComplianceException]:
    return (
        ComplianceException.objects.restrict(user)
        .select_related("table", "property", "cured_by_entry")
        .prefetch_related("history")
    )


def open_flags_prefetch() -> Prefetch:
    """Each table's open flags of the overdue scan, as `table.open_flags` (the floor pages: the
    logbook's TABLE_PREFETCHES, filled in FlagsConfig.ready())."""
    return Prefetch(
        "flags",
        queryset=ComplianceException.objects.filter(status=FlagStatus.OPEN)
        .select_related("property")
        .prefetch_related("history"),
        to_attr="open_flags",
    )


def open_flag_count(now: datetime) -> Expression:
    """Each property's open flags, on a regulator's floor summary (the logbook's PROPERTY_COUNTS,
    filled in FlagsConfig.ready()): read through flag_property_status."""
    return count_of(ComplianceException.objects.filter(property=OuterRef("pk"), status=FlagStatus.OPEN))
