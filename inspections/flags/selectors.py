"""Reads of the flags, scoped by `ComplianceException.objects.restrict` (config.visibility)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from inspections.flags.models import ComplianceException, FlagStatus


def flags_visible_to(user) -> QuerySet[ComplianceException]:
    return ComplianceException.objects.restrict(user).select_related("table", "property", "cured_by_entry")


def open_flags_prefetch() -> Prefetch:
    """Each table's open flags of the overdue scan, as `table.open_flags` (the floor pages: the
    logbook's TABLE_PREFETCHES, filled in FlagsConfig.ready())."""
    return Prefetch(
        "flags",
        queryset=ComplianceException.objects.filter(status=FlagStatus.OPEN).select_related("property"),
        to_attr="open_flags",
    )
