"""The project's URLs, plus the baseline at /bench/baseline/."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from bench.api import BaselineRowViewSet
from config.urls import urlpatterns as project_urlpatterns

router = SimpleRouter()
router.register("baseline", BaselineRowViewSet, basename="baseline")

urlpatterns = [path("bench/", include(router.urls)), *project_urlpatterns]
