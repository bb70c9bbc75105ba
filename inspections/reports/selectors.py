"""Reads of the reports, scoped by compliance.casinos.selectors."""

from __future__ import annotations

from django.db.models import QuerySet

from compliance.casinos.selectors import property_filter
from compliance.rulebook.roles import REPORT_ROLES
from inspections.reports.models import Report


def reports_visible_to(user) -> QuerySet[Report]:
    """A property's reports: to its compliance manager and its jurisdiction's regulators only."""
    if not user.is_authenticated or user.role not in REPORT_ROLES:
        return Report.objects.none()
    return Report.objects.filter(property_filter(user)).select_related("property", "requested_by")
