"""The logbook in the admin: everything visible, nothing editable or deletable (docs/architecture.md: People; Integrity and time)."""

from django.contrib import admin

from compliance.casinos.admin_zones import PropertyZoneAdmin
from config.admin import ReadOnlyAdmin, ReadOnlyInline
from inspections.logbook.models import Entry, Signature


class SignatureInline(ReadOnlyInline):
    model = Signature
    fields = ["signer_name", "credential_number", "meaning", "signed_at", "content_hash"]


@admin.register(Entry)
class EntryAdmin(PropertyZoneAdmin, ReadOnlyAdmin):
    list_display = ["seq", "property", "table_number", "kind", "occurred_at", "description", "passed"]
    list_filter = ["property", "kind", "passed", "occurred_at"]
    search_fields = [
        "table_number",
        "description",
        "entry_hash",
        "signatures__signer_name",
        "signatures__credential_number",
    ]
    date_hierarchy = "occurred_at"
    list_select_related = ["property"]
    inlines = [SignatureInline]
    actions = None


@admin.register(Signature)
class SignatureAdmin(PropertyZoneAdmin, ReadOnlyAdmin):
    property_path = "entry__property"
    list_display = ["signer_name", "credential_number", "meaning", "signed_at", "entry"]
    list_filter = ["meaning", "signed_at"]
    search_fields = ["signer_name", "credential_number", "content_hash"]
    list_select_related = ["entry__property"]
    actions = None
