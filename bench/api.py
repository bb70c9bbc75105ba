"""The baseline endpoint: a bare DRF ModelViewSet, with the one password check a signed POST makes."""

from rest_framework import serializers, viewsets

from bench.models import BaselineRow


class BaselineRowSerializer(serializers.ModelSerializer):
    # Not a column: checked like a signature's password, then dropped.
    password = serializers.CharField(write_only=True, trim_whitespace=False)

    class Meta:
        model = BaselineRow
        fields = "__all__"


class BaselineRowViewSet(viewsets.ModelViewSet):
    """Authentication, permission, pagination and filter backend are the project's defaults."""

    queryset = BaselineRow.objects.all()
    serializer_class = BaselineRowSerializer
    filterset_fields = ["table"]

    def perform_create(self, serializer):
        # The cost of a signature: one check with the project's hasher (Argon2, about 0.11 s here).
        if not self.request.user.check_password(serializer.validated_data.pop("password")):
            raise serializers.ValidationError({"password": ["Wrong password."]})
        serializer.save()
