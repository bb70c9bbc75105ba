from datetime import UTC

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


class UtcDateTimeFilter(filters.IsoDateTimeFilter):
    """An ISO 8601 time in a query, compared in UTC. ISO 8601 (and Python) allow offsets up to
    ±23:59, PostgreSQL only up to ±15:59: sent as typed, "-19:04" was a 500."""

    def filter(self, qs, value):
        return super().filter(qs, value.astimezone(UTC) if value else value)
