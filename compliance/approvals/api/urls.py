"""The approvals' resources: the API's one router (config.api.urls) serves them beside the other apps'."""

from rest_framework.routers import SimpleRouter

from compliance.approvals.api.views import LayoutViewSet, RulesSubmissionViewSet

router = SimpleRouter()
router.register("rules-submissions", RulesSubmissionViewSet, basename="rules-submission")
router.register("layouts", LayoutViewSet, basename="layout")

urlpatterns: list = []  # nothing besides the router's
