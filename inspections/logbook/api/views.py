"""Thin views: parse, call the one service, shape the answer."""

from typing import cast

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from compliance.accounts.api.permissions import ReadOrLogbookWriter
from compliance.accounts.models import User
from compliance.casinos import services as casinos
from compliance.casinos.api.serializers import GamingTableSerializer
from compliance.casinos.models import GamingTable, TableState
from compliance.casinos.selectors import tables_visible_to
from config.api.filters import IdFilter, UtcDateTimeFilter
from config.api.pagination import KeysetListMixin, KeysetPagination
from config.api.parsers import EntryWithPhotosParser, FormParser, JSONParser
from config.api.permissions import ReadOrConfigure
from config.api.renderers import ORJSONRenderer
from inspections.logbook import services
from inspections.logbook.api import serializers as s
from inspections.logbook.models import ADJUSTMENT_KINDS, Entry, EntryKind, EntryPhoto
from inspections.logbook.photos import photo_response
from inspections.logbook.selectors import checkpoint_key_list, entries_visible_to, logbook_rows


class EntryFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")
    table = IdFilter(field_name="table_id")

    class Meta:
        model = Entry
        fields = ["property", "table"]


# `from` and `to` are Python keywords, so they are added by name.
EntryFilter.base_filters["from"] = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="gte")
EntryFilter.base_filters["to"] = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="lte")


class RegisterPagination(KeysetPagination):
    ordering = ("occurred_at", "seq", "id")


