"""Parse requests into service calls and shape entries for reading; the rules are the rulebook's."""

from __future__ import annotations

import json
import zoneinfo

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from compliance.casinos.api.serializers import SignatureInputSerializer
from compliance.casinos.selectors import balls_visible_to, properties_visible_to, tables_visible_to
from compliance.rulebook import rulebook_for
from compliance.rulebook.amendments import AMENDMENT_KINDS
from compliance.rulebook.jurisdictions.pennsylvania import IRREGULARITY_KINDS
from config.api.fields import AwareDateTimeField, ScopedPrimaryKeyRelatedField, StrictBooleanField
from config.validators import NOTE_MAX_LENGTH, printable_line, printable_strings, printable_text
from inspections.flags.models import ComplianceException
from inspections.flags.overdue import flag_label, flag_resolution_text
from inspections.logbook.models import Entry, EntryKind, Signature
from inspections.logbook.selectors import ADJUSTMENT_KINDS, entries_visible_to
from inspections.reports.models import ChainState, Report
from inspections.reports.requests import report_problems

_datetime = serializers.DateTimeField()
# An entry's own time (compliance.rulebook.procedure.entry_time_plausible).
TIME_HELP = (
    "Defaults to now. Never in the future (beyond a device clock's skew), nor further back than "
    "ENTRY_MAX_BACKDATE_HOURS (24 by default)."
)


def signature_representation(signature: Signature) -> dict:
    return {
        "signer": signature.signer_id,
        "signer_name": signature.signer_name,
        "credential_number": signature.credential_number,
        "meaning": signature.meaning,
        "signed_at": _datetime.to_representation(signature.signed_at),
        "content_hash": signature.content_hash,
    }


class SignatureSerializer(serializers.ModelSerializer):
    """A signature as printed: name, credential number, meaning, time, and the hash it signed."""

    class Meta:
        model = Signature
        fields = ["signer", "signer_name", "credential_number", "meaning", "signed_at", "content_hash"]

    def to_representation(self, signature: Signature) -> dict:
        return signature_representation(signature)


class EntrySerializer(serializers.ModelSerializer):
    """The columns every entry has, read-only."""

    signatures = SignatureSerializer(source="signature_list", many=True, read_only=True)

    class Meta:
        model = Entry
        base_fields = [
            "id",
            "seq",
            "property",
            "table",
            "table_number",
            "kind",
            "occurred_at",
            "recorded_at",
            "recorded_by",
            "description",
            "signatures",
            "amends",
            "prev_hash",
            "entry_hash",
        ]
        fields = base_fields
        read_only_fields = base_fields


def _table_field():
    return ScopedPrimaryKeyRelatedField(scope=tables_visible_to, help_text="The table's id.")


class InspectionSerializer(EntrySerializer):
    table = _table_field()
    performed_at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    items = serializers.DictField(
        child=StrictBooleanField(),
        source="details.items",
        help_text="ball_non_magnetic, no_magnet_or_contrivance, wheel_level_and_rotating, parts_secure; "
        "layout_and_signage_00 only for double_zero_as_single_zero tables. true = passed.",
    )
    notes = serializers.CharField(
        source="details.notes",
        required=False,
        allow_blank=True,
        default="",
        max_length=NOTE_MAX_LENGTH,
        validators=[printable_text],
    )
    signature = SignatureInputSerializer(write_only=True, help_text="The inspector's.")

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.base_fields, "performed_at", "items", "passed", "notes", "signature"]
        read_only_fields = [*EntrySerializer.Meta.base_fields, "passed"]


class AdjustmentSerializer(EntrySerializer):
    table = _table_field()
    kind = serializers.ChoiceField(choices=[EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT])
    part = serializers.CharField(source="details.part", max_length=200, validators=[printable_line])
    description = serializers.CharField(max_length=NOTE_MAX_LENGTH, validators=[printable_text])
    performed_at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    performer = SignatureInputSerializer(write_only=True, help_text="A floorperson or table game maintenance member.")
    witness = SignatureInputSerializer(write_only=True, help_text="Another person, from the security department.")

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.base_fields, "part", "performed_at", "performer", "witness"]
        read_only_fields = [f for f in EntrySerializer.Meta.base_fields if f not in ("kind", "description")]


