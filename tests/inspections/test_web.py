"""The floor pages, through Django's test client (the browser tests drive the same pages in Chromium)."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from compliance.casinos.models import TableState
from inspections.logbook.models import Entry
from tests.factories import PASSWORD
from tests.support.logbook import ALL_PASS


def signed(who, **extra) -> dict:
    return {"username": who.username, "password": PASSWORD, **extra}


def passing(**extra) -> dict:
    return {**{code: "pass" for code in ALL_PASS}, **extra}


def test_anonymous_visitors_are_sent_to_sign_in(client, db):
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert b"Sign in" in client.get("/login/").content


def test_the_dashboard_shows_the_propertys_tables_only(client, casino, other_casino):
    client.force_login(casino.security)
    page = client.get("/floor/").content.decode()
    assert f"/tables/{casino.table.pk}/" in page
    assert f"/tables/{other_casino.table.pk}/" not in page
    assert client.get(f"/tables/{other_casino.table.pk}/").status_code == 404


def test_a_full_opening_through_the_forms(client, casino):
    client.force_login(casino.security)
    table = casino.table
    assert client.post(f"/tables/{table.pk}/cover/", signed(casino.security)).status_code == 302
    assert client.post(f"/tables/{table.pk}/unlock/", signed(casino.security)).status_code == 302
    response = client.post(
        f"/tables/{table.pk}/adjust/",
        signed(
            casino.maintenance,
            kind="adjustment",
            part="ball track",
            description="Re-seated",
            witness_username=casino.security.username,
            witness_password=PASSWORD,
        ),
    )
    assert response.status_code == 302, response.content.decode()
    assert client.post(f"/tables/{table.pk}/inspect/", passing(**signed(casino.security))).status_code == 302
    response = client.post(f"/tables/{table.pk}/open/", signed(casino.security), follow=True)
    assert "Recorded: Table opened (table R-01, entry #5)." in response.content.decode()
    table.refresh_from_db()
    assert table.state == TableState.OPEN
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert casino.maintenance.credential_number in page and "witnessed" in page


def test_opening_without_inspection_shows_the_rule_and_keeps_the_form(client, casino):
    client.force_login(casino.security)
    response = client.post(f"/tables/{casino.table.pk}/open/", signed(casino.security))
    page = response.content.decode()
    assert response.status_code == 200
    assert "58 Pa. Code § 617a.2(a)" in page and "no passing inspection" in page
    assert f'value="{casino.security.username}"' in page
    assert Entry.objects.count() == 0


def test_a_wrong_witness_password_is_shown_at_the_witness_and_the_rest_kept(client, casino):
    client.force_login(casino.maintenance)
    response = client.post(
        f"/tables/{casino.table.pk}/adjust/",
        signed(
            casino.maintenance,
            kind="replacement",
            part="rotor",
            description="New rotor fitted",
            witness_username=casino.security.username,
            witness_password="wrong",
        ),
    )
    page = response.content.decode()
    assert "is wrong" in page and "58 Pa. Code § 617a.2(e)" in page
    assert "New rotor fitted" in page and 'value="rotor"' in page
    assert Entry.objects.count() == 0


def test_the_inspection_form_shows_item_5_only_where_it_applies(client, casino):
    client.force_login(casino.floorperson)
    page = client.get(f"/tables/{casino.table.pk}/inspect/").content.decode()
    assert "ball_non_magnetic" in page and "layout_and_signage_00" not in page


def test_a_regulator_reads_but_has_no_actions(client, casino, regulator):
    client.force_login(regulator)
    assert casino.property.name in client.get("/").content.decode()
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert "Sign and record" not in page and "/unlock/" not in page
    response = client.post(f"/tables/{casino.table.pk}/cover/", signed(regulator))
    assert response.status_code == 403
    assert "needs one of these roles: compliance manager, floorperson, security officer" in response.content.decode()
    assert Entry.objects.count() == 0


def test_the_timeline_pages_back_25_at_a_time_with_constant_queries(client, casino, django_assert_num_queries):
    from tests.support.logbook import event, inspect

    client.force_login(casino.security)
    for _ in range(14):
        inspect(casino)
        event(casino, "open")
        event(casino, "close")
    first = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert "?before=18" in first and "Newest" not in first
    older = client.get(f"/tables/{casino.table.pk}/?before=18").content.decode()
    assert "<td>17</td>" in older and "<td>18</td>" not in older and "Newest" in older and "?before=" not in older
    # session, user, table, layout, rules, open flags, 25 entries, their signatures, their amendments
    with django_assert_num_queries(9):
        client.get(f"/tables/{casino.table.pk}/?before=18")


def test_the_table_page_shows_its_approvals_and_equipment(client, casino):
    client.force_login(casino.security)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert "Layout R-01" in page and "version 1, from" in page
    assert casino.table.wheel.serial in page and casino.table.ball.serial in page
    assert "none approved" not in page


@pytest.mark.any_hour
@pytest.mark.parametrize("who", ["compliance", "regulator"])
def test_the_reports_page_offers_last_week_by_the_propertys_calendar(client, casino, regulator, who):
    client.force_login(getattr(casino, who, regulator))
    today = timezone.localtime(timezone.now(), ZoneInfo("America/New_York")).date()
    page = client.get("/reports/").content.decode()
    assert f'name="period_from" value="{today - timedelta(days=7)}"' in page
    assert f'name="period_to" value="{today - timedelta(days=1)}"' in page
