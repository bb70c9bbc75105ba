"""A ball change (issue 30, item 5): every Roulette table logs one, whatever its wheel (the ball is not a
part of the wheel), naming the ball taken off and the registered ball put on by serial; the ball put on
becomes the table's; the table is inspected again before play. Product policy: § 617a.2(b), (d) applied
to the ball (58 Pa. Code § 617a.1(a), § 617a.2(a)(1)); docs/readings.md. Earlier (issue 20, item 3): a
replacement of the ball names a registered ball (product policy, from § 617a.6(b), (c))."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils.html import escape

from compliance.accounts.models import User
from compliance.casinos.models import Ball, GamingTable, TableState
from compliance.rulebook import pa
from inspections.logbook import services
from inspections.logbook.models import Entry
from tests.factories import PASSWORD
from tests.support.api import assert_refused, client_for, signature
from tests.support.logbook import adjust, event, inspect, refused
from tests.support.people import sign

POLICY = (
    "Product policy: a replaced ball is named from the property's registered balls "
    "(58 Pa. Code § 617a.6(b), (c) call for a new Roulette ball)"
)
# What the product applies to a ball change, on every Roulette table.
BALL_CHANGE = pa.BALL_CHANGE
WHEELS = pytest.mark.parametrize("movable", [False, True], ids=["no external movable parts", "external movable parts"])


def with_wheel(casino, *, movable: bool):
    """The casino's table, its wheel with or without external movable parts, unlocked, and a spare ball."""
    GamingTable.objects.filter(pk=casino.table.pk).update(has_external_movable_parts=movable)
    casino.table.refresh_from_db()
    event(casino, "cover")
    event(casino, "unlock")
    casino.spare = Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    return casino


@pytest.fixture
def unlocked(casino):
    return with_wheel(casino, movable=True)


@pytest.fixture
def fixed_wheel(casino):
    """A table whose wheel has no external movable parts (R-02, R-04, R-06, R-07 of the demo)."""
    return with_wheel(casino, movable=False)


def change_ball(casino, *, performer=None, witness=None, new_ball=None):
    performer = performer or casino.maintenance
    return services.ball_change_record(
        table_id=casino.table.pk,
        new_ball=new_ball or casino.spare,
        description="Ball chipped",
        performer=sign(performer),
        witness=sign(witness or casino.security),
        recorded_by=performer,
    )


def table_ball(casino) -> int | None:
    return GamingTable.objects.get(pk=casino.table.pk).ball_id


def ball_change_form(casino, **extra) -> dict:
    return {
        "username": casino.maintenance.username,
        "password": PASSWORD,
        "description": "Ball chipped",
        "witness_username": casino.security.username,
        "witness_password": PASSWORD,
        **extra,
    }


# ---- The service: any wheel, both serials, the table's ball, an inspection before play ----


@WHEELS
def test_a_ball_change_is_logged_on_any_wheel_and_names_both_balls(casino, movable):
    with_wheel(casino, movable=movable)
    off = GamingTable.objects.get(pk=casino.table.pk).ball
    entry = change_ball(casino)
    assert entry.kind == "replacement"
    assert entry.details == {
        "part": "Roulette ball",
        "old_ball": off.pk,
        "ball_off": off.serial,
        "new_ball": casino.spare.pk,
        "ball_on": "B-SPARE",
    }
    assert table_ball(casino) == casino.spare.pk


@WHEELS
def test_a_ball_change_blocks_opening_until_a_passing_inspection(casino, movable):
    with_wheel(casino, movable=movable)
    inspect(casino)
    change_ball(casino)
    casino.table.refresh_from_db()
    assert (casino.table.state, casino.table.status.inspection_void_reason) == (TableState.UNLOCKED, "ball_change")
    refused(lambda: event(casino, "open"), "ball_changed_without_inspection", BALL_CHANGE)
    inspect(casino)
    event(casino, "open")
    assert GamingTable.objects.get(pk=casino.table.pk).state == TableState.OPEN


