"""A report as asked for and as followed: what it covers, its progress, its chain check, its file."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from rest_framework import serializers

from compliance.casinos.selectors import properties_visible_to, tables_visible_to
from config.api.fields import ScopedPrimaryKeyRelatedField
from inspections.reports.models import ChainState, Report
from inspections.reports.selectors import report_problems


class CheckpointShape(TypedDict):
    seq: int
    entry: int
    head: str
    signed_at: datetime
    key_id: str
    signature: str
    timestamped: bool


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
    checkpoint = serializers.SerializerMethodField(
        help_text="The signed checkpoint made for the report (printed on its cover): its number, the entry it "
        "covers and that entry's hash, when it was signed, the key's id and the Ed25519 signature; null without one."
    )
    signed_by = serializers.CharField(
        read_only=True, help_text="Who signed the PDF (its certificate's subject); empty for a CSV."
    )

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
            "checkpoint",
            "signed_by",
            "requested_by",
            "requested_at",
            "finished_at",
            "download",
        ]
        # Everything but what is asked for is the report's own doing.
        read_only_fields = [
            name for name in fields if name not in ("kind", "property", "tables", "from", "to", "format")
        ]

    def get_checkpoint(self, report) -> CheckpointShape | None:
        checkpoint = report.checkpoint
        if checkpoint is None:
            return None
        return {
            "seq": checkpoint.seq,
            "entry": checkpoint.entry_seq,
            "head": checkpoint.head,
            "signed_at": checkpoint.signed_at,
            "key_id": checkpoint.key_id,
            "signature": checkpoint.signature,
            "timestamped": bool(checkpoint.timestamp_token),
        }

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


class CertificateSerializer(serializers.Serializer):
    """A published certificate: the compliance CA's, or a report-signing one."""

    subject = serializers.CharField(help_text="RFC 4514.")
    issuer = serializers.CharField(help_text="RFC 4514.")
    serial_number = serializers.CharField(help_text="Hexadecimal.")
    sha256 = serializers.CharField(help_text="SHA-256 of the DER certificate, hexadecimal.")
    valid_from = serializers.DateTimeField()
    valid_until = serializers.DateTimeField()
    pem = serializers.CharField(help_text="The certificate, PEM.")


class ReportCertificateSerializer(CertificateSerializer):
    signing = serializers.BooleanField(help_text="Whether it signs the reports made now.")
