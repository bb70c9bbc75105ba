from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from compliance.approvals import services
from compliance.approvals.api.serializers import (
    DecisionSerializer,
    LayoutSubmissionSerializer,
    RulesSubmissionSerializer,
    SignedActionSerializer,
)
from compliance.approvals.artwork import artwork_response
from compliance.approvals.models import LayoutSubmission, RulesSubmission
from compliance.approvals.selectors import layouts_visible_to, rules_submissions_visible_to
from compliance.casinos.selectors import properties_managed_by
from config.api.filters import IdFilter
from config.api.pagination import KeysetListMixin, keyset_pagination
from config.api.parsers import ArtworkMultiPartParser, FormParser, JSONParser
from config.api.permissions import ReadOrConfigure
from config.api.viewsets import ListRetrieveCreatePatchViewSet


class RulesSubmissionFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = RulesSubmission
        fields = ["property", "game", "status"]


class RulesSubmissionViewSet(KeysetListMixin, ListRetrieveCreatePatchViewSet):
    """Rules Submissions: drafts checked as they are saved, filed by compliance, decided by the regulator."""

    serializer_class = RulesSubmissionSerializer
    pagination_class = keyset_pagination("property_id", "game", "-version")
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
            configurations=data.get("configurations", []),
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


class LayoutViewSet(
    KeysetListMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    """Layouts: submitted by compliance with what their tables offer, decided by the regulator (§ 617a.1(f))."""

    serializer_class = LayoutSubmissionSerializer
    pagination_class = keyset_pagination("property_id", "-created_at", "-id")
    filterset_class = LayoutFilter
    # A layout's submission carries its artwork: multipart, within the artwork's own bound.
    parser_classes = [JSONParser, FormParser, ArtworkMultiPartParser]

    def get_permissions(self):
        if self.action == "decision":
            return [IsAuthenticated()]  # the rule (may_decide_layout) names who decides
        return [ReadOrConfigure()]

    def get_queryset(self):
        return layouts_visible_to(self.request.user).order_by("property_id", "-created_at", "-id")

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.layout_submit(
            prop=data["property"],
            game=data.get("game", "roulette"),
            name=data["name"],
            features=data["features"],
            tables=data["tables"],
            artwork=data.get("artwork"),
            created_by=self.request.user,
        )

    @extend_schema(responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
    @action(detail=True, methods=["get"])
    def artwork(self, request, pk=None):
        """The layout's artwork (PDF, PNG or JPEG), to whoever may see the layout."""
        return artwork_response(self.get_object())

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
