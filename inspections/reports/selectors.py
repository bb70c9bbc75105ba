"""Reads of the reports, scoped by `Report.objects.restrict` (config.visibility)."""

from __future__ import annotations

from django.db.models import QuerySet

from inspections.reports.models import Report


def reports_visible_to(user) -> QuerySet[Report]:
    """A property's reports: to its compliance manager and its jurisdiction's regulators only."""
    return Report.objects.restrict(user).select_related("property", "requested_by", "checkpoint")
