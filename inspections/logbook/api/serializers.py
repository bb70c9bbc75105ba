"""Parse requests into service calls and shape entries for reading; the rules are the rulebook's."""

from __future__ import annotations

import json

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from compliance.accounts.api.serializers import SignatureInputSerializer
from compliance.casinos.selectors import balls_visible_to, tables_visible_to
from compliance.rulebook.amendments import AMENDMENT_KINDS
from compliance.rulebook.games.casino_war import CARD_CHECKS
from compliance.rulebook.games.casino_war import IRREGULARITY_KINDS as CASINO_WAR_IRREGULARITY_KINDS
from compliance.rulebook.jurisdictions.pennsylvania import IRREGULARITY_KINDS
from config.api.fields import AwareDateTimeField, ScopedPrimaryKeyRelatedField, StrictBooleanField
from config.validators import NOTE_MAX_LENGTH, printable_line, printable_strings, printable_text
from inspections.logbook.models import Entry, EntryKind, Signature
from inspections.logbook.register import register_row, signature_representation
from inspections.logbook.selectors import entries_visible_to

# An entry's own time (compliance.rulebook.procedure.entry_time_plausible).
TIME_HELP = (
    "Defaults to now. Never in the future (beyond a device clock's skew), nor further back than "
    "ENTRY_MAX_BACKDATE_HOURS (24 by default)."
)


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


def notes_field() -> serializers.CharField:
    """An entry's free notes, kept in its details: optional, printable, bounded as every note is."""
    return serializers.CharField(
        source="details.notes",
        required=False,
        allow_blank=True,
        default="",
        max_length=NOTE_MAX_LENGTH,
        validators=[printable_text],
    )


def photos_field() -> serializers.ListField:
    """The entry's photos, sent as `multipart/form-data` (config.api.parsers.EntryWithPhotosParser);
    each judged by the rule (compliance.rulebook.photos) by its content, not here."""
    return serializers.ListField(
        child=serializers.FileField(allow_empty_file=True),
        write_only=True,
        required=False,
        default=list,
        help_text="Photos (JPEG, PNG or WebP), sent as multipart/form-data: the entry's JSON in the part "
        "`data`, each photo as a part `photos`. Their SHA-256 are signed with the entry.",
    )


class PhotoSerializer(serializers.Serializer):
    """A photo of an entry: its place, its original's SHA-256 (signed in the entry), what it shows."""

    position = serializers.IntegerField()
    sha256 = serializers.CharField()
    kind = serializers.CharField()
    item = serializers.CharField()
    download = serializers.SerializerMethodField(help_text="Where its copy without metadata is downloaded.")

    def get_download(self, photo) -> str:
        return f"/api/entries/{photo.entry_id}/photos/{photo.position}/"


class WithPhotosMixin:
    """An entry that takes photos: `photos` written (multipart), and read back as the entry's photos."""

    def to_representation(self, instance):
        data = super().to_representation(instance)  # type: ignore[misc]
        # The signed details name the photos' hashes: an entry without any asks nothing more.
        signed = (getattr(instance, "details", None) or {}).get("photos")
        data["photos"] = PhotoSerializer(instance.photos.all(), many=True).data if signed else []
        return data


class InspectionSerializer(WithPhotosMixin, EntrySerializer):
    table = _table_field()
    performed_at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    items = serializers.DictField(
        child=StrictBooleanField(),
        source="details.items",
        help_text="ball_non_magnetic, no_magnet_or_contrivance, wheel_level_and_rotating, parts_secure; "
        "layout_and_signage_00 only for double_zero_as_single_zero tables. true = passed.",
    )
    notes = notes_field()
    signature = SignatureInputSerializer(write_only=True, help_text="The inspector's.")
    photos = photos_field()
    photo_item = serializers.CharField(
        write_only=True,
        required=False,
        allow_blank=True,
        default="",
        max_length=60,
        validators=[printable_line],
        help_text="The checklist item the photos show (one of `items`' names), or empty for the whole table.",
    )

    class Meta(EntrySerializer.Meta):
        fields = [
            *EntrySerializer.Meta.base_fields,
            "performed_at",
            "items",
            "passed",
            "notes",
            "signature",
            "photos",
            "photo_item",
        ]
        read_only_fields = [*EntrySerializer.Meta.base_fields, "passed"]


