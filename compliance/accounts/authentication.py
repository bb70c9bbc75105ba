"""The API's token authentication: django-rest-knox's, without a look at every other token of the
person on each request."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth

from compliance.accounts import services


class TokenAuthentication(auth.TokenAuthentication):
    """knox's TokenAuthentication without its query a request for deleting expired tokens."""

    def _cleanup_token(self, auth_token) -> bool:
        # knox reads all of the person's tokens on every request to delete those that expired. Here an
        # expired token is refused (and deleted) when it is presented, and the person's others when
        # they next sign in (services.token_create).
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            services.token_expired_delete(token=auth_token)
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI schema's name for it: knox's, as before."""

    target_class = "compliance.accounts.authentication.TokenAuthentication"
