"""Reads of the logbook, scoped by compliance.casinos.selectors."""

from __future__ import annotations

from django.db.models import QuerySet

from compliance.casinos.selectors import property_filter
from compliance.rulebook.roles import REPORT_ROLES
from inspections.flags.models import ComplianceException
from inspections.logbook.models import Entry
from inspections.reports.models import Report


def entries_visible_to(user) -> QuerySet[Entry]:
    return Entry.objects.filter(property_filter(user)).for_register()


def logbook_rows(*, viewer, kinds: tuple[str, ...] | None = None) -> QuerySet[Entry]:
    """The § 617a.2(e) register, in time order."""
    entries = entries_visible_to(viewer)
    if kinds:
        entries = entries.filter(kind__in=kinds)
    return entries.order_by("occurred_at", "seq")


def flags_visible_to(user) -> QuerySet[ComplianceException]:
    return ComplianceException.objects.filter(property_filter(user)).select_related(
        "table", "property", "cured_by_entry"
    )


def reports_visible_to(user) -> QuerySet[Report]:
    """A property's reports: to its compliance manager and its jurisdiction's regulators only."""
    if not user.is_authenticated or user.role not in REPORT_ROLES:
        return Report.objects.none()
    return Report.objects.filter(property_filter(user)).select_related("property", "requested_by")
