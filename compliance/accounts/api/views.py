from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import mixins, serializers, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from compliance.accounts import services
from compliance.accounts.api.serializers import PersonSerializer, TokenRequestSerializer
from compliance.accounts.auth import is_locked_out, lockout_message, lockout_seconds
from compliance.accounts.models import User
from compliance.accounts.selectors import people_visible_to
from compliance.accounts.throttles import ScopedRateThrottle
from config.api.filters import IdFilter
from config.api.pagination import KeysetListMixin, keyset_pagination
from config.api.parsers import PARSERS
from config.api.permissions import ReadOrManagePeople


class PersonFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = User
        fields = ["role", "property", "jurisdiction"]


class PersonViewSet(
    KeysetListMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    serializer_class = PersonSerializer
    pagination_class = keyset_pagination("username")
    permission_classes = [ReadOrManagePeople]
    filterset_class = PersonFilter

    def get_queryset(self):
        return people_visible_to(self.request.user).order_by("username")

    def perform_create(self, serializer):
        serializer.instance = services.person_create(actor=self.request.user, **serializer.validated_data)


@extend_schema(request=None, responses={204: None})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def token_revoke(request):
    """Revoke the caller's API token (sign out of the API); the next request with it gets 401. Signed in
    by the session instead, every API token of the caller is revoked."""
    token_key = request.auth.token_key if isinstance(request.auth, AuthToken) else None
    services.tokens_revoke(person_id=request.user.pk, token_key=token_key)
    return Response(status=204)


class LockedOut(APIException):
    status_code = 429
    default_code = "locked_out"

    def __init__(self, detail: str, *, wait: int):
        super().__init__(detail)
        self.wait = wait  # DRF's handler sends it as Retry-After


class TokenAnswerSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="Send it as `Authorization: Token <token>`. Shown once: only its hash is kept."
    )
    expiry = serializers.DateTimeField(help_text="After this the token answers 401: ask for a new one.")


class TokenObtain(ObtainAuthToken):
    """Exchange a username and password for an API token. Counted per address (throttle scope
    `token`); a name locked after too many wrong passwords answers 429, even with the right one.

    Each call makes a new token (one per device), kept only as a hash (django-rest-knox), which
    expires after API_TOKEN_HOURS and is revoked when the person's password changes."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "token"
    # Its answer is a credential: the Idempotency-Key middleware never keeps it (nor replays it).
    answers_credential = True
    parser_classes = PARSERS  # ObtainAuthToken names DRF's own, without the API's body limits
    serializer_class = TokenRequestSerializer

    @extend_schema(request=TokenRequestSerializer, responses={200: TokenAnswerSerializer})
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except ValidationError:
            if is_locked_out(request):
                raise LockedOut(lockout_message(request.data.get("username", "")), wait=lockout_seconds()) from None
            raise
        instance, token = services.token_create(person=serializer.validated_data["user"])
        return Response(TokenAnswerSerializer({"token": token, "expiry": instance.expiry}).data)
