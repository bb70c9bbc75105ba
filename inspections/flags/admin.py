"""The flags in the admin: visible, never edited or deleted here."""

from django.contrib import admin

from compliance.casinos.admin_zones import PropertyZoneAdmin
from config.admin import ReadOnlyAdmin
from inspections.flags.models import ComplianceException


@admin.register(ComplianceException)
class ComplianceExceptionAdmin(PropertyZoneAdmin, ReadOnlyAdmin):
    """The overdue scan's flags: raised and resolved by the scan, or resolved by hand (signed) in the
    API or the compliance manager's pages, never edited here."""

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
