"""The admin site: everything visible, the logbook read-only with no delete action."""

from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.db.models import DateTimeField
from django.utils import timezone
from django.utils.formats import date_format

from compliance.accounts.models import Role, User
from inspections.logbook.models import Entry
from tests.support.logbook import inspect


@pytest.fixture
def admin_client_logged_in(client, db):
    admin = User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")
    client.force_login(admin)
    return client


@pytest.mark.parametrize(
    "path",
    [
        "/admin/casinos/property/",
        "/admin/accounts/user/",
        "/admin/casinos/gamingtable/",
        "/admin/logbook/entry/",
        "/admin/logbook/signature/",
        "/admin/casinos/wheel/",
        "/admin/casinos/ball/",
        "/admin/approvals/rulessubmission/",
        "/admin/approvals/layoutsubmission/",
        "/admin/django_celery_beat/periodictask/",
    ],
)
def test_every_model_is_listed(admin_client_logged_in, casino, path):
    inspect(casino)
    assert admin_client_logged_in.get(path).status_code == 200


def test_the_logbook_is_read_only_in_the_admin(admin_client_logged_in, casino):
    entry = inspect(casino)
    page = admin_client_logged_in.get(f"/admin/logbook/entry/{entry.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert casino.floorperson.credential_number.encode() in page.content
    assert admin_client_logged_in.get("/admin/logbook/entry/add/").status_code == 403
    assert admin_client_logged_in.post(f"/admin/logbook/entry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert b'name="action"' not in admin_client_logged_in.get("/admin/logbook/entry/").content
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_createsuperuser_noinput_gives_the_admin_role(db, monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "boss")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-boss-passphrase")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "boss@example.com")
    call_command("createsuperuser", "--noinput")
    boss = User.objects.get(username="boss")
    assert boss.role == Role.ADMIN and boss.is_superuser and boss.credential_number


def test_the_admin_refuses_a_non_compliant_ball_with_its_citation(admin_client_logged_in, casino):
    from compliance.casinos.models import Ball

    response = admin_client_logged_in.post(
        "/admin/casinos/ball/add/",
        {"property": casino.property.pk, "serial": "B-9", "material": "metallic", "diameter_inches": "0.8125"},
    )
    assert response.status_code == 200
    assert "58 Pa. Code § 617a.1(a)" in response.content.decode()
    assert not Ball.objects.filter(serial="B-9").exists()
    response = admin_client_logged_in.post(
        "/admin/casinos/ball/add/",
        {"property": casino.property.pk, "serial": "B-9", "material": "non_metallic", "diameter_inches": "0.8125"},
    )
    assert response.status_code == 302
    assert Ball.objects.filter(serial="B-9").exists()


def test_registered_equipment_is_never_rewritten_or_deleted_in_the_admin(admin_client_logged_in, casino):
    wheel = casino.table.wheel
    assert admin_client_logged_in.get(f"/admin/casinos/wheel/{wheel.pk}/change/").status_code == 200
    response = admin_client_logged_in.post(
        f"/admin/casinos/wheel/{wheel.pk}/change/",
        {
            "property": casino.property.pk,
            "serial": "X",
            "wheel_type": "single_zero",
            "diameter_inches": "31",
            "number_order": "[]",
        },
    )
    assert response.status_code == 403
    assert admin_client_logged_in.post(f"/admin/casinos/wheel/{wheel.pk}/delete/", {"post": "yes"}).status_code == 403
    wheel.refresh_from_db()
    assert wheel.serial == f"W-{casino.table.number}"


# ---- Every admin write goes through the API's service and rule (issue 17, item 5) ----

DERIVED = {
    "state": "open",
    "inspection_void_reason": "",
    "last_closed_at": "",
    "next_due": "",
    "cover_due_at": "",
    "uninspected_since": "",
    "approval_due_at": "",
}


def table_form(table, **overrides) -> dict:
    """The admin change form's fields as posted, with the derived columns a hand could add."""
    data = {
        "property": table.property_id,
        "number": table.number,
        "game": table.game,
        "wheel_type": table.wheel_type or "",
        "configuration": table.configuration,
        "wheel": table.wheel_id or "",
        "ball": table.ball_id or "",
        **({"has_external_movable_parts": "on"} if table.has_external_movable_parts else {}),
        **({"electronic": "on"} if table.electronic else {}),
        # A split date-time widget's halves too: neither reaches the row.
        **DERIVED,
        **{f"{name}_{half}": "" for name in DERIVED for half in (0, 1)},
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def derived_columns(table) -> dict:
    from inspections.logbook.models import TABLE_DEADLINES

    table.refresh_from_db()
    names = ["state", "inspection_void_reason", "last_closed_at", "last_opened_at", "next_due", *TABLE_DEADLINES]
    return {name: getattr(table.status, name) for name in names}


def test_derived_columns_posted_to_the_admin_change_nothing(admin_client_logged_in, casino):
    from tests.support.logbook import event

    inspect(casino)
    event(casino, "open")
    event(casino, "close")  # a cover deadline is running
    table = casino.table
    before = derived_columns(table)
    assert before["cover_due_at"] is not None
    page = admin_client_logged_in.get(f"/admin/casinos/gamingtable/{table.pk}/change/")
    assert b'name="cover_due_at' not in page.content and b'name="state"' not in page.content
    response = admin_client_logged_in.post(f"/admin/casinos/gamingtable/{table.pk}/change/", table_form(table))
    assert response.status_code == 302, response.content.decode()
    after = derived_columns(table)
    assert after == before


def test_the_admin_refuses_to_renumber_a_table_with_entries(admin_client_logged_in, casino):
    """The log holds the table number (§ 617a.2(e)): a rename would change every signed entry's table."""
    inspect(casino)
    table = casino.table
    table.refresh_from_db()
    response = admin_client_logged_in.post(
        f"/admin/casinos/gamingtable/{table.pk}/change/", table_form(table, number="R-10")
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "has logbook entries" in page and "Product policy, derived from 58 Pa. Code § 617a.2(e)" in page
    table.refresh_from_db()
    assert table.number != "R-10"


def test_the_admin_refuses_to_move_a_table_with_entries(admin_client_logged_in, casino, other_casino):
    from compliance.casinos.models import GamingTable

    inspect(casino)
    GamingTable.objects.filter(pk=other_casino.table.pk).update(number="R-99")
    table = casino.table
    table.refresh_from_db()
    response = admin_client_logged_in.post(
        f"/admin/casinos/gamingtable/{table.pk}/change/",
        table_form(table, property=other_casino.property.pk, wheel="", ball=""),
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "has logbook entries" in page and "Product policy, derived from 58 Pa. Code § 617a.2(e)" in page
    table.refresh_from_db()
    assert table.property == casino.property and table.wheel is not None
    assert Entry.objects.get().table_id == table.pk and Entry.objects.get().property == casino.property


@pytest.mark.parametrize(
    "change, citation",
    [
        ("wheel", "58 Pa. Code § 617a.2(d)"),
        ("ball", "58 Pa. Code § 617a.2(d)"),
        ("wheel_type", "Product policy, derived from 58 Pa. Code § 617a.2(a), (d)"),
    ],
)
def test_the_admin_refuses_to_change_an_open_tables_equipment_or_wheel_type(
    admin_client_logged_in, casino, change, citation
):
    from decimal import Decimal

    from compliance.casinos.models import Ball, Wheel
    from compliance.rulebook import pa
    from tests.support.logbook import event

    spare_wheel = Wheel.objects.create(
        property=casino.property,
        serial="W-SPARE",
        wheel_type="double_zero",
        diameter_inches=Decimal(32),
        number_order=list(pa.DOUBLE_ZERO_ORDER),
    )
    spare_ball = Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    inspect(casino)
    event(casino, "open")
    table = casino.table
    table.refresh_from_db()
    before = {name: getattr(table, name) for name in ("wheel_id", "ball_id", "wheel_type", "state")}
    value = {"wheel": spare_wheel.pk, "ball": spare_ball.pk, "wheel_type": "double_zero_as_single_zero"}[change]
    response = admin_client_logged_in.post(
        f"/admin/casinos/gamingtable/{table.pk}/change/", table_form(table, **{change: value})
    )
    assert response.status_code == 200
    assert citation in response.content.decode()
    table.refresh_from_db()
    assert {name: getattr(table, name) for name in before} == before


def test_the_admin_adds_a_table_by_the_apis_rules(admin_client_logged_in, casino):
    from compliance.casinos.models import GamingTable

    form = {
        "property": casino.property.pk,
        "number": "R-20",
        "game": "roulette",
        "wheel_type": "",
        "configuration": "standard",  # the form's initial value
    }
    response = admin_client_logged_in.post("/admin/casinos/gamingtable/add/", form)
    assert response.status_code == 200
    assert "58 Pa. Code § 617a.1(c), (d)" in response.content.decode()
    assert not GamingTable.objects.filter(number="R-20").exists()
    response = admin_client_logged_in.post("/admin/casinos/gamingtable/add/", {**form, "wheel_type": "single_zero"})
    assert response.status_code == 302
    table = GamingTable.objects.get(number="R-20")
    assert table.state == "closed" and table.property == casino.property


def test_the_admin_policy_change_moves_the_deadlines(admin_client_logged_in, casino):
    from datetime import timedelta

    from compliance.casinos.models import Property
    from tests.support.logbook import event

    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    table = casino.table
    table.refresh_from_db()
    prop = casino.property
    prop.refresh_from_db()
    response = admin_client_logged_in.post(
        f"/admin/casinos/property/{prop.pk}/change/",
        {
            "name": prop.name,
            "licence_number": prop.licence_number,
            "jurisdiction": prop.jurisdiction,
            "time_zone": prop.time_zone,
            "cover_grace_minutes": 2,
            "max_inspection_interval_hours": prop.max_inspection_interval_hours,
            "notify_emails": "",
            "procedure": prop.procedure,
        },
    )
    assert response.status_code == 302, response.content.decode()
    table.refresh_from_db()
    assert table.status.cover_due_at == table.status.last_closed_at + timedelta(minutes=2) == table.status.next_due
    after = Property.objects.get(pk=prop.pk)
    assert after.cover_grace_minutes == 2 and after.chain.length == 3  # the chain head untouched


def test_every_date_time_column_of_the_admin_is_shown_in_the_records_property_zone(rf, db):
    """Each list of ours shows its date-times through a column that names the property's zone."""
    from django.contrib import admin as site_admin

    from compliance.casinos.admin_zones import PropertyZoneAdmin

    ours = {
        model: model_admin
        for model, model_admin in site_admin.site._registry.items()
        if model.__module__.startswith(("compliance.", "inspections."))
    }
    request = rf.get("/admin/")
    for model, model_admin in ours.items():
        datetimes = [
            name
            for name in model_admin.list_display
            if isinstance(name, str)
            and any(f.name == name and isinstance(f, DateTimeField) for f in model._meta.get_fields())
        ]
        if datetimes or model_admin.date_hierarchy or model_admin.inlines:
            assert isinstance(model_admin, PropertyZoneAdmin), model
        shown = model_admin.get_list_display(request)
        assert not set(datetimes) & {name for name in shown if isinstance(name, str)}, model


@pytest.mark.any_hour
def test_the_admin_shows_an_entry_and_its_flag_at_the_propertys_time(admin_client_logged_in, casino):
    from compliance.casinos.models import GamingTable
    from inspections.flags import services as flag_services
    from inspections.flags.models import ComplianceException
    from tests.support.logbook import event

    entry = inspect(casino)
    event(casino, "open")
    event(casino, "close")
    flag_services.scan(now=GamingTable.objects.get(pk=casino.table.pk).status.cover_due_at)
    flag = ComplianceException.objects.get()
    zone = ZoneInfo("America/New_York")

    def local(moment) -> str:
        return f"{timezone.localtime(moment, zone):%Y-%m-%d %H:%M} EST"

    listed = admin_client_logged_in.get("/admin/logbook/entry/").content.decode()
    assert local(entry.occurred_at) in listed
    flags = admin_client_logged_in.get("/admin/flags/complianceexception/").content.decode()
    assert local(flag.due_at) in flags and local(flag.detected_at) in flags
    signatures = admin_client_logged_in.get("/admin/logbook/signature/").content.decode()
    assert local(entry.signatures.get().signed_at) in signatures
    page = admin_client_logged_in.get(f"/admin/logbook/entry/{entry.pk}/change/").content.decode()
    assert "times in America/New_York (EST)" in page
    assert date_format(timezone.localtime(entry.occurred_at, zone), "DATETIME_FORMAT") in page  # and its inline's


# ---- What the admin shows a person (the user trial) ----


def test_api_tokens_are_seen_and_revoked_never_added(admin_client_logged_in, casino):
    from knox.models import AuthToken

    _, token = AuthToken.objects.create(user=casino.floorperson)
    row = AuthToken.objects.get()
    listing = admin_client_logged_in.get("/admin/knox/authtoken/")
    assert listing.status_code == 200 and row.token_key in listing.content.decode()
    assert b"/admin/knox/authtoken/add/" not in listing.content
    assert admin_client_logged_in.get("/admin/knox/authtoken/add/").status_code == 403
    page = admin_client_logged_in.get(f"/admin/knox/authtoken/{row.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert token.encode() not in page.content
    revoked = admin_client_logged_in.post(f"/admin/knox/authtoken/{row.pk}/delete/", {"post": "yes"})
    assert revoked.status_code == 302 and not AuthToken.objects.exists()


def test_the_table_page_says_why_its_inspection_no_longer_counts_in_words(admin_client_logged_in, casino):
    from tests.inspections.test_amendments import amend, unlocked

    unlocked(casino)
    amend(casino, inspect(casino), kind="entered_in_error")
    page = admin_client_logged_in.get(f"/admin/casinos/gamingtable/{casino.table.pk}/change/").content.decode()
    assert "The inspection was marked entered in error" in page
    assert "entered_in_error" not in page


def property_form(page) -> dict:
    """The property's change form as the page shows it, ready to post back."""
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = field.prepare_value(form[name].value())
        if value is not None:
            data[name] = value
    return data


def test_the_property_page_takes_one_address_a_line_or_separated_by_commas(admin_client_logged_in, casino):
    from compliance.casinos.models import Property

    url = f"/admin/casinos/property/{casino.property.pk}/change/"
    data = property_form(admin_client_logged_in.get(url))
    typed = "floor@casino.example\r\nsecurity@casino.example, night@casino.example\r\n"
    response = admin_client_logged_in.post(url, {**data, "notify_emails": typed})
    assert response.status_code == 302, response.content.decode()[:3000]
    addresses = ["floor@casino.example", "security@casino.example", "night@casino.example"]
    assert Property.objects.get(pk=casino.property.pk).notify_emails == addresses
    page = admin_client_logged_in.get(url).content.decode()
    assert "floor@casino.example\nsecurity@casino.example\nnight@casino.example</textarea>" in page

    refused = admin_client_logged_in.post(url, {**data, "notify_emails": "floor@casino.example\nnot an address"})
    assert refused.status_code == 200
    assert "“not an address” is not an email address." in refused.content.decode()
    assert Property.objects.get(pk=casino.property.pk).notify_emails == addresses


def test_no_time_the_admin_shows_in_the_propertys_zone_is_labelled_utc():
    """Issue 30: the admin showed "2026-11-26 07:54 EST" under the help text "When it happened (UTC)".
    Every date-time field of every model the admin shows: its help text names no zone it is not in."""
    from django.apps import apps
    from django.contrib import admin as django_admin
    from django.db import models

    wrong = [
        f"{model._meta.label}.{field.name}: {field.help_text}"
        for model in apps.get_models()
        if model in django_admin.site._registry
        for field in model._meta.get_fields()
        if isinstance(field, models.DateTimeField) and "UTC" in str(field.help_text)
    ]
    assert not wrong, wrong
