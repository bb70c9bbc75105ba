from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import mixins, serializers, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action, api_view, permission_classes
from rest_framework.exceptions import APIException, PermissionDenied, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from compliance.accounts.auth import ScopedRateThrottle, is_locked_out, lockout_message, lockout_seconds
from compliance.accounts.models import User
from compliance.approvals.models import LayoutSubmission, RulesSubmission
from compliance.casinos import services
from compliance.casinos.api.serializers import (
    BallSerializer,
    DecisionSerializer,
    GamingTableSerializer,
    LayoutSubmissionSerializer,
    PersonSerializer,
    PropertySerializer,
    RulesSubmissionSerializer,
    SignedActionSerializer,
    TokenRequestSerializer,
    WheelSerializer,
)
from compliance.casinos.models import Ball, GamingTable, Wheel
from compliance.casinos.selectors import (
    balls_visible_to,
    layouts_visible_to,
    people_visible_to,
    properties_managed_by,
    properties_visible_to,
    rules_submissions_visible_to,
    tables_visible_to,
    wheels_visible_to,
)
from config.api.filters import IdFilter
from config.api.parsers import PARSERS
from config.api.permissions import ReadOrAdministrator, ReadOrConfigure


class ListRetrieveCreatePatchViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    http_method_names = ["get", "post", "patch", "head", "options"]


class PropertyViewSet(ListRetrieveCreatePatchViewSet):
    serializer_class = PropertySerializer
    permission_classes = [ReadOrAdministrator]

    def get_queryset(self):
        return properties_visible_to(self.request.user).order_by("name")

    def perform_update(self, serializer):
        # A compliance manager keeps their own property's policy (the service says who changes what).
        serializer.instance = services.property_update(
            property_id=serializer.instance.pk, actor=self.request.user, changes=serializer.validated_data
        )


class PersonFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = User
        fields = ["role", "property", "jurisdiction"]


class PersonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    serializer_class = PersonSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = PersonFilter

    def get_queryset(self):
        return people_visible_to(self.request.user).order_by("username")

    def perform_create(self, serializer):
        serializer.instance = services.person_create(actor=self.request.user, **serializer.validated_data)


class GamingTableFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = GamingTable
        fields = ["property", "game", "wheel_type", "state", "number"]


class GamingTableViewSet(ListRetrieveCreatePatchViewSet):
    """Tables; the logbook app adds the open/close/cover/unlock actions. A table's configuration (game,
    wheel type, external movable parts, electronic, wheel, ball) changes only while it is closed, and
    it is then inspected again before it opens; a table with logbook entries stays at its property."""

    serializer_class = GamingTableSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = GamingTableFilter

    def get_queryset(self):
        return tables_visible_to(self.request.user).order_by("property__name", "number")

    def perform_create(self, serializer):
        serializer.instance = services.table_create(actor=self.request.user, **serializer.validated_data)

    def perform_update(self, serializer):
        # The service reads the row again under its lock and writes only what changes.
        serializer.instance = services.table_update(
            table_id=serializer.instance.pk, actor=self.request.user, changes=serializer.validated_data
        )


class WheelFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = Wheel
        fields = ["property", "wheel_type"]


class BallFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = Ball
        fields = ["property", "material"]


class WheelViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Registered wheels; the number order is checked against § 617a.1(c), (d) at registration."""

    serializer_class = WheelSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = WheelFilter

    def get_queryset(self):
        return wheels_visible_to(self.request.user).order_by("property_id", "serial")


class BallViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Registered balls, checked against § 617a.1(a) at registration."""

    serializer_class = BallSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = BallFilter

    def get_queryset(self):
        return balls_visible_to(self.request.user).order_by("property_id", "serial")


class RulesSubmissionFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = RulesSubmission
        fields = ["property", "game", "status"]


