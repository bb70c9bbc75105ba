from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from compliance.admin_zones import PropertyZoneAdmin
from compliance.models import (
    ApprovalSignature,
    Ball,
    GamingTable,
    LayoutSubmission,
    Property,
    RulesSubmission,
    User,
    Wheel,
)
from compliance.rulebook import rulebook_for


@admin.register(Property)
class PropertyAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "licence_number",
        "jurisdiction",
        "time_zone",
        "cover_grace_minutes",
        "max_inspection_interval_hours",
        "chain_length",
    ]
    list_filter = ["jurisdiction"]
    search_fields = ["name", "licence_number"]
    readonly_fields = ["chain_length", "chain_head"]


@admin.register(User)
class PersonAdmin(PropertyZoneAdmin, UserAdmin):
    list_display = ["username", "full_name", "role", "credential_number", "property", "jurisdiction", "is_active"]
    list_filter = ["role", "property", "jurisdiction", "is_active"]
    search_fields = ["username", "full_name", "credential_number", "email"]
    fieldsets = [
        *UserAdmin.fieldsets,
        ("Role and credential", {"fields": ["full_name", "role", "credential_number", "property", "jurisdiction"]}),
    ]
    add_fieldsets = [
        *UserAdmin.add_fieldsets,
        ("Role and credential", {"fields": ["full_name", "role", "credential_number", "property", "jurisdiction"]}),
    ]


@admin.register(GamingTable)
class GamingTableAdmin(PropertyZoneAdmin, admin.ModelAdmin):
    list_display = [
        "number",
        "property",
        "game",
        "wheel_type",
        "has_external_movable_parts",
        "electronic",
        "state",
        "next_due",
    ]
    list_filter = ["property", "game", "wheel_type", "state", "has_external_movable_parts", "electronic"]
    search_fields = ["number", "property__name"]
    # The state follows the logbook; only inspections.services moves it.
    readonly_fields = [
        "state",
        "inspection_void_reason",
        "last_entry_at",
        "last_inspection_at",
        "last_adjustment_at",
        "last_replacement_at",
        "last_opened_at",
        "last_closed_at",
        "next_due",
    ]


class EquipmentForm(forms.ModelForm):
    """The admin registers equipment under the same rule as the API (§ 617a.1(a)–(d))."""

    def clean(self):
        data = super().clean()
        if self.errors or not data.get("property"):
            return data
        rules = rulebook_for(data["property"].jurisdiction)
        if self._meta.model is Wheel:
            found = rules.check_wheel(
                wheel_type=data["wheel_type"],
                diameter_inches=data["diameter_inches"],
                number_order=data["number_order"] or [],
            )
        else:
            found = rules.check_ball(material=data["material"], diameter_inches=data["diameter_inches"])
        for violation in found:
            field = (violation.field or "").split(".")[0] or None
            self.add_error(field, f"{violation.message} ({violation.citation})")
        return data


class RegisteredEquipmentAdmin(PropertyZoneAdmin, admin.ModelAdmin):
    """Registered once, by the rule; never rewritten or deleted (its history is in the logbook)."""

    form = EquipmentForm

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Wheel)
class WheelAdmin(RegisteredEquipmentAdmin):
    list_display = ["serial", "property", "wheel_type", "diameter_inches", "registered_at"]
    list_filter = ["property", "wheel_type"]
    search_fields = ["serial"]


@admin.register(Ball)
class BallAdmin(RegisteredEquipmentAdmin):
    list_display = ["serial", "property", "material", "diameter_inches", "registered_at"]
    list_filter = ["property", "material"]
    search_fields = ["serial"]


class ApprovalSignatureInline(admin.TabularInline):
    model = ApprovalSignature
    fields = ["action", "reference", "signer_name", "credential_number", "signed_at", "content_hash"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


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