@extend_schema_field(OpenApiTypes.INT)
class IdOfField(ScopedPrimaryKeyRelatedField):
    """A related id stored inside an entry's details (the schema cannot see through the JSON)."""


class IrregularitySerializer(EntrySerializer):
    table = _table_field()
    irregularity = serializers.ChoiceField(choices=IRREGULARITY_KINDS, source="details.irregularity", write_only=True)
    ball_replaced = StrictBooleanField(source="details.ball_replaced", default=False)
    new_ball = IdOfField(
        scope=balls_visible_to,
        source="details.new_ball",
        write_only=True,
        required=False,
        allow_null=True,
        help_text="The registered ball put in play when ball_replaced; it becomes the table's ball.",
    )
    notes = serializers.CharField(
        source="details.notes",
        required=False,
        allow_blank=True,
        default="",
        max_length=NOTE_MAX_LENGTH,
        validators=[printable_text],
    )
    at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    signature = SignatureInputSerializer(write_only=True)

    class Meta(EntrySerializer.Meta):
        fields = [
            *EntrySerializer.Meta.base_fields,
            "irregularity",
            "ball_replaced",
            "new_ball",
            "notes",
            "at",
            "signature",
        ]

    def validate(self, attrs):
        details = attrs.get("details", {})
        if details.get("new_ball") and not details.get("ball_replaced"):
            raise serializers.ValidationError({"new_ball": "A new ball is named only when the ball was replaced."})
        return attrs

    def to_internal_value(self, data):
        # API.md names the irregularity's reason `kind`; the entry's own kind is "irregularity".
        if hasattr(data, "get") and "kind" in data and "irregularity" not in data:
            data = {**{key: data.get(key) for key in data}, "irregularity": data.get("kind")}
        return super().to_internal_value(data)

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["kind"] = instance.details.get("irregularity")
        data["new_ball"] = instance.details.get("new_ball")
        data["entry_kind"] = instance.kind
        return data


class DeckChangeSerializer(EntrySerializer):
    table = _table_field()
    decks = serializers.IntegerField(source="details.decks", min_value=1, max_value=16)
    at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    signature = SignatureInputSerializer(write_only=True)

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.base_fields, "decks", "at", "signature"]


class AmendmentSerializer(EntrySerializer):
    entry = ScopedPrimaryKeyRelatedField(
        scope=entries_visible_to, source="amends", help_text="The id of the logbook entry corrected."
    )
    reason = serializers.CharField(source="details.reason", max_length=NOTE_MAX_LENGTH, validators=[printable_text])
    amendment_kind = serializers.ChoiceField(
        choices=AMENDMENT_KINDS,
        source="details.amendment_kind",
        default="correction",
        help_text="`correction` (the corrected values in `correction`), `entered_in_error` (the entry should "
        "not be in the log; an inspection entered in error does not count for opening), or `duplicate` "
        "(it repeats the earlier entry `duplicate_of`).",
    )
    duplicate_of = serializers.IntegerField(
        source="details.duplicate_of",
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=2**31 - 1,  # two billion entries: a larger number is a typing mistake, refused in words
        help_text="For a duplicate: the number (`seq`) of the earlier entry of the same table it repeats.",
    )
    correction = serializers.DictField(
        source="details.correction",
        required=False,
        default=dict,
        help_text="For a correction: the corrected values, by the field names of the amended entry's resource "
        "(e.g. `performed_at`, `items`, `notes` of an inspection).",
    )
    signature = SignatureInputSerializer(write_only=True)

    def validate_correction(self, value: dict) -> dict:
        # Stored as JSON in the chain: PostgreSQL's jsonb refuses NUL characters, so refuse them first.
        text = json.dumps(value)
        if "\\u0000" in text:
            raise serializers.ValidationError("Null characters are not allowed.", code="null_characters_not_allowed")
        if len(text) > 20_000:
            raise serializers.ValidationError("A correction is at most 20,000 characters of JSON.", code="max_length")
        printable_strings(value)  # corrected names and notes, like the originals
        return value

    class Meta(EntrySerializer.Meta):
        fields = [
            *EntrySerializer.Meta.base_fields,
            "entry",
            "reason",
            "amendment_kind",
            "duplicate_of",
            "correction",
            "signature",
        ]


