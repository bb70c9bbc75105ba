"""Which rows a person sees, asked of the rows themselves: `Model.objects.restrict(person)` (after
netbox's RestrictedQuerySet.restrict). Each model's queryset says its own rule (`visibility`), once;
the `*_visible_to` selectors of the apps are this one call and their joins.

The kernel imports no app: the person is asked (`is_authenticated`, and what each rule reads of it).
"""

from __future__ import annotations

from typing import Self

from django.db import models
from django.db.models import Q


class VisibleQuerySet(models.QuerySet):
    """A queryset that knows who sees its rows."""

    def visibility(self, person) -> Q:
        """The rows `person` (signed in) sees: each model's queryset says which."""
        raise NotImplementedError(f"{self.model.__name__} says no rule of who sees its rows")

    def restrict(self, person) -> Self:
        """These rows, as far as `person` sees them: none to someone not signed in."""
        if not getattr(person, "is_authenticated", False):
            return self.none()
        return self.filter(self.visibility(person))


NOTHING = Q(pk__in=[])  # a rule's "none of them", as a filter