@extend_schema_field(OpenApiTypes.INT)
class IdOfField(ScopedPrimaryKeyRelatedField):
    """A related id stored inside an entry's details (the schema cannot see through the JSON)."""


def _new_ball_field(help_text: str) -> IdOfField:
    """The registered ball put in play by the entry, kept in its details: optional, one the person sees."""
    return IdOfField(
        scope=balls_visible_to,
        source="details.new_ball",
        write_only=True,
        required=False,
        allow_null=True,
        help_text=help_text,
    )


class AdjustmentSerializer(WithPhotosMixin, EntrySerializer):
    table = _table_field()
    kind = serializers.ChoiceField(choices=[EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT])
    part = serializers.CharField(source="details.part", max_length=200, validators=[printable_line])
    description = serializers.CharField(max_length=NOTE_MAX_LENGTH, validators=[printable_text])
    performed_at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    performer = SignatureInputSerializer(write_only=True, help_text="A floorperson or table game maintenance member.")
    # Missing, it is the rulebook's to refuse (witness_required, § 617a.2(b)), not a field's form.
    witness = SignatureInputSerializer(
        write_only=True,
        required=False,
        allow_null=True,
        help_text="Another person, from the security department, in whose presence the work was done.",
    )
    new_ball = _new_ball_field(
        "A ball change (a replacement of the ball, on any Roulette table, whatever its wheel): the registered "
        "spare ball put on; it becomes the table's ball. Required when the part replaced is the ball."
    )
    old_ball = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="A ball change: the id of the ball taken off (the table's)."
    )
    ball_off = serializers.CharField(read_only=True, help_text="A ball change: the serial of the ball taken off.")
    ball_on = serializers.CharField(read_only=True, help_text="A ball change: the serial of the ball put on.")
    photos = photos_field()

    class Meta(EntrySerializer.Meta):
        fields = [
            *EntrySerializer.Meta.base_fields,
            "part",
            "new_ball",
            "old_ball",
            "ball_off",
            "ball_on",
            "performed_at",
            "performer",
            "witness",
            "photos",
        ]
        read_only_fields = [f for f in EntrySerializer.Meta.base_fields if f not in ("kind", "description")]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        details = instance.details or {}
        data["new_ball"] = details.get("new_ball")
        data["old_ball"] = details.get("old_ball")
        data["ball_off"] = details.get("ball_off", "")
        data["ball_on"] = details.get("ball_on", "")
        return data


class IrregularitySerializer(WithPhotosMixin, EntrySerializer):
    table = _table_field()
    irregularity = serializers.ChoiceField(
        choices=(*IRREGULARITY_KINDS, *CASINO_WAR_IRREGULARITY_KINDS),
        source="details.irregularity",
        write_only=True,
        help_text="§ 617a.6's reasons on a Roulette table; § 651a.11's on a Casino War table.",
    )
    ball_replaced = StrictBooleanField(source="details.ball_replaced", default=False)
    new_ball = _new_ball_field("The registered ball put in play when ball_replaced; it becomes the table's ball.")
    notes = notes_field()
    at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    signature = SignatureInputSerializer(write_only=True)
    photos = photos_field()

    class Meta(EntrySerializer.Meta):
        fields = [
            *EntrySerializer.Meta.base_fields,
            "irregularity",
            "ball_replaced",
            "new_ball",
            "notes",
            "at",
            "signature",
            "photos",
        ]

    def validate(self, attrs):
        details = attrs.get("details", {})
        if details.get("new_ball") and not details.get("ball_replaced"):
            raise serializers.ValidationError({"new_ball": "A new ball is named only when the ball was replaced."})
        return attrs

    def to_internal_value(self, data):
        # docs/api.md names the irregularity's reason `kind`; the entry's own kind is "irregularity".
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
    # Optional here: the rule refuses a Casino War deck change without them, naming § 651a.3(a), (c)(2).
    cards_per_deck = serializers.IntegerField(
        source="details.cards_per_deck",
        min_value=0,
        max_value=99,
        required=False,
        allow_null=True,
        help_text="The cards in each deck, cover cards not counted: 52 (§ 651a.3(a), proposed).",
    )
    cover_cards_per_deck = serializers.IntegerField(
        source="details.cover_cards_per_deck",
        min_value=0,
        max_value=99,
        required=False,
        allow_null=True,
        help_text="The cover cards of each deck: 2 (§ 651a.3(a), proposed).",
    )
    back_colours = serializers.ListField(
        source="details.back_colours",
        child=serializers.CharField(max_length=40, validators=[printable_line]),
        max_length=2,
        required=False,
        allow_null=True,
        help_text="The colour of the cards' backs: one for the six or eight decks of a manual shoe (§ 651a.3(a)); "
        "one per batch, two different, with an automated card shuffling device (§ 651a.3(c)(2), proposed).",
    )
    at = AwareDateTimeField(source="occurred_at", required=False, help_text=TIME_HELP)
    signature = SignatureInputSerializer(write_only=True)

    class Meta(EntrySerializer.Meta):
        fields = [
            *EntrySerializer.Meta.base_fields,
            "decks",
            "cards_per_deck",
            "cover_cards_per_deck",
            "back_colours",
            "at",
            "signature",
        ]


