from django.contrib import admin
from django.contrib.admin.utils import flatten_fieldsets
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django_celery_beat import admin as beat_admin
from django_celery_beat.models import ClockedSchedule, CrontabSchedule, IntervalSchedule, PeriodicTask, SolarSchedule
from knox import admin as knox_admin  # noqa: F401  (registers knox's page first: it is replaced below)
from knox.models import AuthToken

from compliance.accounts import services
from compliance.accounts.models import IdempotencyKey, User
from compliance.casinos.admin_base import ServiceAdmin
from compliance.casinos.admin_zones import PropertyZoneAdmin
from config.admin import ReadOnly


class PersonChangeForm(UserChangeForm):
    """Shows beside its field what a signed person keeps, as the service refuses it (person_violations)."""

    def clean(self):
        data = super().clean()
        if self.errors or self.instance.pk is None:
            return data
        changes = {name: data[name] for name in self.changed_data if name in services.PERSON_EDITABLE}
        for violation in services.person_violations(person=self.instance, changes=changes):
            field = violation.field if violation.field in self.fields else None
            self.add_error(field, f"{violation.message} ({violation.cited})")
        return data


# The rest of what the services let a person set (PERSON_EDITABLE), beyond Django's own fields: the
# same on the change and the add page.
ROLE_AND_CREDENTIAL = (
    "Role and credential",
    {"fields": [name for name in services.PERSON_EDITABLE if name not in flatten_fieldsets(UserAdmin.fieldsets)]},
)


@admin.register(User)
class PersonAdmin(PropertyZoneAdmin, ServiceAdmin, UserAdmin):
    """People are written by person_create and person_update, as through the API; a password is
    changed by Django's own form; nobody is deleted (their signatures name them: deactivate instead)."""

    form = PersonChangeForm
    list_display = ["username", "full_name", "role", "credential_number", "property", "jurisdiction", "is_active"]
    list_filter = ["role", "property", "jurisdiction", "is_active"]
    search_fields = ["username", "full_name", "credential_number", "email"]
    readonly_fields = ["last_login", "date_joined"]
    fieldsets = [
        *UserAdmin.fieldsets,
        ROLE_AND_CREDENTIAL,
    ]
    add_fieldsets = [
        *UserAdmin.add_fieldsets,
        ROLE_AND_CREDENTIAL,
    ]

    def save_model(self, request, obj, form, change):
        if change:
            changes = self.changes(form, services.PERSON_EDITABLE)
            services.person_update(person_id=obj.pk, actor=request.user, changes=changes)
            return
        fields = {name: form.cleaned_data[name] for name in services.PERSON_EDITABLE if name in form.cleaned_data}
        usable = form.cleaned_data.get("usable_password", True) not in (False, "false")
        password = form.cleaned_data.get("password1") if usable else None
        created = services.person_create(actor=request.user, password=password, **fields)
        obj.pk = created.pk
        obj._state.adding = False
        obj.refresh_from_db()


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(PropertyZoneAdmin, admin.ModelAdmin):
    """The answers kept for repeated writes (Idempotency-Key, form tokens): seen, never made or edited
    here; their times in the sender's property's zone (a regulator's, the server's)."""

    property_path = "user__property"

    list_display = ["created_at", "user", "method", "path", "response_status", "recorded"]
    list_filter = ["method", "response_status"]
    search_fields = ["key", "path", "user__username"]
    exclude = ["response_body"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # the minutely scan forgets them after IDEMPOTENCY_KEY_HOURS


# knox's own page offers "Add" (a token made by hand, shown once in a message): an administrator sees
# the tokens and revokes one by deleting it, never makes one.
admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class AuthTokenAdmin(admin.ModelAdmin):
    list_display = ["token_key", "user", "created", "expiry"]
    search_fields = ["token_key", "user__username"]
    list_select_related = ["user"]
    fields = ["token_key", "user", "created", "expiry"]
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj)  # revoking: Django's own permission


# Beat's schedule (django-celery-beat's tables): made by the apps' migrations, shown read-only. Its
# own pages would let an administrator add a row naming any task with any arguments, or send one now
# ("Run selected tasks"); beat sends only the tasks config.beat allows, without arguments, and these
# pages offer no add, change, delete or action.
class ReadOnlySchedule(ReadOnly):
    actions = ()
    inlines = ()

    def get_actions(self, request):
        return {}


class PeriodicTaskReadOnlyAdmin(ReadOnlySchedule, beat_admin.PeriodicTaskAdmin):
    pass


class IntervalReadOnlyAdmin(ReadOnlySchedule, beat_admin.IntervalScheduleAdmin):
    pass


class CrontabReadOnlyAdmin(ReadOnlySchedule, beat_admin.CrontabScheduleAdmin):
    pass


class SolarReadOnlyAdmin(ReadOnlySchedule, beat_admin.SolarScheduleAdmin):
    pass


class ClockedReadOnlyAdmin(ReadOnlySchedule, beat_admin.ClockedScheduleAdmin):
    pass


for _model, _admin in (
    (PeriodicTask, PeriodicTaskReadOnlyAdmin),
    (IntervalSchedule, IntervalReadOnlyAdmin),
    (CrontabSchedule, CrontabReadOnlyAdmin),
    (SolarSchedule, SolarReadOnlyAdmin),
    (ClockedSchedule, ClockedReadOnlyAdmin),
):
    admin.site.unregister(_model)
    admin.site.register(_model, _admin)
