from django.contrib import admin

from compliance.approvals.models import ApprovalSignature, LayoutSubmission, RulesSubmission
from compliance.casinos.admin_zones import PropertyZoneAdmin
from config.admin import ReadOnlyInline


class ApprovalSignatureInline(ReadOnlyInline):
    model = ApprovalSignature
    fields = ["action", "reference", "signer_name", "credential_number", "signed_at", "content_hash"]


@admin.register(RulesSubmission)
class RulesSubmissionAdmin(PropertyZoneAdmin, admin.ModelAdmin):
    """Read-only: drafts, filing and decisions go through the API's checks and signatures."""

    list_display = ["property", "game", "version", "effective_from", "status", "decision_reference"]
    list_filter = ["property", "game", "status"]
    search_fields = ["property__name", "decision_reference", "content_hash"]
    inlines = [ApprovalSignatureInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LayoutSubmission)
class LayoutSubmissionAdmin(RulesSubmissionAdmin):
    list_display = ["name", "property", "game", "status", "decision_reference", "created_at"]
    list_filter = ["property", "game", "status"]
    search_fields = ["name", "property__name", "decision_reference", "content_hash"]
