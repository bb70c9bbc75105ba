"""The overdue scan's flags over the API: listed, and resolved by hand with a signed note."""

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from config.api.filters import IdFilter
from config.api.pagination import KeysetListMixin, KeysetPagination
from inspections.flags import overdue
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
    (docs/api.md, "Pagination"); a compliance manager resolves one by hand."""

    serializer_class = s.ComplianceExceptionSerializer
    permission_classes = [IsAuthenticated]
    filterset_class = FlagFilter
    pagination_class = FlagPagination

    def get_queryset(self):
        return flags_visible_to(self.request.user).order_by("-detected_at", "-id")

    @extend_schema(request=s.FlagResolveSerializer, responses={200: s.ComplianceExceptionSerializer})
    @action(detail=True, methods=["post"])
    def resolve(self, request, pk=None):
        """Resolve an open flag with a signed note (the property's compliance manager)."""
        flag = self.get_object()
        serializer = s.FlagResolveSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        flag = overdue.flag_resolve(flag_id=flag.pk, **serializer.validated_data)
        return Response(s.ComplianceExceptionSerializer(flag).data)