def test_a_ball_change_during_play_stops_play_until_inspected(fixed_wheel):
    inspect(fixed_wheel)
    event(fixed_wheel, "open")
    change_ball(fixed_wheel)
    table = GamingTable.objects.get(pk=fixed_wheel.table.pk)
    rules = table.property.rulebook()
    outcome = rules.entry_outcome(table=table, kind="ball_change", state_before=TableState.OPEN)
    assert (outcome.code, outcome.citation) == ("inspection_void_in_play", BALL_CHANGE)
    # The overdue scan's deadline of a replacement not inspected, from the ball change.
    assert table.status.replaced_since is not None
    assert table.flags.filter(status="open").exists()


def test_an_inspection_amended_into_a_duplicate_of_one_before_the_ball_change_does_not_count(fixed_wheel):
    before = inspect(fixed_wheel)
    change_ball(fixed_wheel)
    after = inspect(fixed_wheel)
    services.amendment_record(
        entry_id=after.pk,
        reason="Typed twice",
        amendment_kind="duplicate",
        duplicate_of=before.seq,
        signature=sign(fixed_wheel.floorperson),
        recorded_by=fixed_wheel.floorperson,
    )
    assert GamingTable.objects.get(pk=fixed_wheel.table.pk).status.inspection_void_reason == "ball_change"
    refused(lambda: event(fixed_wheel, "open"), "ball_changed_without_inspection", BALL_CHANGE)


def test_the_ball_change_policy_says_what_it_applies():
    assert BALL_CHANGE.startswith("Product policy: ")
    assert "(58 Pa. Code § 617a.2(b), (d) govern a wheel's external movable parts; the ball" in BALL_CHANGE
    assert "§ 617a.1(a)" in BALL_CHANGE and "§ 617a.2(a)(1)" in BALL_CHANGE


@pytest.mark.parametrize(
    ("who", "code"),
    [("compliance", "performer_role"), ("security", "witness_is_performer")],
)
def test_a_ball_change_is_made_by_a_replacements_people_cited_as_the_policy(fixed_wheel, who, code):
    person = getattr(fixed_wheel, who)
    witness = person if code == "witness_is_performer" else None
    refused(lambda: change_ball(fixed_wheel, performer=person, witness=witness), code, BALL_CHANGE)


def test_a_witness_not_from_security_is_refused(fixed_wheel):
    refused(lambda: change_ball(fixed_wheel, witness=fixed_wheel.floorperson), "witness_not_security", BALL_CHANGE)


def test_a_wheel_without_external_movable_parts_still_has_no_part_to_adjust(fixed_wheel):
    refused(lambda: adjust(fixed_wheel), "no_external_movable_parts", "58 Pa. Code § 617a.2(b)")
    refused(
        lambda: adjust(fixed_wheel, "replacement", part="ball track", description="New track"),
        "no_external_movable_parts",
        "58 Pa. Code § 617a.2(b)",
    )


@pytest.mark.parametrize("part", ["ball", "Roulette ball", "the ball."])
def test_a_replacement_of_the_ball_names_the_new_one(unlocked, part):
    refused(
        lambda: adjust(unlocked, "replacement", part=part, description="Ball replaced"),
        "new_ball_required",
        POLICY,
    )


def test_another_part_replaced_needs_no_ball_and_a_ball_goes_only_with_a_replacement(unlocked):
    before = table_ball(unlocked)
    adjust(unlocked, "replacement", part="ball track", description="New ball track")
    assert table_ball(unlocked) == before
    refused(
        lambda: adjust(unlocked, part="ball", new_ball=unlocked.spare, description="Ball wiped"),
        "new_ball_without_replacement",
        POLICY,
    )
    assert table_ball(unlocked) == before


def test_a_ball_on_another_table_is_refused(fixed_wheel, casino):
    from tests.factories import GamingTableFactory, configure_for_opening

    other = configure_for_opening(
        GamingTableFactory(property=casino.property, number="R-09"), created_by=casino.compliance
    )
    refused(
        lambda: change_ball(fixed_wheel, new_ball=other.ball),
        "ball_in_use",
        "Product policy: a ball is on one table at a time",
    )


def test_the_ball_put_on_is_not_the_one_already_on_the_table(fixed_wheel):
    own = GamingTable.objects.get(pk=fixed_wheel.table.pk).ball
    refused(lambda: change_ball(fixed_wheel, new_ball=own), "ball_already_on_table", POLICY)
    inspect(fixed_wheel)
    event(fixed_wheel, "open")
    refused(
        lambda: services.irregularity_record(
            table_id=fixed_wheel.table.pk,
            kind="ball_left_wheel",
            ball_replaced=True,
            new_ball=own,
            signature=sign(fixed_wheel.floorperson),
            recorded_by=fixed_wheel.floorperson,
        ),
        "ball_already_on_table",
        POLICY,
    )


