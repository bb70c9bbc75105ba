"""Every admin page, found from the admin's own registry (issue 17, item 5): the logbook and what
is derived from it are read-only to an administrator; the configuration is written through the
service the API uses; nothing else is registered unless listed here with the reason.

A new ModelAdmin fails test_every_registered_admin_is_listed until it is put in one of the lists.
"""

from types import SimpleNamespace

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.utils import flatten_fieldsets
from django.test import RequestFactory

from compliance.accounts import services as people
from compliance.accounts.models import User
from compliance.casinos import services
from inspections.logbook.models import TABLE_DEADLINES

# The logbook and what is derived from it: visible, never added, changed or deleted by hand.
READ_ONLY = {
    "logbook.Entry",
    "logbook.Signature",
    "logbook.Checkpoint",
    "flags.ComplianceException",
    "reports.Report",
    "reports.ReportDownload",
    "approvals.RulesSubmission",
    "approvals.LayoutSubmission",
    "approvals.ApprovalSignature",
    # The answers kept for repeated writes (Idempotency-Key, form tokens): the scan forgets them.
    "accounts.IdempotencyKey",
    # Beat's schedule (issue 32, item 2): made by the migrations; a row added by hand could name any task.
    "django_celery_beat.PeriodicTask",
    "django_celery_beat.ClockedSchedule",
    "django_celery_beat.CrontabSchedule",
    "django_celery_beat.SolarSchedule",
    "django_celery_beat.IntervalSchedule",
}
# Configuration written through the API's services: (change service, add service or None when a new
# row is saved as the API's create saves it), and what the service lets a person set.
SERVICES = {
    "casinos.Property": ("property_update", None, services.PROPERTY_EDITABLE),
    "accounts.User": ("person_update", "person_create", people.PERSON_EDITABLE),
    "casinos.GamingTable": ("table_update", "table_create", services.TABLE_EDITABLE),
}
# Where each model's services live (each app holds its own).
SERVICE_MODULES = {"casinos.Property": services, "accounts.User": people, "casinos.GamingTable": services}
# Registered once, checked by the rulebook in the form (as the API's create), never changed or deleted.
INSERT_ONLY = {"casinos.Wheel", "casinos.Ball"}
# Seen and deleted, never added or changed: the API tokens (kept only as digests), which an
# administrator revokes by deleting one; a token is made by signing in, never by hand.
REVOKE_ONLY = {"knox.AuthToken"}
# Other applications' own pages, which hold no logbook data.
THIRD_PARTY = {
    "auth.Group": "Django's permissions",
    "axes.AccessAttempt": "django-axes: deleting an attempt is how an administrator lifts a lockout",
    "axes.AccessLog": "django-axes' sign-in log",
    "axes.AccessFailureLog": "django-axes' failed sign-ins",
}
# Django's own fields of a person's form: the password is changed by Django's own form.
PERSON_DJANGO_OWN = {"password", "groups", "user_permissions"}


def registered() -> dict:
    return {model._meta.label: model_admin for model, model_admin in admin.site._registry.items()}


def as_administrator():
    request = RequestFactory().get("/admin/")
    request.user = User(username="root", is_staff=True, is_superuser=True, is_active=True, role="admin")
    return request


def test_every_registered_admin_is_listed():
    listed = READ_ONLY | set(SERVICES) | INSERT_ONLY | REVOKE_ONLY | set(THIRD_PARTY)
    assert not set(registered()) - listed, "an admin page no list here accounts for"
    # The logbook's models must exist by these names (a rename would silently drop the check).
    for label in READ_ONLY | set(SERVICES) | INSERT_ONLY:
        apps.get_model(label)


@pytest.mark.parametrize("label", sorted(READ_ONLY))
def test_the_logbook_and_what_is_derived_are_read_only_to_an_administrator(label):
    model_admin = registered().get(label)
    if model_admin is None:
        pytest.skip(f"{label} has no admin page")
    request = as_administrator()
    row = model_admin.model()
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request) and not model_admin.has_change_permission(request, row)
    assert not model_admin.has_delete_permission(request) and not model_admin.has_delete_permission(request, row)
    assert "delete_selected" not in model_admin.get_actions(request)
    for inline in model_admin.get_inline_instances(request, row):
        assert not inline.has_add_permission(request, row) and not inline.has_delete_permission(request, row)
        fields = {f.name for f in inline.model._meta.concrete_fields} & set(inline.get_fields(request, row))
        assert not inline.has_change_permission(request, row) or fields <= set(inline.get_readonly_fields(request))


@pytest.mark.parametrize("label", sorted(INSERT_ONLY))
def test_registered_equipment_is_never_changed_or_deleted(label):
    model_admin = registered()[label]
    request = as_administrator()
    row = model_admin.model()
    assert not model_admin.has_change_permission(request, row)
    assert not model_admin.has_delete_permission(request) and not model_admin.has_delete_permission(request, row)


