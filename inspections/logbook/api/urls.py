"""The logbook's resources; config.api.urls adds them to the API's one router (and its root)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from inspections.logbook.api import views

router = SimpleRouter()
router.register("tables", views.GamingTableViewSet, basename="table")
router.register("inspections", views.InspectionViewSet, basename="inspection")
router.register("adjustments", views.AdjustmentViewSet, basename="adjustment")
router.register("irregularities", views.IrregularityViewSet, basename="irregularity")
router.register("deck-changes", views.DeckChangeViewSet, basename="deck-change")
router.register("amendments", views.AmendmentViewSet, basename="amendment")
router.register("logbook", views.LogbookViewSet, basename="logbook")

urlpatterns = [
    path("checkpoint-keys/", views.CheckpointKeysView.as_view(), name="checkpoint-keys"),
    path("entries/<int:entry_pk>/photos/<int:position>/", views.EntryPhotoView.as_view(), name="entry-photo"),
]
