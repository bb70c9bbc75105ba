from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ImproperlyConfigured
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from compliance.accounts.models import Role, User
from compliance.accounts.signatures import SignatureInput
from compliance.approvals.models import ApprovalSignature, LayoutSubmission, RulesSubmission
from compliance.casinos.models import Ball, GamingTable, Property, Wheel
from compliance.casinos.selectors import (
    balls_visible_to,
    is_administrator,
    properties_managed_by,
    tables_visible_to,
    wheels_visible_to,
)
from compliance.casinos.services import submission_house_edges
from compliance.rulebook import raise_if_any, rulebook_for
from compliance.rulebook.roles import STAFF_ROLES
from config.api.fields import ScopedPrimaryKeyRelatedField
from config.validators import NOTE_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG, printable_line, printable_text


class SignatureInputSerializer(serializers.Serializer):
    """The signer re-enters their password at the moment of signing."""

    username = serializers.CharField(max_length=150, validators=[printable_line])
    password = serializers.CharField(
        style={"input_type": "password"},
        trim_whitespace=False,
        max_length=PASSWORD_MAX_LENGTH,
        error_messages={"max_length": PASSWORD_TOO_LONG},
    )

    def to_internal_value(self, data) -> SignatureInput:
        values = super().to_internal_value(data)
        # The request goes with the signature: wrong passwords are counted against its address. A
        # serializer built without the view's context has none; that is a mistake in the view, and
        # it fails loudly here rather than signing without the lockout.
        request = self.context.get("request")
        if request is None:
            raise ImproperlyConfigured(
                "A serializer taking a signature is built with the view's context (get_serializer_context())."
            )
        return SignatureInput(
            username=values["username"], password=values["password"], request=getattr(request, "_request", request)
        )


class TokenRequestSerializer(AuthTokenSerializer):
    """DRF's, with the username held to what a username can be."""

    username = serializers.CharField(label="Username", write_only=True, max_length=150, validators=[printable_line])
    # Refused before the password is checked: nothing hashed, nothing counted toward the lockout.
    password = serializers.CharField(
        label="Password",
        write_only=True,
        style={"input_type": "password"},
        trim_whitespace=False,
        max_length=PASSWORD_MAX_LENGTH,
        error_messages={"max_length": PASSWORD_TOO_LONG},
    )


class PropertySerializer(serializers.ModelSerializer):
    notify_emails = serializers.ListField(
        child=serializers.EmailField(max_length=254, validators=[printable_line]),
        required=False,
        max_length=50,
        help_text="The security supervisors mailed when a flag opens, and each morning with a digest.",
    )

    class Meta:
        model = Property
        fields = [
            "id",
            "name",
            "licence_number",
            "jurisdiction",
            "time_zone",
            "cover_grace_minutes",
            "max_inspection_interval_hours",
            "notify_emails",
            "chain_length",
            "chain_head",
        ]
        read_only_fields = ["chain_length", "chain_head"]


class PersonSerializer(serializers.ModelSerializer):
    # Kept exactly as typed (NIST SP 800-63B: spaces are allowed, so none is trimmed away).
    password = serializers.CharField(
        write_only=True,
        style={"input_type": "password"},
        trim_whitespace=False,
        max_length=PASSWORD_MAX_LENGTH,
        error_messages={"max_length": PASSWORD_TOO_LONG},
    )
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by, required=False, allow_null=True)

    class Meta:
        model = User
        fields = ["id", "username", "full_name", "role", "credential_number", "property", "jurisdiction", "password"]

    def validate(self, attrs):
        user = self.context["request"].user
        role = attrs.get("role")
        if not is_administrator(user):
            if role not in STAFF_ROLES:
                raise serializers.ValidationError(
                    {"role": "A compliance manager adds security, floor, maintenance and compliance staff."}
                )
            attrs["property"] = Property.objects.get(pk=user.property_id)
        if role == Role.REGULATOR:
            if attrs.get("property") or not attrs.get("jurisdiction"):
                raise serializers.ValidationError({"jurisdiction": "A regulator has a jurisdiction and no property."})
        elif role == Role.ADMIN:
            attrs["jurisdiction"] = ""
        else:
            if not attrs.get("property"):
                raise serializers.ValidationError({"property": "Property staff belong to a property."})
            attrs["jurisdiction"] = ""
        candidate = User(**{k: v for k, v in attrs.items() if k != "password"})
        try:
            validate_password(attrs["password"], candidate)
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