# ---- The floor: its own page, offered on every Roulette table ----


@WHEELS
def test_the_table_page_offers_a_ball_change_whatever_the_wheel(client, casino, movable):
    with_wheel(casino, movable=movable)
    client.force_login(casino.maintenance)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert f'href="/tables/{casino.table.pk}/ball/"' in page and "Change the ball" in page


def test_the_adjustment_form_has_no_ball_choice(client, unlocked):
    client.force_login(unlocked.maintenance)
    page = client.get(f"/tables/{unlocked.table.pk}/adjust/").content.decode()
    assert 'name="new_ball"' not in page
    response = client.post(
        f"/tables/{unlocked.table.pk}/adjust/",
        ball_change_form(unlocked, kind="replacement", part="ball"),
    )
    assert "log a ball change with" in response.content.decode()
    assert not Entry.objects.filter(kind="replacement").exists()


def test_the_ball_change_form_offers_the_propertys_spare_balls_only(client, fixed_wheel, other_casino):
    client.force_login(fixed_wheel.maintenance)
    page = client.get(f"/tables/{fixed_wheel.table.pk}/ball/").content.decode()
    assert '<select name="new_ball"' in page
    assert f'value="{fixed_wheel.spare.pk}"' in page and "B-SPARE" in page
    # Not the ball already on the table (named as the one taken off), nor another property's.
    assert f'value="{fixed_wheel.table.ball_id}"' not in page
    assert f"Ball taken off: {fixed_wheel.table.ball.serial}" in page
    assert f'value="{other_casino.table.ball_id}"' not in page
    assert escape(BALL_CHANGE) in page


def test_a_ball_change_without_a_ball_named_is_a_form_error(client, fixed_wheel):
    client.force_login(fixed_wheel.maintenance)
    before = table_ball(fixed_wheel)
    response = client.post(f"/tables/{fixed_wheel.table.pk}/ball/", ball_change_form(fixed_wheel))
    assert response.status_code == 200
    assert not Entry.objects.filter(kind="replacement").exists()
    assert table_ball(fixed_wheel) == before


def test_a_ball_changed_on_the_floor_is_named_in_the_timeline_and_becomes_the_tables(client, fixed_wheel):
    off = fixed_wheel.table.ball.serial
    client.force_login(fixed_wheel.maintenance)
    response = client.post(
        f"/tables/{fixed_wheel.table.pk}/ball/",
        ball_change_form(fixed_wheel, new_ball=fixed_wheel.spare.pk),
        follow=True,
    )
    page = response.content.decode()
    assert response.status_code == 200, page
    entry = Entry.objects.get(kind="replacement")
    assert (entry.details["ball_off"], entry.details["ball_on"]) == (off, "B-SPARE")
    assert table_ball(fixed_wheel) == fixed_wheel.spare.pk
    assert f"Ball {off} taken off, ball B-SPARE put on. Ball chipped" in page
    assert "Recorded: Ball change (table R-01" in page


def test_a_ball_change_is_said_in_spanish(client, fixed_wheel):
    from compliance.accounts.services import person_language_set

    off = fixed_wheel.table.ball.serial
    change_ball(fixed_wheel)
    person_language_set(person_id=fixed_wheel.floorperson.pk, actor=fixed_wheel.floorperson, language="es")
    client.force_login(User.objects.get(pk=fixed_wheel.floorperson.pk))
    page = client.get(f"/tables/{fixed_wheel.table.pk}/").content.decode()
    assert f"Bola {off} retirada, bola B-SPARE puesta" in page
    assert "Cambiar la bola" in page
    form = client.get(f"/tables/{fixed_wheel.table.pk}/ball/").content.decode()
    assert "Bola puesta" in form


# ---- The API: the same service, both serials in the answer and the register ----


