"""The admin shows a record's times in its property's time zone, named (docs/architecture.md: Integrity and time: stored in UTC,
shown in the property's zone). Without it the admin printed UTC: an inspection at 22:30 in New York
read as 03:30 the next day."""

from zoneinfo import ZoneInfo

from django.contrib.admin.utils import unquote
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import timezone

from compliance.casinos.clock import local_text, zone_abbreviation
from compliance.casinos.models import Property


class PropertyZoneAdmin:
    """Mixin for a ModelAdmin whose records belong to a property (reached by `property_path`):
    list columns of date-times as "2026-11-23 22:30 EST" in each row's property's zone; a record's
    page, its inlines and its form in that zone, said in its subtitle; the list's date drill-down
    and date filters in the property's zone when it is filtered to one property (or there is one
    zone for all)."""

    property_path = "property"

    def zone_of(self, obj):
        prop = obj
        for name in self.property_path.split("__") if self.property_path else ():
            prop = getattr(prop, name, None) if prop is not None else None
        return prop.zone if isinstance(prop, Property) else timezone.get_default_timezone()

    def get_list_display(self, request):
        return [
            self._local_column(name) if self._is_datetime(name) else name for name in super().get_list_display(request)
        ]

    def _is_datetime(self, name) -> bool:
        try:
            return isinstance(name, str) and isinstance(self.model._meta.get_field(name), models.DateTimeField)
        except FieldDoesNotExist:
            return False

    def _local_column(self, name: str):
        def column(obj):
            return local_text(getattr(obj, name), self.zone_of(obj)) or "-"

        column.__name__ = name
        column.short_description = self.model._meta.get_field(name).verbose_name
        column.admin_order_field = name
        return column

    def _rendered_in(self, zone, view):
        # A TemplateResponse renders after the view returns: render it while the zone is active.
        with timezone.override(zone):
            response = view()
            if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                response.render()
        return response

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            return super().change_view(request, object_id, form_url, extra_context)
        zone = self.zone_of(obj)
        said = {"subtitle": f"{obj} · times in {zone.key} ({zone_abbreviation(zone)})"}
        return self._rendered_in(
            zone,
            lambda: super(PropertyZoneAdmin, self).change_view(
                request, object_id, form_url, {**said, **(extra_context or {})}
            ),
        )

    def changelist_view(self, request, extra_context=None):
        return self._rendered_in(
            self._list_zone(request), lambda: super(PropertyZoneAdmin, self).changelist_view(request, extra_context)
        )

    def _list_zone(self, request):
        chosen = request.GET.get(f"{self.property_path}__id__exact", "") if self.property_path else ""
        properties = Property.objects.filter(pk=chosen) if chosen.isdigit() else Property.objects.all()
        names = list(properties.order_by().values_list("time_zone", flat=True).distinct()[:2])
        return ZoneInfo(names[0]) if len(names) == 1 else timezone.get_default_timezone()
