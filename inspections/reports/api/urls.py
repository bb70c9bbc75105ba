"""The reports' resources; config.api.urls adds them to the API's one router (and its root)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from inspections.reports.api import views

router = SimpleRouter()
router.register("reports", views.ReportViewSet, basename="report")

# Beside /api/checkpoint-keys/: what a regulator's validator needs for the reports' signatures.
urlpatterns = [
    path("report-ca/", views.ReportCaView.as_view(), name="report-ca"),
    path("report-certificates/", views.ReportCertificatesView.as_view(), name="report-certificates"),
]
