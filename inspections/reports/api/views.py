"""Audit reports over the API: asked for, followed, downloaded."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action

from compliance.accounts.api.permissions import ReportRoles
from config.api.pagination import KeysetListMixin, keyset_pagination
from inspections.reports import requests as reports
from inspections.reports.api import serializers as s
from inspections.reports.selectors import reports_visible_to


class ReportViewSet(
    KeysetListMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    """Audit reports: asked for here, generated in the background (watch `status` and `progress`),
    downloaded when done; every download is logged. A request is refused with HTTP 429 (product
    policy, in the error format) while its person or property already has its limit of reports
    waiting or being generated, and with HTTP 400 when its period is longer than the limit."""

    serializer_class = s.ReportSerializer
    pagination_class = keyset_pagination("-requested_at", "-id")
    permission_classes = [ReportRoles]
    filterset_fields = ["property", "kind", "status", "format"]

    def get_queryset(self):
        return reports_visible_to(self.request.user).prefetch_related("tables")

    def perform_create(self, serializer):
        serializer.instance = reports.report_request(requested_by=self.request.user, **serializer.validated_data)

    @extend_schema(responses={(200, "application/octet-stream"): bytes})
    @action(detail=True, methods=["get"])
    def download(self, request, pk=None):
        """The file, once done (PDF or CSV); the download is logged with the file's SHA-256."""
        return reports.report_download(report=self.get_object(), user=request.user)
