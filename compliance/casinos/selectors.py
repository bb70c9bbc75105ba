"""Who may see what, decided once (every list, filter and lookup starts here).

Casinos sits below the people's app (compliance.accounts), so a person is asked, not imported: their
`role` (compliance.accounts.models.Role's values) and `is_administrator`.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from compliance.casinos.models import Ball, GamingTable, Property, Wheel

REGULATOR = "regulator"
COMPLIANCE = "compliance"


def property_filter(user, field: str = "property") -> Q:
    """The properties a person sees: administrators all; regulators their jurisdiction's; staff their own."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    if user.is_administrator:
        return Q()
    if user.role == REGULATOR:
        return Q(**{f"{field}__jurisdiction": user.jurisdiction}) if user.jurisdiction else Q(pk__in=[])
    if user.property_id:
        return Q(**{f"{field}_id": user.property_id})
    return Q(pk__in=[])


def properties_visible_to(user) -> QuerySet[Property]:
    if not user.is_authenticated:
        return Property.objects.none()
    if user.is_administrator:
        return Property.objects.all()
    if user.role == REGULATOR:
        return Property.objects.filter(jurisdiction=user.jurisdiction)
    return Property.objects.filter(pk=user.property_id)


def tables_visible_to(user) -> QuerySet[GamingTable]:
    return GamingTable.objects.filter(property_filter(user)).select_related("property")


def properties_managed_by(user) -> QuerySet[Property]:
    """Where a person may change the configuration: administrators anywhere, compliance managers at home."""
    if not user.is_authenticated:
        return Property.objects.none()
    if user.is_administrator:
        return Property.objects.all()
    if user.role == COMPLIANCE and user.property_id:
        return Property.objects.filter(pk=user.property_id)
    return Property.objects.none()


def wheels_visible_to(user) -> QuerySet[Wheel]:
    return Wheel.objects.filter(property_filter(user))


def balls_visible_to(user) -> QuerySet[Ball]:
    return Ball.objects.filter(property_filter(user))