# Moved only by the logbook (inspections.logbook.services), never by a request.
TABLE_STATE_FIELDS = [
    "state",
    "next_due",
    "inspection_void_reason",
    "last_inspection_at",
    "last_adjustment_at",
    "last_replacement_at",
    "last_opened_at",
    "last_closed_at",
]


class WheelSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)
    number_order = serializers.ListField(
        child=serializers.CharField(max_length=2, validators=[printable_line]),
        max_length=60,
        help_text='The numbers read clockwise from "0", e.g. ["0", "32", "15", …].',
    )

    class Meta:
        model = Wheel
        fields = ["id", "property", "serial", "wheel_type", "diameter_inches", "number_order", "registered_at"]

    def validate(self, attrs):
        raise_if_any(
            rulebook_for(attrs["property"].jurisdiction).check_wheel(
                wheel_type=attrs["wheel_type"],
                diameter_inches=attrs["diameter_inches"],
                number_order=attrs["number_order"],
            )
        )
        return attrs


class BallSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)

    class Meta:
        model = Ball
        fields = ["id", "property", "serial", "material", "diameter_inches", "registered_at"]

    def validate(self, attrs):
        raise_if_any(
            rulebook_for(attrs["property"].jurisdiction).check_ball(
                material=attrs["material"], diameter_inches=attrs["diameter_inches"]
            )
        )
        return attrs


class GamingTableSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)
    wheel = ScopedPrimaryKeyRelatedField(scope=wheels_visible_to, required=False, allow_null=True)
    ball = ScopedPrimaryKeyRelatedField(scope=balls_visible_to, required=False, allow_null=True)

    class Meta:
        model = GamingTable
        fields = [
            "id",
            "property",
            "number",
            "game",
            "wheel_type",
            "has_external_movable_parts",
            "electronic",
            "wheel",
            "ball",
            *TABLE_STATE_FIELDS,
        ]
        read_only_fields = TABLE_STATE_FIELDS

    # The rules (configuration, equipment, moves) are compliance.casinos.services.table_create/_update's.


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
    violations = serializers.ListField(child=serializers.DictField(), read_only=True, help_text="As last checked.")
    house_edge = serializers.SerializerMethodField(
        help_text="Wager code → wheel type → the house edge in percent that the odds and the wheel give."
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
            "status",
            "violations",
            "house_edge",
            "content_hash",
            "decision_reference",
            "signatures",
            "created_by",
            "created_at",
        ]
        read_only_fields = ["version", "status", "content_hash", "decision_reference", "created_by", "created_at"]

    def get_house_edge(self, submission) -> dict:
        return submission_house_edges(
            jurisdiction=submission.property.jurisdiction,
            game=submission.game,
            wheel_types=submission.wheel_types,
            payout_odds=submission.payout_odds,
            options=submission.options,
        )

    def validate(self, attrs):
        if self.instance is not None and "property" in attrs and attrs["property"] != self.instance.property:
            raise serializers.ValidationError({"property": "A Rules Submission does not move to another property."})
        if self.instance is not None and "game" in attrs and attrs["game"] != self.instance.game:
            raise serializers.ValidationError({"game": "Start a new submission for another game."})
        return attrs


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

    class Meta:
        model = LayoutSubmission
        fields = [
            "id",
            "property",
            "game",
            "name",
            "features",
            "tables",
            "status",
            "content_hash",
            "decision_reference",
            "signatures",
            "created_by",
            "created_at",
        ]
        read_only_fields = ["status", "content_hash", "decision_reference", "created_by", "created_at"]

    def validate(self, attrs):
        strangers = [t.number for t in attrs["tables"] if t.property_id != attrs["property"].pk]
        if strangers:
            raise serializers.ValidationError({"tables": f"Tables {', '.join(strangers)} are not of this property."})
        other_game = [t.number for t in attrs["tables"] if t.game != attrs.get("game", "roulette")]
        if other_game:
            raise serializers.ValidationError({"tables": f"Tables {', '.join(other_game)} play another game."})
        return attrs