class AmendmentSerializer(WithPhotosMixin, EntrySerializer):
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
    photos = photos_field()

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
            "photos",
        ]


class TableEventSerializer(serializers.Serializer):
    at = AwareDateTimeField(required=False, help_text="When it happened. " + TIME_HELP)
    cards = serializers.ChoiceField(
        choices=CARD_CHECKS,
        required=False,
        allow_null=True,
        help_text="Opening a Casino War table: how its cards were inspected (§ 651a.4); required there, "
        "refused at any other table.",
    )
    signature = SignatureInputSerializer()


class AmendedBySerializer(serializers.Serializer):
    """An amendment made to the entry: its id and number, and what it says of the entry."""

    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    # The API's field `label` shadows the name of a field's own label in DRF's stubs.
    label = serializers.CharField(  # type: ignore[assignment]
        help_text="`correction`, `entered in error` or `duplicate of #N`."
    )
    reason = serializers.CharField()


class FailedItemSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The checklist item's code.")
    label = serializers.CharField(help_text="The item in words.")  # type: ignore[assignment]  # as above
    citation = serializers.CharField(allow_null=True, help_text="The paragraph that asks for it.")


class LogbookRowSerializer(serializers.ModelSerializer):
    """One row of the § 617a.2(e) inspection log register.

    The row is `register_row`'s, the one the reports' PDF and CSV print too; the fields declared here
    are that row's, in its order (tests/inspections/test_api.py compares them).
    """

    date = serializers.CharField(read_only=True, help_text="In the property's time zone (YYYY-MM-DD).")
    time = serializers.CharField(read_only=True, help_text="In the property's time zone (HH:MM:SS).")
    adjustment_or_replacement = serializers.CharField(
        read_only=True, allow_null=True, help_text="`adjustment` or `replacement` for those entries, else null."
    )
    part = serializers.CharField(read_only=True, help_text="Adjustments and replacements: the part; else empty.")
    ball = serializers.CharField(
        read_only=True,
        help_text="A ball change (a replacement of the ball): the ball taken off and the ball put on, by serial "
        '("BL-7 taken off, BL-9 put on"); else empty.',
    )
    old_ball = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="A ball change: the id of the ball taken off (null if none)."
    )
    new_ball = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="A ball change: the id of the ball put on; else null."
    )
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
    photos = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="The SHA-256 of each photo's original, as the entry signed them (docs/api.md, Photos).",
    )

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
            "ball",
            "old_ball",
            "new_ball",
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
            "photos",
        ]

    def to_representation(self, entry: Entry) -> dict:
        return register_row(entry)


class CheckpointKeySerializer(serializers.Serializer):
    """A checkpoint key's public half, as published for whoever verifies a checkpoint."""

    key_id = serializers.CharField(help_text="What a checkpoint names: SHA-256 of the raw key, 16 hex digits.")
    algorithm = serializers.CharField(help_text="Always Ed25519.")
    public_key_pem = serializers.CharField(help_text="SubjectPublicKeyInfo, PEM.")
    valid_from = serializers.DateTimeField()
    valid_until = serializers.DateTimeField(allow_null=True, help_text="null while it signs.")
    signing = serializers.BooleanField(help_text="Whether it signs the checkpoints made now.")
