"""The flags as the API shows them, with their history, and an acknowledgement's body."""

from __future__ import annotations

from rest_framework import serializers

from compliance.accounts.api.serializers import SignatureInputSerializer
from config.validators import NOTE_MAX_LENGTH, printable_text
from inspections.flags.models import ComplianceException, FlagEvent
from inspections.flags.text import (
    flag_acknowledgements,
    flag_event_text,
    flag_label,
    flag_resolution_text,
    flag_status_text,
)
from inspections.logbook.models import Entry


class CuringEntrySerializer(serializers.ModelSerializer):
    """The logbook entry that cured a flag, as the register names it."""

    class Meta:
        model = Entry
        fields = ["id", "seq", "kind", "occurred_at"]
        read_only_fields = fields


class FlagEventSerializer(serializers.ModelSerializer):
    """A line of a flag's history: a deadline moved or lifted by a change that is no entry, or an acknowledgement."""

    text = serializers.SerializerMethodField(help_text="The line in words, as the flags page and report say it.")

    class Meta:
        model = FlagEvent
        fields = ["kind", "at", "cause", "due_before", "due_after", "actor_name", "actor_credential", "note", "text"]
        read_only_fields = fields

    def get_text(self, event) -> str:
        return flag_event_text(event, event.flag.property.zone)


class ComplianceExceptionSerializer(serializers.ModelSerializer):
    table_number = serializers.CharField(source="table.number", read_only=True)
    label = serializers.SerializerMethodField(help_text="The kind of flag in words.")
    resolved_by_system = serializers.SerializerMethodField(
        help_text="Closed, not by a person: by a logbook entry (`cured_by_entry`), or, before flags closed only with "
        "their entry, without one."
    )
    resolution = serializers.CharField(
        read_only=True,
        help_text="`cured` (by the logbook entry `cured_by_entry`, the only way a flag closes); empty while open. "
        "Flags closed before that rule may say `cleared` (without an entry) or `manager` (a signed note).",
    )
    cured_by_entry = CuringEntrySerializer(
        read_only=True, allow_null=True, help_text="The entry that ended the flag's condition, so cured it."
    )
    acknowledged = serializers.SerializerMethodField(
        help_text="A compliance manager acknowledged the flag with a signed note (it stays open until cured)."
    )
    status_text = serializers.SerializerMethodField(
        help_text="The status in words: Open, Open, acknowledged, or Cured, as the flags page and report say it."
    )
    resolution_text = serializers.SerializerMethodField(
        help_text="Where it stands, in words, as the flags report and page say it: the curing entry, or the last "
        "acknowledgement."
    )
    history = FlagEventSerializer(
        many=True,
        read_only=True,
        help_text="Oldest first: each deadline a policy, approval or configuration change moved, and each "
        "acknowledgement.",
    )

    class Meta:
        model = ComplianceException
        fields = [
            "id",
            "property",
            "table",
            "table_number",
            "kind",
            "label",
            "citation",
            "due_at",
            "detected_at",
            "status",
            "resolved_at",
            "resolved_by",
            "resolved_by_system",
            "resolution",
            "cured_by_entry",
            "acknowledged",
            "status_text",
            "resolution_text",
            "history",
            "resolver_name",
            "resolver_credential",
            "resolution_note",
        ]
        read_only_fields = fields

    def get_label(self, flag) -> str:
        return flag_label(flag)

    def get_resolved_by_system(self, flag) -> bool:
        return flag.status == "resolved" and flag.resolved_by_id is None

    def get_acknowledged(self, flag) -> bool:
        return bool(flag_acknowledgements(flag))

    def get_status_text(self, flag) -> str:
        return flag_status_text(flag)

    def get_resolution_text(self, flag) -> str:
        return flag_resolution_text(flag, flag.property.zone)


class FlagAcknowledgeSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=NOTE_MAX_LENGTH,
        help_text="What is being done about the problem (the flag stays open until the entry that cures it).",
        validators=[printable_text],
    )
    signature = SignatureInputSerializer()
