from rest_framework import serializers


class ScopedPrimaryKeyRelatedField(serializers.PrimaryKeyRelatedField):
    """A related id the requesting person may see: an unknown and a foreign one look the same."""

    def __init__(self, *, scope, **kwargs):
        self.scope = scope  # a selector: user -> QuerySet
        super().__init__(**kwargs)

    def get_queryset(self):
        return self.scope(self.context["request"].user)
