"""The reports' resources; config.api.urls adds them to the API's one router (and its root)."""

from rest_framework.routers import SimpleRouter

from inspections.reports.api import views

router = SimpleRouter()
router.register("reports", views.ReportViewSet, basename="report")

urlpatterns: list = []  # nothing besides the router's