class LogbookViewSet(KeysetListMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The § 617a.2(e) inspection log register: one row per entry, in time order, in keyset pages
    (docs/api.md, "Pagination"), written by its serializer."""

    serializer_class = s.LogbookRowSerializer
    filterset_class = EntryFilter
    permission_classes = [IsAuthenticated]
    pagination_class = RegisterPagination
    # DRF's settings hold the renderer classes (imported from their dotted names when read).
    renderer_classes = [ORJSONRenderer, *cast("list[type[BaseRenderer]]", api_settings.DEFAULT_RENDERER_CLASSES[1:])]

    def get_queryset(self):
        return logbook_rows(viewer=self.request.user)


class EntryViewSet(
    KeysetListMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """A kind of entry: listed from the logbook in time order (keyset pages, as the register), created by
    its service."""

    kinds: tuple[str, ...] = ()
    filterset_class = EntryFilter
    permission_classes = [ReadOrLogbookWriter]
    pagination_class = RegisterPagination

    def get_queryset(self):
        return logbook_rows(viewer=self.request.user, kinds=self.kinds)

    def record(self, data: dict, user) -> Entry:
        raise NotImplementedError

    def perform_create(self, serializer):
        serializer.instance = self.record(serializer.validated_data, self.request.user)


# The entries that take photos: JSON, or multipart with the JSON in the part `data` and the photos
# in parts `photos` (docs/api.md, "Photos").
WITH_PHOTOS = [JSONParser, FormParser, EntryWithPhotosParser]


class InspectionViewSet(EntryViewSet):
    serializer_class = s.InspectionSerializer
    kinds = (EntryKind.INSPECTION,)
    parser_classes = WITH_PHOTOS

    def record(self, data, user):
        return services.inspection_record(
            table_id=data["table"].pk,
            items=data["details"]["items"],
            notes=data["details"].get("notes", ""),
            performed_at=data.get("occurred_at"),
            signature=data["signature"],
            recorded_by=user,
            photos=data.get("photos", []),
            photo_item=data.get("photo_item", ""),
        )


class AdjustmentViewSet(EntryViewSet):
    serializer_class = s.AdjustmentSerializer
    kinds = ADJUSTMENT_KINDS
    parser_classes = WITH_PHOTOS

    def record(self, data, user):
        return services.adjustment_record(
            table_id=data["table"].pk,
            kind=data["kind"],
            part=data["details"]["part"],
            description=data["description"],
            performed_at=data.get("occurred_at"),
            performer=data["performer"],
            witness=data.get("witness"),
            recorded_by=user,
            new_ball=data["details"].get("new_ball"),
            photos=data.get("photos", []),
        )


class IrregularityViewSet(EntryViewSet):
    serializer_class = s.IrregularitySerializer
    kinds = (EntryKind.IRREGULARITY,)
    parser_classes = WITH_PHOTOS

    def record(self, data, user):
        return services.irregularity_record(
            table_id=data["table"].pk,
            kind=data["details"]["irregularity"],
            ball_replaced=data["details"].get("ball_replaced", False),
            new_ball=data["details"].get("new_ball"),
            notes=data["details"].get("notes", ""),
            at=data.get("occurred_at"),
            signature=data["signature"],
            recorded_by=user,
            photos=data.get("photos", []),
        )


class DeckChangeViewSet(EntryViewSet):
    serializer_class = s.DeckChangeSerializer
    kinds = (EntryKind.DECK_CHANGE,)

    def record(self, data, user):
        return services.deck_change_record(
            table_id=data["table"].pk,
            decks=data["details"]["decks"],
            cards_per_deck=data["details"].get("cards_per_deck"),
            cover_cards_per_deck=data["details"].get("cover_cards_per_deck"),
            back_colours=data["details"].get("back_colours"),
            at=data.get("occurred_at"),
            signature=data["signature"],
            recorded_by=user,
        )


class AmendmentViewSet(EntryViewSet):
    serializer_class = s.AmendmentSerializer
    kinds = (EntryKind.AMENDMENT,)
    parser_classes = WITH_PHOTOS

    def record(self, data, user):
        return services.amendment_record(
            entry_id=data["amends"].pk,
            reason=data["details"]["reason"],
            correction=data["details"].get("correction") or {},
            amendment_kind=data["details"].get("amendment_kind", "correction"),
            duplicate_of=data["details"].get("duplicate_of"),
            signature=data["signature"],
            recorded_by=user,
            photos=data.get("photos", []),
        )


class TableEventResponseSerializer(s.serializers.Serializer):
    entry = s.EntrySerializer()
    table = GamingTableSerializer()


class GamingTableFilter(filters.FilterSet):
    property = IdFilter(field_name="property_id")
    state = filters.ChoiceFilter(field_name="status__state", choices=TableState.choices)

    class Meta:
        model = GamingTable
        fields = ["property", "game", "wheel_type", "state", "number"]


class TablePagination(KeysetPagination):
    # Each property's tables by number (the index of the unique number per property), properties by id.
    ordering = ("property_id", "number")


class GamingTableViewSet(
    KeysetListMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Tables, with the logbook events that move their state."""

    # One viewset for /api/tables/: the configuration is written by compliance.casinos' services (it
    # changes only while the table is closed, and the table is then inspected again before it opens;
    # a table with logbook entries stays at its property), the events by the logbook's.

    serializer_class = GamingTableSerializer
    filterset_class = GamingTableFilter
    pagination_class = TablePagination
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self):
        if self.action in EntryKind.values:
            return [ReadOrLogbookWriter()]
        return [ReadOrConfigure()]

    def get_queryset(self):
        return tables_visible_to(self.request.user).order_by("property_id", "number")

    def _actor(self) -> User:
        """Who writes: ReadOrConfigure lets only a signed-in person write."""
        return cast(User, self.request.user)

    def perform_create(self, serializer):
        serializer.instance = casinos.table_create(actor=self._actor(), **serializer.validated_data)

    def perform_update(self, serializer):
        # The service reads the row again under its lock and writes only what changes.
        serializer.instance = casinos.table_update(
            table_id=serializer.instance.pk, actor=self._actor(), changes=serializer.validated_data
        )

    def _event(self, request, kind: str) -> Response:
        table = self.get_object()
        serializer = s.TableEventSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        entry = services.table_event_record(
            table_id=table.pk,
            kind=kind,
            at=serializer.validated_data.get("at"),
            signature=serializer.validated_data["signature"],
            recorded_by=request.user,
            cards=serializer.validated_data.get("cards"),
        )
        table.refresh_from_db()
        body = {
            "entry": s.EntrySerializer(entry, context=self.get_serializer_context()).data,
            "table": GamingTableSerializer(table, context=self.get_serializer_context()).data,
        }
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.TableEventSerializer, responses={201: TableEventResponseSerializer})
    @action(detail=True, methods=["post"])
    def unlock(self, request, pk=None):
        """Unlock and remove the wheel cover."""
        return self._event(request, EntryKind.UNLOCK)

    @extend_schema(request=s.TableEventSerializer, responses={201: TableEventResponseSerializer})
    @action(detail=True, methods=["post"])
    def open(self, request, pk=None):
        """Open for play: refused unless a passing inspection followed the last closing, adjustment and replacement (§ 617a.2(a), (c), (d))."""
        return self._event(request, EntryKind.OPEN)

    @extend_schema(request=s.TableEventSerializer, responses={201: TableEventResponseSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        """Close the table (the wheel must then be covered and locked, § 617a.2(f))."""
        return self._event(request, EntryKind.CLOSE)

    @extend_schema(request=s.TableEventSerializer, responses={201: TableEventResponseSerializer})
    @action(detail=True, methods=["post"])
    def cover(self, request, pk=None):
        """Cover the entire wheel and securely lock the cover (§ 617a.2(f))."""
        return self._event(request, EntryKind.COVER)


class CheckpointKeysView(APIView):
    """The public keys that sign the logbook's checkpoints, every one ever used, with when each was valid."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=s.CheckpointKeySerializer(many=True))
    def get(self, request):
        return Response(s.CheckpointKeySerializer(checkpoint_key_list(now=timezone.now()), many=True).data)


class EntryPhotoView(APIView):
    """An entry's photo (its copy without metadata, JPEG), to whoever may see the entry (404 otherwise)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={(200, "image/jpeg"): OpenApiTypes.BINARY})
    def get(self, request, entry_pk: int, position: int):
        entry = get_object_or_404(entries_visible_to(request.user), pk=entry_pk)
        return photo_response(get_object_or_404(EntryPhoto, entry=entry, position=position))
