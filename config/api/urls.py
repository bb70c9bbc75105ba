from django.urls import path
from rest_framework.routers import DefaultRouter

from compliance.casinos.api.views import (
    BallViewSet,
    LayoutViewSet,
    PersonViewSet,
    PropertyViewSet,
    RulesSubmissionViewSet,
    TokenObtain,
    WheelViewSet,
    token_revoke,
)
from inspections.flags.api import urls as flags_api
from inspections.logbook.api import urls as logbook_api
from inspections.reports.api import urls as reports_api

router = DefaultRouter()
router.register("properties", PropertyViewSet, basename="property")
router.register("people", PersonViewSet, basename="person")
router.register("wheels", WheelViewSet, basename="wheel")
router.register("balls", BallViewSet, basename="ball")
router.register("rules-submissions", RulesSubmissionViewSet, basename="rules-submission")
router.register("layouts", LayoutViewSet, basename="layout")
# Each app of the inspections registers its own resources in its api/urls.py; one router serves
# them all, so the API's root lists every resource and the URLs stay flat (/api/tables/, …).
for app_api in (logbook_api, flags_api, reports_api):
    router.registry.extend(app_api.router.registry)

urlpatterns = [
    path("auth/token/", TokenObtain.as_view(), name="auth-token"),
    path("auth/token/revoke/", token_revoke, name="auth-token-revoke"),
    *router.urls,
]