@pytest.mark.parametrize("label", sorted(REVOKE_ONLY))
def test_api_tokens_are_revoked_never_made_or_changed_by_hand(label):
    model_admin = registered()[label]
    request = as_administrator()
    row = model_admin.model()
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request) and not model_admin.has_change_permission(request, row)
    assert model_admin.has_delete_permission(request, row)


@pytest.mark.parametrize("label", sorted(SERVICES))
def test_the_configuration_admin_offers_only_what_its_service_sets_and_deletes_nothing(label, db):
    model_admin = registered()[label]
    request = as_administrator()
    _, _, editable = SERVICES[label]
    row = model_admin.model.objects.first() or model_admin.model()
    form_fields = set(model_admin.get_form(request, row, change=True).base_fields)
    model_fields = {f.name for f in model_admin.model._meta.get_fields()}
    own = PERSON_DJANGO_OWN if label == "accounts.User" else set()
    assert (form_fields & model_fields) - own <= set(editable), "a derived column is editable"
    assert not model_admin.has_delete_permission(request) and not model_admin.has_delete_permission(request, row)


class Routed(Exception):
    pass


@pytest.mark.parametrize("label", sorted(SERVICES))
@pytest.mark.parametrize("change", [True, False], ids=["change", "add"])
def test_the_configuration_admin_saves_through_its_service(label, change, monkeypatch):
    model_admin = registered()[label]
    update, create = SERVICES[label][:2]
    service = update if change else create
    if service is None:
        pytest.skip(f"a new {label} is saved as the API's create saves it")

    def routed(**kwargs):
        raise Routed(kwargs)

    monkeypatch.setattr(SERVICE_MODULES[label], service, routed)
    form = SimpleNamespace(changed_data=[], cleaned_data={})
    row = model_admin.model(pk=1)
    with pytest.raises(Routed):
        model_admin.save_model(as_administrator(), row, form, change)


def derived_columns(label: str) -> set[str]:
    """What no person sets: every column of the model that its service does not offer (the table's
    state, its times and deadlines; the property's chain and digest date; a person's sign-in times)."""
    model = apps.get_model(label)
    editable = set(SERVICES[label][2])
    return {f.name for f in model._meta.concrete_fields if not f.primary_key} - editable


def test_the_derived_columns_are_found_from_the_models():
    # A table's own derived columns, and its logbook status's (none of which a person sets).
    table = derived_columns("casinos.GamingTable") | {f.name for f in fields_of("logbook.TableStatus")}
    assert {*TABLE_DEADLINES, "next_due", "state", "inspection_void_reason", "last_inspection_at"} <= table
    # The property's chain head and digest date are the logbook's and the flags' own rows: no form sets them.
    derived = {(label, f.name) for label in ("logbook.ChainHead", "flags.Digest") for f in fields_of(label)}
    assert {("logbook.ChainHead", "length"), ("logbook.ChainHead", "head"), ("flags.Digest", "sent_on")} <= derived
    admin_page = admin.site._registry[apps.get_model("casinos.Property")]
    assert {"chain_length", "chain_head", "digest_sent_on"} <= set(admin_page.readonly_fields)


def fields_of(label: str):
    """The columns of the model that no person sets (not editable), its key aside."""
    return [f for f in apps.get_model(label)._meta.concrete_fields if not f.primary_key and not f.editable]


def admin_forms(label: str, request, *, change: bool):
    """Every admin form of the model: its pages' forms and the inline forms of any page."""
    for model_admin in admin.site._registry.values():
        row = (model_admin.model.objects.first() or model_admin.model()) if change else None
        if model_admin.model._meta.label == label:
            yield model_admin, row, model_admin.get_form(request, row, change=change)
        for inline in model_admin.get_inline_instances(request, row):
            if inline.model._meta.label == label:
                yield inline, row, inline.get_formset(request, row).form


@pytest.mark.parametrize("label", sorted(SERVICES))
@pytest.mark.parametrize("change", [True, False], ids=["change", "add"])
def test_a_derived_column_is_read_only_in_every_admin_form_that_shows_it(label, change, db):
    """A posted value of a column the logbook derives never reaches the row: on every admin form of
    the model it is shown read-only (or as a disabled field, as Django's password hash), or not at all."""
    request = as_administrator()
    derived = derived_columns(label)
    forms = list(admin_forms(label, request, change=change))
    assert forms
    for page, row, form in forms:
        editable = {name for name, field in form.base_fields.items() if not field.disabled}
        assert not editable & derived, f"{type(page).__name__}: a derived column is a field of the form"
        shown = set(flatten_fieldsets(page.get_fieldsets(request, row))) & derived
        read_only = set(page.get_readonly_fields(request, row)) | (set(form.base_fields) - editable)
        assert shown <= read_only, f"{type(page).__name__} shows a derived column that is not read-only"
