"""The flags' resources; config.api.urls adds them to the API's one router (and its root)."""

from rest_framework.routers import SimpleRouter

from inspections.flags.api import views

router = SimpleRouter()
router.register("exceptions", views.ComplianceExceptionViewSet, basename="exception")

urlpatterns: list = []  # nothing besides the router's
