"""The flags in the admin: visible, never edited or deleted here."""

from django.contrib import admin

from compliance.casinos.admin_zones import PropertyZoneAdmin
from config.admin import ReadOnlyAdmin, ReadOnlyInline
from inspections.flags.models import ComplianceException, FlagEvent


class FlagEventInline(ReadOnlyInline):
    """The flag's history: its deadline moved or lifted by a change that is no entry, and each acknowledgement."""

    model = FlagEvent
    fields = ["at", "kind", "cause", "due_before", "due_after", "actor_name", "actor_credential", "note"]


@admin.register(ComplianceException)
class ComplianceExceptionAdmin(PropertyZoneAdmin, ReadOnlyAdmin):
    """The overdue scan's flags: raised by the scan or an entry, cured only by an entry, acknowledged
    (signed) in the API or the compliance manager's pages, never edited here."""

    inlines = [FlagEventInline]

    list_display = [
        "id",
        "property",
        "table",
        "kind",
        "citation",
        "due_at",
        "detected_at",
        "status",
        "resolved_at",
        "resolution",
    ]
    list_filter = ["status", "resolution", "kind", "property"]
    search_fields = ["table__number", "citation", "resolution_note"]
    date_hierarchy = "detected_at"
    list_select_related = ["property", "table"]
