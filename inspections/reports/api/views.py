"""Audit reports over the API: asked for, followed, downloaded."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance.accounts.api.permissions import ReportRoles
from config.api.pagination import KeysetListMixin, keyset_pagination
from config.api.renderers import ORJSONRenderer
from inspections.reports import services as reports
from inspections.reports.api import serializers as s
from inspections.reports.selectors import report_ca_list, report_certificate_list, reports_visible_to


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


class PemRenderer(BaseRenderer):
    """`?format=pem`: the certificates themselves, one PEM after another, as a validator takes them."""

    media_type = "application/x-pem-file"
    format = "pem"
    charset = "ascii"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        if isinstance(data, list):
            return "".join(row["pem"] for row in data).encode("ascii")
        return b""  # an error has no PEM; its status says what happened


class ReportCaView(APIView):
    """The compliance certificate authority's certificate (or the configured enterprise CA's chain):
    the one trust root a validator needs for the reports' signatures (`?format=pem` for the file).
    Public: a certificate is no secret, and a Board's IT department may have no account."""

    permission_classes = [AllowAny]
    renderer_classes = [ORJSONRenderer, PemRenderer]

    @extend_schema(responses=s.CertificateSerializer(many=True))
    def get(self, request):
        return Response(s.CertificateSerializer(report_ca_list(), many=True).data)


class ReportCertificatesView(APIView):
    """Every certificate that has signed reports, the retired ones included, each with its validity;
    `signing` marks the one signing now (`?format=pem` for the files)."""

    permission_classes = [AllowAny]
    renderer_classes = [ORJSONRenderer, PemRenderer]

    @extend_schema(responses=s.ReportCertificateSerializer(many=True))
    def get(self, request):
        return Response(s.ReportCertificateSerializer(report_certificate_list(), many=True).data)
