"""The overdue scan's flags over the API: listed with their history, and acknowledged with a signed note."""

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from config.api.filters import IdFilter
from config.api.pagination import KeysetListMixin, KeysetPagination
from inspections.flags import services
from inspections.flags.api import serializers as s
from inspections.flags.models import ComplianceException
from inspections.flags.selectors import flags_visible_to


class FlagFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")
    table = IdFilter(field_name="table_id")

    class Meta:
        model = ComplianceException
        fields = ["property", "table", "status", "kind"]


class FlagPagination(KeysetPagination):
    ordering = ("-detected_at", "-id")


class ComplianceExceptionViewSet(
    KeysetListMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """The overdue scan's flags (docs/architecture.md: The flag kinds), newest first, in keyset pages
    (docs/api.md, "Pagination"); a compliance manager acknowledges one with a signed note, and it
    stays open until the logbook entry that ends its condition cures it."""

    serializer_class = s.ComplianceExceptionSerializer
    permission_classes = [IsAuthenticated]
    filterset_class = FlagFilter
    pagination_class = FlagPagination

    def get_queryset(self):
        return flags_visible_to(self.request.user).order_by("-detected_at", "-id")

    @extend_schema(request=s.FlagAcknowledgeSerializer, responses={200: s.ComplianceExceptionSerializer})
    @action(detail=True, methods=["post"])
    def acknowledge(self, request, pk=None):
        """Acknowledge an open flag with a signed note (the property's compliance manager): the flag
        stays open, `acknowledged`, until the logbook entry that ends its condition cures it."""
        return self._acknowledge(request)

    @extend_schema(
        request=s.FlagAcknowledgeSerializer, responses={200: s.ComplianceExceptionSerializer}, deprecated=True
    )
    @action(detail=True, methods=["post"])
    def resolve(self, request, pk=None):
        """The former name of `acknowledge`, kept for existing clients: it acknowledges, and the flag stays open."""
        return self._acknowledge(request)

    def _acknowledge(self, request):
        flag = self.get_object()
        serializer = s.FlagAcknowledgeSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        services.flag_acknowledge(flag_id=flag.pk, **serializer.validated_data)
        return Response(s.ComplianceExceptionSerializer(self.get_queryset().get(pk=flag.pk)).data)
