"""The casinos' resources: the API's one router (config.api.urls) serves them beside the other apps'."""

from rest_framework.routers import SimpleRouter

from compliance.casinos.api.views import BallViewSet, PropertyViewSet, WheelViewSet

router = SimpleRouter()
router.register("properties", PropertyViewSet, basename="property")
router.register("wheels", WheelViewSet, basename="wheel")
router.register("balls", BallViewSet, basename="ball")
# /api/tables/ is the logbook's: one viewset for the configuration (through this app's services) and the events.

urlpatterns: list = []  # nothing besides the router's
