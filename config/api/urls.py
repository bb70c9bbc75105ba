"""The API's addresses, composed from each app's api/urls.py: one router, so GET /api/ lists every
app's resources, and each app's own paths besides."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from compliance.accounts.api import urls as accounts
from compliance.approvals.api import urls as approvals
from compliance.casinos.api import urls as casinos
from inspections.logbook.api import views

APPS = (casinos, accounts, approvals)

router = DefaultRouter()
for app in APPS:
    router.registry.extend(app.router.registry)
# The logbook's, until it has its own api/urls.py.
router.register("tables", views.GamingTableViewSet, basename="table")
router.register("inspections", views.InspectionViewSet, basename="inspection")
router.register("adjustments", views.AdjustmentViewSet, basename="adjustment")
router.register("irregularities", views.IrregularityViewSet, basename="irregularity")
router.register("deck-changes", views.DeckChangeViewSet, basename="deck-change")
router.register("amendments", views.AmendmentViewSet, basename="amendment")
router.register("logbook", views.LogbookViewSet, basename="logbook")
router.register("exceptions", views.ComplianceExceptionViewSet, basename="exception")
router.register("reports", views.ReportViewSet, basename="report")

urlpatterns = [
    *(path("", include(app)) for app in APPS),
    *router.urls,
]
