from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from compliance.models import Ball, GamingTable, Property, User, Wheel


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
class PersonAdmin(UserAdmin):
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
class GamingTableAdmin(admin.ModelAdmin):
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


@admin.register(Wheel)
class WheelAdmin(admin.ModelAdmin):
    list_display = ["serial", "property", "wheel_type", "diameter_inches", "registered_at"]
    list_filter = ["property", "wheel_type"]
    search_fields = ["serial"]


@admin.register(Ball)
class BallAdmin(admin.ModelAdmin):
    list_display = ["serial", "property", "material", "diameter_inches", "registered_at"]
    list_filter = ["property", "material"]
    search_fields = ["serial"]
