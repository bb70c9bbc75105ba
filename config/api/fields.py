from django.utils.dateparse import parse_datetime
from rest_framework import serializers

from config.api.filters import BIGINT_MAX


class ScopedPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    """A related id the requesting person may see: an unknown and a foreign one look the same."""

    default_error_messages = {
        "does_not_exist": "There is no {model} with id {pk_value} that you may use.",
        "incorrect_type": "Give the id as a whole number, not {data_type}.",
    }

    def __init__(self, *, scope, **kwargs):
        self.scope = scope  # a selector: user -> QuerySet
        super().__init__(**kwargs)

    def get_queryset(self):
        return self.scope(self.context["request"].user)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | str) or (isinstance(data, str) and not data.isdigit()):
            self.fail("incorrect_type", data_type=type(data).__name__)
        if not 0 < int(data) <= BIGINT_MAX:
            self.fail("does_not_exist", pk_value=data, model=self._model_name())
        try:
            return self.get_queryset().get(pk=int(data))
        except self.get_queryset().model.DoesNotExist:
            self.fail("does_not_exist", pk_value=data, model=self._model_name())

    def _model_name(self) -> str:
        return str(self.get_queryset().model._meta.verbose_name)


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false, nothing that merely looks like one ("yes", 1)."""

    default_error_messages = {"invalid": "Answer true or false."}

    def to_internal_value(self, data):
        if data is True or data is False:
            return data
        self.fail("invalid")


class AwareDateTimeField(serializers.DateTimeField):
    """An ISO 8601 time with its offset: a time without one would be read in the wrong zone."""

    default_error_messages = {
        "naive": "Give the time with its offset, e.g. 2026-11-23T09:30:00-05:00 or 2026-11-23T14:30:00Z.",
    }

    def to_internal_value(self, value):
        if isinstance(value, str):
            try:
                parsed = parse_datetime(value.strip())
            except ValueError:  # well formed but no such time, e.g. 10:61
                self.fail("invalid", format="YYYY-MM-DDThh:mm:ss±hh:mm")
            if parsed is not None and parsed.tzinfo is None:
                self.fail("naive")
        return super().to_internal_value(value)
