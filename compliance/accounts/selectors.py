"""Which people a person may see, decided once."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from compliance.accounts.models import Role, User


def people_visible_to(user) -> QuerySet[User]:
    """Staff see their property's people; regulators the people of their jurisdiction and its regulators."""
    people = User.objects.select_related("property")
    if not user.is_authenticated:
        return people.none()
    if user.is_administrator:
        return people.all()
    if user.role == Role.REGULATOR:
        return people.filter(
            Q(property__jurisdiction=user.jurisdiction) | Q(role=Role.REGULATOR, jurisdiction=user.jurisdiction)
        )
    return people.filter(property_id=user.property_id)
