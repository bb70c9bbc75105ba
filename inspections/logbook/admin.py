"""The logbook in the admin: everything visible, nothing editable or deletable (docs/architecture.md: People; Integrity and time)."""

from django.contrib import admin
from django.utils import timezone

from compliance.casinos.admin_zones import PropertyZoneAdmin
from config.admin import ReadOnlyAdmin, ReadOnlyInline
from inspections.logbook.models import Checkpoint, Entry, Signature
from inspections.logbook.selectors import checkpoint_key_list


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


@admin.register(Checkpoint)
class CheckpointAdmin(PropertyZoneAdmin, ReadOnlyAdmin):
    """The signed checkpoints, and above their list the public keys that sign them (with validity)."""

    list_display = ["seq", "property", "entry_seq", "signed_at", "reason", "key_id", "timestamped", "head"]
    list_filter = ["property", "reason", "key_id", "signed_at"]
    search_fields = ["head", "key_id", "signature"]
    date_hierarchy = "signed_at"
    list_select_related = ["property"]
    exclude = ["timestamp_token"]
    actions = None

    @admin.display(boolean=True, description="RFC 3161 timestamp")
    def timestamped(self, checkpoint: Checkpoint) -> bool:
        return bool(checkpoint.timestamp_token)

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "checkpoint_keys": checkpoint_key_list(now=timezone.now())}
        return super().changelist_view(request, extra_context=extra_context)
