from django_filters import rest_framework as filters
from rest_framework import mixins, viewsets
from rest_framework.exceptions import PermissionDenied

from compliance.api.filters import IdFilter
from compliance.api.permissions import ReadOrAdministrator, ReadOrConfigure
from compliance.api.serializers import (
    BallSerializer,
    GamingTableSerializer,
    PersonSerializer,
    PropertySerializer,
    WheelSerializer,
)
from compliance.models import Ball, GamingTable, User, Wheel
from compliance.selectors import (
    balls_visible_to,
    is_administrator,
    people_visible_to,
    properties_managed_by,
    properties_visible_to,
    tables_visible_to,
    wheels_visible_to,
)


class ListRetrieveCreatePatchViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    http_method_names = ["get", "post", "patch", "head", "options"]


class PropertyViewSet(ListRetrieveCreatePatchViewSet):
    serializer_class = PropertySerializer
    permission_classes = [ReadOrAdministrator]

    def get_queryset(self):
        return properties_visible_to(self.request.user).order_by("name")

    def perform_update(self, serializer):
        # A compliance manager keeps their own property's policy; the rest is the administrator's.
        if not properties_managed_by(self.request.user).filter(pk=serializer.instance.pk).exists():
            raise PermissionDenied("Only an administrator or this property's compliance manager changes it.")
        if not is_administrator(self.request.user):
            allowed = {"time_zone", "cover_grace_minutes", "max_inspection_interval_hours"}
            if set(serializer.validated_data) - allowed:
                raise PermissionDenied("A compliance manager changes the time zone and the overdue policy only.")
        serializer.save()


class PersonFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = User
        fields = ["role", "property", "jurisdiction"]


class PersonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    serializer_class = PersonSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = PersonFilter

    def get_queryset(self):
        return people_visible_to(self.request.user).order_by("username")


class GamingTableFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = GamingTable
        fields = ["property", "game", "wheel_type", "state", "number"]


class GamingTableViewSet(ListRetrieveCreatePatchViewSet):
    """Tables; the logbook app adds the open/close/cover/unlock actions."""

    serializer_class = GamingTableSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = GamingTableFilter

    def get_queryset(self):
        return tables_visible_to(self.request.user).order_by("property__name", "number")

    def perform_update(self, serializer):
        if not properties_managed_by(self.request.user).filter(pk=serializer.instance.property_id).exists():
            raise PermissionDenied("Only an administrator or this property's compliance manager changes its tables.")
        serializer.save()


class WheelFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = Wheel
        fields = ["property", "wheel_type"]


class BallFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")

    class Meta:
        model = Ball
        fields = ["property", "material"]


class WheelViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Registered wheels; the number order is checked against § 617a.1(c), (d) at registration."""

    serializer_class = WheelSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = WheelFilter

    def get_queryset(self):
        return wheels_visible_to(self.request.user).order_by("property_id", "serial")


class BallViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Registered balls, checked against § 617a.1(a) at registration."""

    serializer_class = BallSerializer
    permission_classes = [ReadOrConfigure]
    filterset_class = BallFilter

    def get_queryset(self):
        return balls_visible_to(self.request.user).order_by("property_id", "serial")
