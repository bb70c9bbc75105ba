from django import forms
from django_filters import rest_framework as filters

BIGINT_MAX = 2**63 - 1


class IdField(forms.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", BIGINT_MAX)
        super().__init__(**kwargs)


class IdFilter(filters.NumberFilter):
    """An id in a query: a whole number the database can hold (else a 400, never a 500)."""

    field_class = IdField
