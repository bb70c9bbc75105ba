from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ImproperlyConfigured
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from compliance.accounts.directory import DirectoryUnavailable, unavailable_message
from compliance.accounts.models import Role, User
from compliance.accounts.signatures import SignatureInput
from compliance.casinos.models import Property
from compliance.casinos.selectors import properties_managed_by
from compliance.rulebook.roles import STAFF_ROLES
from config.api.fields import ScopedPrimaryKeyRelatedField
from config.validators import PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG, printable_line


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

    def validate(self, attrs):
        try:
            return super().validate(attrs)
        except DirectoryUnavailable:
            raise serializers.ValidationError(unavailable_message(), code="directory_unavailable") from None


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
        if not user.is_administrator:
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