class RulesSubmissionViewSet(ListRetrieveCreatePatchViewSet):
    """Rules Submissions: drafts checked as they are saved, filed by compliance, decided by the regulator."""

    serializer_class = RulesSubmissionSerializer
    filterset_class = RulesSubmissionFilter

    def get_permissions(self):
        if self.action == "decision":
            return [IsAuthenticated()]  # the rule (may_decide) names who decides
        return [ReadOrConfigure()]

    def get_queryset(self):
        return rules_submissions_visible_to(self.request.user).order_by("property_id", "game", "-version")

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.rules_submission_draft(
            prop=data["property"],
            game=data.get("game", "roulette"),
            effective_from=data["effective_from"],
            wheel_types=data.get("wheel_types", []),
            payout_odds=data.get("payout_odds", {}),
            options=data.get("options", {}),
            created_by=self.request.user,
        )

    def perform_update(self, serializer):
        if not properties_managed_by(self.request.user).filter(pk=serializer.instance.property_id).exists():
            raise PermissionDenied("Only an administrator or this property's compliance manager changes it.")
        serializer.instance = services.rules_submission_update(
            submission_id=serializer.instance.pk, **serializer.validated_data
        )

    def _answer(self, submission) -> Response:
        submission = self.get_queryset().get(pk=submission.pk)
        return Response(self.get_serializer(submission).data)

    @extend_schema(request=SignedActionSerializer, responses={200: RulesSubmissionSerializer})
    @action(detail=True, methods=["post"])
    def file(self, request, pk=None):
        """File a draft without violations with the regulator (compliance manager, signed)."""
        submission = self.get_object()
        body = SignedActionSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        return self._answer(
            services.rules_submission_file(submission_id=submission.pk, signature=body.validated_data["signature"])
        )

    @extend_schema(request=DecisionSerializer, responses={200: RulesSubmissionSerializer})
    @action(detail=True, methods=["post"])
    def decision(self, request, pk=None):
        """Approve or reject a filed submission (a regulator of its jurisdiction, signed)."""
        submission = self.get_object()
        body = DecisionSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        data = body.validated_data
        return self._answer(
            services.rules_submission_decide(
                submission_id=submission.pk,
                decision=data["decision"],
                reference=data["reference"],
                note=data["note"],
                signature=data["signature"],
            )
        )


class LayoutFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = LayoutSubmission
        fields = ["property", "game", "status"]


class LayoutViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Layouts: submitted by compliance with what their tables offer, decided by the regulator (§ 617a.1(f))."""

    serializer_class = LayoutSubmissionSerializer
    filterset_class = LayoutFilter

    def get_permissions(self):
        if self.action == "decision":
            return [IsAuthenticated()]  # the rule (may_decide_layout) names who decides
        return [ReadOrConfigure()]

    def get_queryset(self):
        return layouts_visible_to(self.request.user).order_by("property_id", "-created_at")

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.layout_submit(
            prop=data["property"],
            game=data.get("game", "roulette"),
            name=data["name"],
            features=data["features"],
            tables=data["tables"],
            created_by=self.request.user,
        )

    @extend_schema(request=DecisionSerializer, responses={200: LayoutSubmissionSerializer})
    @action(detail=True, methods=["post"])
    def decision(self, request, pk=None):
        """Approve or reject a pending layout (a regulator of its jurisdiction, signed)."""
        layout = self.get_object()
        body = DecisionSerializer(data=request.data, context=self.get_serializer_context())
        body.is_valid(raise_exception=True)
        data = body.validated_data
        services.layout_decide(
            layout_id=layout.pk,
            decision=data["decision"],
            reference=data["reference"],
            note=data["note"],
            signature=data["signature"],
        )
        return Response(self.get_serializer(self.get_queryset().get(pk=layout.pk)).data)


@extend_schema(request=None, responses={204: None})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def token_revoke(request):
    """Revoke the caller's API token (sign out of the API); the next request with it gets 401. Signed in
    by the session instead, every API token of the caller is revoked."""
    if isinstance(request.auth, AuthToken):
        request.auth.delete()
    else:
        AuthToken.objects.filter(user=request.user).delete()
    return Response(status=204)


class LockedOut(APIException):
    status_code = 429
    default_code = "locked_out"

    def __init__(self, detail: str, *, wait: int):
        super().__init__(detail)
        self.wait = wait  # DRF's handler sends it as Retry-After


class TokenAnswerSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="Send it as `Authorization: Token <token>`. Shown once: only its hash is kept."
    )
    expiry = serializers.DateTimeField(help_text="After this the token answers 401: ask for a new one.")


class TokenObtain(ObtainAuthToken):
    """Exchange a username and password for an API token. Counted per address (throttle scope
    `token`); a name locked after too many wrong passwords answers 429, even with the right one.

    Each call makes a new token (one per device), kept only as a hash (django-rest-knox), which
    expires after API_TOKEN_HOURS and is revoked when the person's password changes."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "token"
    parser_classes = PARSERS  # ObtainAuthToken names DRF's own, without the API's body limits
    serializer_class = TokenRequestSerializer

    @extend_schema(request=TokenRequestSerializer, responses={200: TokenAnswerSerializer})
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except ValidationError:
            if is_locked_out(request):
                raise LockedOut(lockout_message(request.data.get("username", "")), wait=lockout_seconds()) from None
            raise
        instance, token = AuthToken.objects.create(user=serializer.validated_data["user"])
        return Response(TokenAnswerSerializer({"token": token, "expiry": instance.expiry}).data)
