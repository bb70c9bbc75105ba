"""The logbook in the admin: everything visible, nothing editable or deletable (docs/architecture.md: People; Integrity and time)."""

from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from compliance.casinos.admin_zones import PropertyZoneAdmin
from compliance.casinos.models import Ball
from config.admin import ReadOnlyAdmin, ReadOnlyInline
from inspections.logbook.models import Checkpoint, Entry, EntryPhoto, Signature
from inspections.logbook.selectors import checkpoint_key_list


class SignatureInline(ReadOnlyInline):
    model = Signature
    fields = ["signer_name", "credential_number", "meaning", "signed_at", "content_hash"]


class PhotoInline(ReadOnlyInline):
    """An entry's photos by their originals' hashes (the files are not shown here: the table's page
    serves them to who may see the entry)."""

    model = EntryPhoto
    fields = ["position", "sha256", "kind", "size", "width", "height", "item"]


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
    inlines = [SignatureInline, PhotoInline]
    actions = None
    # The kind's own fields in words (a ball by its serial), never the raw JSON with ids.
    exclude = ["details"]
    readonly_fields = ["what_it_records"]

    @admin.display(description="What the entry records")
    def what_it_records(self, entry: Entry) -> str:
        lines = details_in_words(entry.details or {}, property_id=entry.property_id)
        return format_html_join(mark_safe("<br>"), "{}: {}", lines) or "-"


# The names of an entry's details in words; the balls' serials are said with their ids (details_in_words).
DETAIL_LABELS = {
    "part": "Part",
    "old_ball": "Ball taken off",
    "new_ball": "Ball put on",
    "items": "Checklist items (true: passed)",
    "notes": "Notes",
    "irregularity": "Reason",
    "ball_replaced": "Ball replaced",
    "decks": "Decks",
    "cards_per_deck": "Cards in each deck",
    "cover_cards_per_deck": "Cover cards in each deck",
    "back_colours": "Colours of the backs",
    "cards": "Cards",
    "reason": "Reason",
    "amendment_kind": "Amendment",
    "duplicate_of": "Duplicate of entry",
    "correction": "Correction",
    "photos": "Photos (SHA-256 of each original)",
}
BALL_SERIALS = {"old_ball": "ball_off", "new_ball": "ball_on"}


def details_in_words(details: dict, *, property_id: int) -> list[tuple[str, str]]:
    """Each of an entry's details as (label, value) in words: a ball by its serial (the one the entry
    signed, else the registered ball's), yes/no for a boolean, an object's pairs in a line."""
    ids = [details[name] for name in BALL_SERIALS if isinstance(details.get(name), int)]
    serials = dict(Ball.objects.filter(pk__in=ids, property_id=property_id).values_list("pk", "serial")) if ids else {}
    lines = []
    for name, value in details.items():
        if name in BALL_SERIALS.values():
            continue  # said with its ball
        if name in BALL_SERIALS:
            serial = details.get(BALL_SERIALS[name]) or serials.get(value)
            value = serial or "none"
        elif isinstance(value, bool):
            value = "yes" if value else "no"
        elif name == "photos" and isinstance(value, list):
            value = "; ".join(str(photo.get("sha256", "")) for photo in value if isinstance(photo, dict))
        elif isinstance(value, dict):
            value = "; ".join(f"{key}: {item}" for key, item in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(item) for item in value)
        elif value is None or value == "":
            value = "-"
        lines.append((DETAIL_LABELS.get(name, name.replace("_", " ").capitalize()), str(value)))
    return lines


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
