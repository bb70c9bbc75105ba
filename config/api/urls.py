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
from inspections.logbook.api import views

router = DefaultRouter()
router.register("properties", PropertyViewSet, basename="property")
router.register("people", PersonViewSet, basename="person")
router.register("tables", views.GamingTableViewSet, basename="table")
router.register("wheels", WheelViewSet, basename="wheel")
router.register("balls", BallViewSet, basename="ball")
router.register("rules-submissions", RulesSubmissionViewSet, basename="rules-submission")
router.register("layouts", LayoutViewSet, basename="layout")
router.register("inspections", views.InspectionViewSet, basename="inspection")
router.register("adjustments", views.AdjustmentViewSet, basename="adjustment")
router.register("irregularities", views.IrregularityViewSet, basename="irregularity")
router.register("deck-changes", views.DeckChangeViewSet, basename="deck-change")
router.register("amendments", views.AmendmentViewSet, basename="amendment")
router.register("logbook", views.LogbookViewSet, basename="logbook")
router.register("exceptions", views.ComplianceExceptionViewSet, basename="exception")
router.register("reports", views.ReportViewSet, basename="report")

urlpatterns = [
    path("auth/token/", TokenObtain.as_view(), name="auth-token"),
    path("auth/token/revoke/", token_revoke, name="auth-token-revoke"),
    *router.urls,
]