class TableEventSerializer(serializers.Serializer):
    at = AwareDateTimeField(required=False, help_text="When it happened. " + TIME_HELP)
    signature = SignatureInputSerializer()


# The register's fields, in the order the reports print them: the API's rows carry each (with
# more, for machines), the PDF and the CSV a column of each (inspections.reports.kinds).
REGISTER_FIELDS = (
    "seq",
    "date",
    "time",
    "table_number",
    "kind",
    "part",
    "description",
    "failed_items",
    "notes",
    "inspection_certified",
    "signatures",
)
# The entries whose notes the register prints: an inspection's, a no spin's.
NOTED_KINDS = frozenset({EntryKind.INSPECTION, EntryKind.IRREGULARITY})


def failed_items(entry: Entry) -> list[dict]:
    """An inspection's checklist items that failed, in the checklist's order, each with its words
    and its paragraph (entries from `for_register()`, which carry their jurisdiction)."""
    if entry.kind != EntryKind.INSPECTION:
        return []
    checklist = rulebook_for(entry.jurisdiction).CHECKLIST_BY_CODE
    order = list(checklist)
    failed = [code for code, passed in (entry.details or {}).get("items", {}).items() if not passed]
    failed.sort(key=lambda code: order.index(code) if code in order else len(order))
    return [
        {
            "code": code,
            "label": checklist[code].label if code in checklist else code,
            "citation": checklist[code].citation if code in checklist else None,
        }
        for code in failed
    ]


def register_row(entry: Entry) -> dict:
    """One § 617a.2(e) register row, as the API and the reports give it (entries from `for_register()`)."""
    local = entry.occurred_at.astimezone(zoneinfo.ZoneInfo(entry.time_zone))
    details = entry.details or {}
    signatures = entry.signature_list
    # § 617a.2(e): the individual making the adjustment or replacement signs first (performer).
    first = signatures[0] if signatures else None
    return {
        "id": entry.pk,
        "seq": entry.seq,
        "property": entry.property_id,
        "table": entry.table_id,
        "table_number": entry.table_number,
        "date": local.date().isoformat(),
        "time": local.strftime("%H:%M:%S"),
        "occurred_at": _datetime.to_representation(entry.occurred_at),
        "kind": entry.kind,
        "adjustment_or_replacement": entry.kind if entry.kind in ADJUSTMENT_KINDS else None,
        "part": details.get("part", "") if entry.kind in ADJUSTMENT_KINDS else "",
        "description": entry.description,
        "failed_items": failed_items(entry),
        "notes": details.get("notes", "") if entry.kind in NOTED_KINDS else "",
        "inspection_certified": entry.passed if entry.kind == EntryKind.INSPECTION else None,
        "signer_name": first.signer_name if first else None,
        "credential_number": first.credential_number if first else None,
        "signatures": [signature_representation(signature) for signature in signatures],
        "amends": entry.amends_id,
        "amended_by": entry.amended_by,
        "entry_hash": entry.entry_hash,
    }


class AmendedBySerializer(serializers.Serializer):
    """An amendment made to the entry: its id and number, and what it says of the entry."""

    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    label = serializers.CharField(help_text="`correction`, `entered in error` or `duplicate of #N`.")
    reason = serializers.CharField()


class FailedItemSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The checklist item's code.")
    label = serializers.CharField(help_text="The item in words.")
    citation = serializers.CharField(allow_null=True, help_text="The paragraph that asks for it.")


