from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from compliance.api.fields import ScopedPrimaryKeyRelatedField
from compliance.models import GamingTable, Property, Role, User
from compliance.rulebook import raise_if_any, rulebook_for
from compliance.rulebook.roles import STAFF_ROLES
from compliance.selectors import is_administrator, properties_managed_by


class PropertySerializer(serializers.ModelSerializer):
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
            "chain_length",
            "chain_head",
        ]
        read_only_fields = ["chain_length", "chain_head"]


class PersonSerializer(serializers.ModelSerializer):
    password = serializers.CharField(write_only=True, style={"input_type": "password"})
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

    def create(self, validated_data):
        password = validated_data.pop("password")
        person = User(**validated_data, is_staff=validated_data["role"] == Role.ADMIN)
        person.set_password(password)
        person.save()
        return person


# Moved only by the logbook (inspections.services), never by a request.
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


class GamingTableSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)

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
            *TABLE_STATE_FIELDS,
        ]
        read_only_fields = TABLE_STATE_FIELDS

    def validate(self, attrs):
        if self.instance is not None and "property" in attrs and attrs["property"] != self.instance.property:
            raise serializers.ValidationError({"property": "A table does not move to another property."})
        merged = {
            f: attrs.get(f, getattr(self.instance, f, None))
            for f in ("game", "wheel_type", "has_external_movable_parts")
        }
        prop = attrs.get("property") or self.instance.property
        raise_if_any(rulebook_for(prop.jurisdiction).table_configuration(**merged))
        return attrs
