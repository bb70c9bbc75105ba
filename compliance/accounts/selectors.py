"""Which people a person may see, decided once."""

from __future__ import annotations

from django.db.models import QuerySet

from compliance.accounts.models import User


def people_visible_to(user) -> QuerySet[User]:
    """Staff see their property's people; regulators the people of their jurisdiction and its regulators
    (the rule: compliance.accounts.models.PersonQuerySet)."""
    return User.objects.restrict(user).select_related("property")
