"""The flags as the API shows them, and a hand resolution's body."""

from __future__ import annotations

from rest_framework import serializers

from compliance.accounts.api.serializers import SignatureInputSerializer
from config.validators import NOTE_MAX_LENGTH, printable_text
from inspections.flags.models import ComplianceException
from inspections.flags.overdue import flag_label, flag_resolution_text
from inspections.logbook.models import Entry


class CuringEntrySerializer(serializers.ModelSerializer):
    """The logbook entry that cured a flag, as the register names it."""

    class Meta:
        model = Entry
        fields = ["id", "seq", "kind", "occurred_at"]
        read_only_fields = fields


class ComplianceExceptionSerializer(serializers.ModelSerializer):
    table_number = serializers.CharField(source="table.number", read_only=True)
    label = serializers.SerializerMethodField(help_text="The kind of flag in words.")
    resolved_by_system = serializers.SerializerMethodField(
        help_text="Cured, not resolved by a person: by a logbook entry (`cured_by_entry`) or without one."
    )
    resolution = serializers.CharField(
        read_only=True,
        help_text="`cured` (by the logbook entry `cured_by_entry`), `cleared` (cured without an entry: an approval, "
        "a policy or a configuration change), `manager` (a compliance manager's signed note); empty while open.",
    )
    cured_by_entry = CuringEntrySerializer(
        read_only=True, allow_null=True, help_text="The entry that moved the missed deadline, so cured the flag."
    )
    resolution_text = serializers.SerializerMethodField(
        help_text="How it was resolved, in words, as the flags report and page say it."
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
            "resolution_text",
            "resolver_name",
            "resolver_credential",
            "resolution_note",
        ]
        read_only_fields = fields

    def get_label(self, flag) -> str:
        return flag_label(flag)

    def get_resolved_by_system(self, flag) -> bool:
        return flag.status == "resolved" and flag.resolved_by_id is None

    def get_resolution_text(self, flag) -> str:
        return flag_resolution_text(flag, flag.property.zone)


class FlagResolveSerializer(serializers.Serializer):
    note = serializers.CharField(
        max_length=NOTE_MAX_LENGTH, help_text="How the problem was dealt with.", validators=[printable_text]
    )
    signature = SignatureInputSerializer()
