"""The admin's read-only building blocks: what is signed or derived is shown, never added, changed
or deleted there (the database's triggers refuse it anyway)."""

from django.contrib import admin


class ReadOnly:
    """No add, change or delete permission, whoever asks."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """A model's pages, read-only."""


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    """Rows shown under their parent, read-only: every field of `fields`."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields
