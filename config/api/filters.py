from datetime import UTC

from django import forms
from django_filters import rest_framework as filters
from django_filters.fields import IsoDateTimeField

BIGINT_MAX = 2**63 - 1


class IdField(forms.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", BIGINT_MAX)
        super().__init__(**kwargs)


class IdFilter(filters.NumberFilter):
    """An id in a query: a whole number the database can hold (else a 400, never a 500)."""

    field_class = IdField


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 time, turned to UTC: one that UTC cannot hold (year 1 east of Greenwich, year
    9999 west of it) is a 400 in words, not an OverflowError."""

    default_error_messages = {
        "out_of_range": "%(value)s is too far in the past or the future: give a time between "
        "0001-01-02 and 9999-12-30.",
    }

    def clean(self, value):
        moment = super().clean(value)
        if moment is None:
            return moment
        try:
            return moment.astimezone(UTC)
        except OverflowError:
            raise forms.ValidationError(
                self.error_messages["out_of_range"], code="out_of_range", params={"value": value}
            ) from None


class UtcDateTimeFilter(filters.IsoDateTimeFilter):
    """An ISO 8601 time in a query, compared in UTC. ISO 8601 (and Python) allow offsets up to
    ±23:59, PostgreSQL only up to ±15:59: sent as typed, "-19:04" was a 500."""

    field_class = UtcIsoDateTimeField
