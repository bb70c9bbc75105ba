from rest_framework import serializers

from compliance.accounts.api.serializers import SignatureInputSerializer
from compliance.approvals.models import ApprovalSignature, LayoutSubmission, RulesSubmission
from compliance.approvals.selectors import submission_warnings
from compliance.casinos.selectors import properties_managed_by, tables_visible_to
from compliance.rulebook.configurations import STANDARD
from compliance.rulebook.submissions import submission_house_edge_notes, submission_house_edges
from config.api.fields import ScopedPrimaryKeyRelatedField
from config.validators import NOTE_MAX_LENGTH, printable_line, printable_text


class ApprovalSignatureSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApprovalSignature
        fields = [
            "action",
            "reference",
            "note",
            "signer",
            "signer_name",
            "credential_number",
            "signed_at",
            "content_hash",
        ]


class RulesSubmissionSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)
    wheel_types = serializers.ListField(
        child=serializers.CharField(max_length=40, validators=[printable_line]), required=False, max_length=3
    )
    payout_odds = serializers.DictField(
        required=False, help_text='Wager code → [X, Y] for "X to Y", e.g. {"straight": [35, 1]}.'
    )
    options = serializers.DictField(required=False, help_text="five_adjacent, touchdown_paytable, b2b_payouts, …")
    # Checked by the rule (compliance.rulebook.configurations), which answers each problem with its field.
    configurations = serializers.JSONField(
        required=False,
        help_text="The table configurations besides the standard one (wheel_types, payout_odds and options above, "
        'key "standard"): a list of {"key", "name", "wheel_types", "payout_odds", "options"}. A table uses the '
        "configuration whose key it names; exclusivity, wheel-type and option rules are judged per configuration.",
    )
    warnings = serializers.SerializerMethodField(
        help_text="What this version changes for the property's tables (null in a list: read one submission): "
        "version_in_effect, "
        "tables_left_without_configuration (each table, the configuration it names and why it could not open "
        "under this version) and changes (per configuration: added, removed or changed, with the details) "
        "against the version in effect today."
    )
    violations = serializers.ListField(child=serializers.DictField(), read_only=True, help_text="As last checked.")
    house_edge = serializers.SerializerMethodField(
        help_text="Wager code → wheel type → the house edge in percent that the odds and the wheel give; "
        "null where the text does not determine it (house_edge_notes says why)."
    )
    house_edge_notes = serializers.SerializerMethodField(
        help_text="Wager code → why its house edge is null (e.g. a straight wager under Lightning Roulette)."
    )
    signatures = ApprovalSignatureSerializer(many=True, read_only=True)

    class Meta:
        model = RulesSubmission
        fields = [
            "id",
            "property",
            "game",
            "version",
            "effective_from",
            "wheel_types",
            "payout_odds",
            "options",
            "configurations",
            "status",
            "violations",
            "warnings",
            "house_edge",
            "house_edge_notes",
            "content_hash",
            "decision_reference",
            "signatures",
            "created_by",
            "created_at",
        ]
        read_only_fields = ["version", "status", "content_hash", "decision_reference", "created_by", "created_at"]

    def get_house_edge(self, submission) -> dict:
        """The standard configuration's at the top level; each other's under its key."""
        return _per_configuration(submission, submission_house_edges, wheels=True)

    def get_house_edge_notes(self, submission) -> dict:
        return _per_configuration(submission, submission_house_edge_notes, wheels=False)

    def get_warnings(self, submission) -> dict | None:
        # A list leaves them out (each would read the property's tables and the version in effect).
        view = self.context.get("view")
        if view is not None and getattr(view, "action", None) == "list":
            return None
        return submission_warnings(submission).as_dict()

    def validate(self, attrs):
        if self.instance is not None and "property" in attrs and attrs["property"] != self.instance.property:
            raise serializers.ValidationError({"property": "A Rules Submission does not move to another property."})
        if self.instance is not None and "game" in attrs and attrs["game"] != self.instance.game:
            raise serializers.ValidationError({"game": "Start a new submission for another game."})
        return attrs


def _per_configuration(submission, compute, *, wheels: bool) -> dict:
    """`compute` for the standard configuration, with each other's under "configurations" by key."""
    found: dict = {}
    for configuration in submission.all_configurations():
        arguments = {"payout_odds": configuration.payout_odds, "options": configuration.options}
        if wheels:
            arguments["wheel_types"] = configuration.wheel_types
        value = compute(jurisdiction=submission.property.jurisdiction, game=submission.game, **arguments)
        if configuration.key == STANDARD:
            found.update(value)
        else:
            found.setdefault("configurations", {})[configuration.key] = value
    return found


class SignedActionSerializer(serializers.Serializer):
    signature = SignatureInputSerializer()


class DecisionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["approved", "rejected"])
    reference = serializers.CharField(
        max_length=100, help_text="The Board's reference for the decision.", validators=[printable_line]
    )
    note = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=NOTE_MAX_LENGTH, validators=[printable_text]
    )
    signature = SignatureInputSerializer()


class LayoutSubmissionSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)
    features = serializers.ListField(
        child=serializers.CharField(max_length=40, validators=[printable_line]), max_length=40
    )
    tables = ScopedPrimaryKeyRelatedField(
        scope=tables_visible_to, many=True, help_text="Ids of the tables it is used on."
    )
    signatures = ApprovalSignatureSerializer(many=True, read_only=True)
    # Checked by the rule (compliance.rulebook.artwork), which names the policy, not here.
    artwork = serializers.FileField(
        write_only=True,
        required=False,
        allow_empty_file=True,
        help_text="The layout's artwork: a PDF, PNG or JPEG file (sent as multipart/form-data).",
    )
    artwork_download = serializers.SerializerMethodField(
        help_text="Where the artwork is downloaded (null for a layout submitted without one)."
    )

    class Meta:
        model = LayoutSubmission
        fields = [
            "id",
            "property",
            "game",
            "name",
            "features",
            "tables",
            "artwork",
            "artwork_download",
            "artwork_kind",
            "artwork_sha256",
            "status",
            "content_hash",
            "decision_reference",
            "signatures",
            "created_by",
            "created_at",
        ]
        read_only_fields = [
            "artwork_kind",
            "artwork_sha256",
            "status",
            "content_hash",
            "decision_reference",
            "created_by",
            "created_at",
        ]

    def get_artwork_download(self, layout) -> str | None:
        return f"/api/layouts/{layout.pk}/artwork/" if layout.artwork else None

    def validate(self, attrs):
        strangers = [t.number for t in attrs["tables"] if t.property_id != attrs["property"].pk]
        if strangers:
            raise serializers.ValidationError({"tables": f"Tables {', '.join(strangers)} are not of this property."})
        other_game = [t.number for t in attrs["tables"] if t.game != attrs.get("game", "roulette")]
        if other_game:
            raise serializers.ValidationError({"tables": f"Tables {', '.join(other_game)} play another game."})
        return attrs