class LogbookRowSerializer(serializers.ModelSerializer):
    """One row of the § 617a.2(e) inspection log register.

    The fields are declared for the schema; the row itself is built by hand in
    to_representation, because this is the page a regulator scrolls through and DRF's per-field
    machinery was most of its cost.
    """

    date = serializers.CharField(read_only=True, help_text="In the property's time zone (YYYY-MM-DD).")
    time = serializers.CharField(read_only=True, help_text="In the property's time zone (HH:MM:SS).")
    adjustment_or_replacement = serializers.CharField(
        read_only=True, allow_null=True, help_text="`adjustment` or `replacement` for those entries, else null."
    )
    part = serializers.CharField(read_only=True, help_text="Adjustments and replacements: the part; else empty.")
    failed_items = FailedItemSerializer(
        many=True,
        read_only=True,
        help_text="Inspections: the checklist items that failed, in the checklist's order; else empty.",
    )
    notes = serializers.CharField(read_only=True, help_text="Inspections and no spins: their notes; else empty.")
    inspection_certified = serializers.BooleanField(
        read_only=True,
        allow_null=True,
        help_text="Inspections: true when every item passed (the certification that the inspection was completed).",
    )
    signer_name = serializers.CharField(
        read_only=True, allow_null=True, help_text="The individual making the entry (for adjustments, the performer)."
    )
    credential_number = serializers.CharField(
        read_only=True, allow_null=True, help_text="Their Board-issued credential."
    )
    signatures = SignatureSerializer(source="signature_list", many=True, read_only=True)
    amended_by = AmendedBySerializer(many=True, read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "seq",
            "property",
            "table",
            "table_number",
            "date",
            "time",
            "occurred_at",
            "kind",
            "adjustment_or_replacement",
            "part",
            "description",
            "failed_items",
            "notes",
            "inspection_certified",
            "signer_name",
            "credential_number",
            "signatures",
            "amends",
            "amended_by",
            "entry_hash",
        ]

    def to_representation(self, entry: Entry) -> dict:
        return register_row(entry)


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


class ReportSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_visible_to)
    tables = ScopedPrimaryKeyRelatedField(
        scope=tables_visible_to, many=True, required=False, help_text="Ids of the tables (default: all)."
    )
    # "from" is a Python keyword: the field is put in the class's namespace under its API name.
    locals()["from"] = serializers.DateField(
        source="period_from", help_text="The first day, in the property's time zone (2000-01-01 or later)."
    )
    to = serializers.DateField(
        source="period_to", help_text="The last day, in the property's time zone (at most the property's tomorrow)."
    )
    download = serializers.SerializerMethodField(help_text="Where to get the file once `status` is done.")
    chain = serializers.ChoiceField(
        source="chain_state",
        choices=ChainState.choices,
        read_only=True,
        help_text="The property's hash chain when the report was made: `intact`, `broken` (see "
        "`chain_broken_entry`) or `not_verified` (an unknown is never reported as broken).",
    )
    chain_broken_entry = serializers.IntegerField(
        source="chain_broken_seq",
        read_only=True,
        allow_null=True,
        help_text="The number (`seq`) of the first broken entry of the property's chain, when broken.",
    )
    chain_broken_reason = serializers.CharField(read_only=True, help_text="Why that entry breaks the chain.")

    class Meta:
        model = Report
        fields = [
            "id",
            "kind",
            "property",
            "tables",
            "from",
            "to",
            "format",
            "status",
            "progress",
            "error",
            "sha256",
            "size",
            "pages",
            "rows",
            "chain",
            "chain_intact",
            "chain_broken_entry",
            "chain_broken_reason",
            "chain_head",
            "requested_by",
            "requested_at",
            "finished_at",
            "download",
        ]
        # Everything but what is asked for is the report's own doing.
        read_only_fields = [
            name for name in fields if name not in ("kind", "property", "tables", "from", "to", "format")
        ]

    def get_download(self, report) -> str | None:
        return f"/api/reports/{report.pk}/download/" if report.status == "done" else None

    def validate(self, attrs):
        problems = report_problems(
            kind=attrs["kind"],
            prop=attrs["property"],
            period_from=attrs["period_from"],
            period_to=attrs["period_to"],
            tables=attrs.get("tables", []),
        )
        if problems:
            raise serializers.ValidationError(problems)
        return attrs
