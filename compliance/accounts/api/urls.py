"""The people's resources and the API's sign-in: the router's are served by the API's one router
(config.api.urls) beside the other apps'; the token's paths here."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from compliance.accounts.api.views import PersonViewSet, TokenObtain, token_revoke

router = SimpleRouter()
router.register("people", PersonViewSet, basename="person")

urlpatterns = [
    path("auth/token/", TokenObtain.as_view(), name="auth-token"),
    path("auth/token/revoke/", token_revoke, name="auth-token-revoke"),
]