@WHEELS
def test_the_api_logs_a_ball_change_on_any_wheel_and_names_both_balls(casino, movable):
    with_wheel(casino, movable=movable)
    off = GamingTable.objects.get(pk=casino.table.pk).ball
    api = client_for(casino.maintenance)
    body = {
        "table": casino.table.pk,
        "kind": "replacement",
        "part": "ball",
        "description": "Chipped ball taken out",
        "performer": signature(casino.maintenance),
        "witness": signature(casino.security),
    }
    assert_refused(api.post("/api/adjustments/", body, format="json"), "new_ball_required", POLICY, "new_ball")
    response = api.post("/api/adjustments/", {**body, "new_ball": casino.spare.pk}, format="json")
    assert response.status_code == 201, response.content
    answer = response.json()
    assert (answer["old_ball"], answer["ball_off"], answer["new_ball"], answer["ball_on"]) == (
        off.pk,
        off.serial,
        casino.spare.pk,
        "B-SPARE",
    )
    assert table_ball(casino) == casino.spare.pk
    row = api.get(f"/api/logbook/?table={casino.table.pk}").json()["results"][-1]
    assert (row["ball"], row["old_ball"], row["new_ball"]) == (
        f"{off.serial} taken off, B-SPARE put on",
        off.pk,
        casino.spare.pk,
    )
    opening = api.post(f"/api/tables/{casino.table.pk}/open/", {"signature": signature(casino.security)}, format="json")
    assert_refused(opening, "ball_changed_without_inspection", BALL_CHANGE, "table")


# ---- The admin: the balls by serial, never the details' JSON with ids ----


def test_the_admin_names_both_balls_by_serial(client, fixed_wheel):
    off = fixed_wheel.table.ball.serial
    entry = change_ball(fixed_wheel)
    admin = User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")
    client.force_login(admin)
    page = client.get(f"/admin/logbook/entry/{entry.pk}/change/").content.decode()
    assert f"Ball taken off: {off}" in page and "Ball put on: B-SPARE" in page
    assert '"new_ball"' not in page and "&quot;new_ball&quot;" not in page


# ---- The demo: a ball change on each of its tables whose wheel has no external movable parts ----


@pytest.fixture
def seeded(db):
    from compliance.casinos.models import Property
    from inspections.logbook import demo

    call_command("seed_demo", stdout=StringIO())
    return Property.objects.get(licence_number=demo.PROPERTY_LICENCE)


def test_the_demo_logs_a_ball_change_on_each_wheel_without_external_movable_parts(client, seeded):
    from inspections.logbook import demo

    people = {person.username: person for person in User.objects.filter(property=seeded)}
    tables = GamingTable.objects.filter(property=seeded, has_external_movable_parts=False).order_by("number")
    assert [table.number for table in tables] == ["R-02", "R-04", "R-06", "R-07"]
    client.force_login(people["maintenance"])
    for table in tables:
        if table.state == TableState.OPEN:
            services.table_event_record(
                table_id=table.pk,
                kind="close",
                signature=sign(people["security"], demo.DEMO_PASSWORD),
                recorded_by=people["security"],
            )
        spare = Ball.objects.filter(property=seeded, tables__isnull=True).order_by("serial").first()
        off = GamingTable.objects.get(pk=table.pk).ball.serial
        if GamingTable.objects.get(pk=table.pk).state == TableState.LOCKED:
            services.table_event_record(
                table_id=table.pk,
                kind="unlock",
                signature=sign(people["security"], demo.DEMO_PASSWORD),
                recorded_by=people["security"],
            )
        response = client.post(
            f"/tables/{table.pk}/ball/",
            {
                "new_ball": spare.pk,
                "description": "Ball chipped",
                "username": "maintenance",
                "password": demo.DEMO_PASSWORD,
                "witness_username": "security2",
                "witness_password": demo.DEMO_PASSWORD,
            },
            follow=True,
        )
        assert f"Ball {off} taken off, ball {spare.serial} put on" in response.content.decode()
        assert GamingTable.objects.get(pk=table.pk).ball_id == spare.pk
        refused(
            lambda table=table: services.table_event_record(
                table_id=table.pk,
                kind="open",
                signature=sign(people["security"], demo.DEMO_PASSWORD),
                recorded_by=people["security"],
            ),
            "ball_changed_without_inspection",
            BALL_CHANGE,
        )
