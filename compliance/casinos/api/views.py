from django_filters import rest_framework as filters
from rest_framework import mixins, viewsets
from rest_framework.settings import api_settings

from compliance.casinos import services
from compliance.casinos.api.serializers import (
    BallSerializer,
    PropertySerializer,
    WheelSerializer,
)
from compliance.casinos.models import Ball, Wheel
from compliance.casinos.selectors import balls_visible_to, properties_visible_to, wheels_visible_to
from config.api.filters import IdFilter
from config.api.pagination import KeysetListMixin, keyset_pagination
from config.api.permissions import ReadOrAdministrator, ReadOrConfigure
from config.api.renderers import ORJSONRenderer
from config.api.viewsets import ListRetrieveCreatePatchViewSet


class PropertyViewSet(KeysetListMixin, ListRetrieveCreatePatchViewSet):
    serializer_class = PropertySerializer
    pagination_class = keyset_pagination("name", "id")
    permission_classes = [ReadOrAdministrator]
    renderer_classes = [ORJSONRenderer, *api_settings.DEFAULT_RENDERER_CLASSES[1:]]

    def get_queryset(self):
        # The chain head (chain_length, chain_head) is the logbook's row, joined in the same query.
        return properties_visible_to(self.request.user).select_related("chain").order_by("name", "id")

    def perform_create(self, serializer):
        serializer.instance = services.property_create(actor=self.request.user, **serializer.validated_data)

    def perform_update(self, serializer):
        # A compliance manager keeps their own property's policy (the service says who changes what).
        serializer.instance = services.property_update(
            property_id=serializer.instance.pk, actor=self.request.user, changes=serializer.validated_data
        )


class WheelFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = Wheel
        fields = ["property", "game", "wheel_type"]


class BallFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = Ball
        fields = ["property", "material"]


class WheelViewSet(
    KeysetListMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    """Registered wheels, checked at registration: a Roulette wheel's numbers and colours against
    § 617a.1(b)–(d), a Big Six wheel's sections against § 619a.1(a), (b) (proposed)."""

    serializer_class = WheelSerializer
    pagination_class = keyset_pagination("property_id", "serial")
    permission_classes = [ReadOrConfigure]
    filterset_class = WheelFilter

    def get_queryset(self):
        return wheels_visible_to(self.request.user).order_by("property_id", "serial")

    def perform_create(self, serializer):
        serializer.instance = services.wheel_register(actor=self.request.user, **serializer.validated_data)


class BallViewSet(
    KeysetListMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    """Registered balls, checked against § 617a.1(a) at registration."""

    serializer_class = BallSerializer
    pagination_class = keyset_pagination("property_id", "serial")
    permission_classes = [ReadOrConfigure]
    filterset_class = BallFilter

    def get_queryset(self):
        return balls_visible_to(self.request.user).order_by("property_id", "serial")

    def perform_create(self, serializer):
        serializer.instance = services.ball_register(actor=self.request.user, **serializer.validated_data)
