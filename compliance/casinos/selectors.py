"""Who may see what, decided once (every list, filter and lookup starts here): each model's rule is
its queryset's `restrict(person)` (config.visibility; the property's rule is
compliance.casinos.models.PropertyScopedQuerySet), and these selectors add what their pages join.

Casinos sits below the people's app (compliance.accounts), so a person is asked, not imported.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from compliance.casinos.models import Ball, GamingTable, Property, Wheel


def properties_visible_to(user) -> QuerySet[Property]:
    return Property.objects.restrict(user)


def tables_visible_to(user) -> QuerySet[GamingTable]:
    # With its logbook status (`status`): every page and list of tables shows where each is in its day.
    return GamingTable.objects.restrict(user).select_related("property", "status")


def properties_managed_by(user) -> QuerySet[Property]:
    """Where a person may change the configuration: administrators anywhere, compliance managers at home."""
    if not user.is_authenticated or not user.may("tables.configure"):
        return Property.objects.none()
    return Property.objects.restrict(user)


def wheels_visible_to(user) -> QuerySet[Wheel]:
    return Wheel.objects.restrict(user)


def balls_visible_to(user) -> QuerySet[Ball]:
    return Ball.objects.restrict(user)


def sheet_pages(prop: Property) -> list[tuple[int, int]]:
    """The property's tables cut into sheets of at most LABELS_PER_SHEET: (first, count) each."""
    total = GamingTable.objects.filter(property=prop).count()
    size = settings.LABELS_PER_SHEET
    return [(first, min(size, total - first)) for first in range(0, total, size)]
