"""A ball replacement names a registered ball and updates the table (issue 20, item 3): the floor's
adjustment or replacement form offers the property's spare balls; a replacement of the ball without
one is refused (product policy, from 58 Pa. Code § 617a.6(b), (c)); the ball named becomes the table's,
on the page, in the service and in the API."""

from decimal import Decimal

import pytest

from compliance.casinos.models import Ball, GamingTable
from inspections.logbook.models import Entry
from tests.factories import PASSWORD
from tests.inspections.test_api import assert_refused, client_for, signature
from tests.inspections.test_services import adjust, event, refused

POLICY = (
    "Product policy: a replaced ball is named from the property's registered balls "
    "(58 Pa. Code § 617a.6(b), (c) call for a new Roulette ball)"
)


@pytest.fixture
def unlocked(casino):
    event(casino, "cover")
    event(casino, "unlock")
    casino.spare = Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    return casino


def replacement(casino, **extra) -> dict:
    return {
        "username": casino.maintenance.username,
        "password": PASSWORD,
        "kind": "replacement",
        "part": "ball",
        "description": "Chipped ball taken out",
        "witness_username": casino.security.username,
        "witness_password": PASSWORD,
        **extra,
    }


def table_ball(casino) -> int | None:
    return GamingTable.objects.get(pk=casino.table.pk).ball_id


def test_the_form_offers_the_propertys_spare_balls_only(client, unlocked, other_casino):
    client.force_login(unlocked.maintenance)
    page = client.get(f"/tables/{unlocked.table.pk}/adjust/").content.decode()
    assert '<select name="new_ball"' in page
    assert f'value="{unlocked.spare.pk}"' in page and "B-SPARE" in page
    # Not the ball already on the table, nor another property's.
    assert f'value="{unlocked.table.ball_id}"' not in page
    assert f'value="{other_casino.table.ball_id}"' not in page


def test_a_ball_replaced_on_the_floor_without_naming_it_is_refused_and_the_table_keeps_its_ball(client, unlocked):
    client.force_login(unlocked.maintenance)
    before = table_ball(unlocked)
    response = client.post(f"/tables/{unlocked.table.pk}/adjust/", replacement(unlocked))
    page = response.content.decode()
    assert response.status_code == 200
    assert "name the new ball" in page and "58 Pa. Code § 617a.6(b), (c)" in page
    assert not Entry.objects.filter(kind="replacement").exists()
    assert table_ball(unlocked) == before


def test_the_ball_named_on_the_floor_becomes_the_tables(client, unlocked):
    client.force_login(unlocked.maintenance)
    response = client.post(
        f"/tables/{unlocked.table.pk}/adjust/", replacement(unlocked, new_ball=unlocked.spare.pk), follow=True
    )
    assert response.status_code == 200, response.content.decode()
    entry = Entry.objects.get(kind="replacement")
    assert entry.details == {"part": "ball", "new_ball": unlocked.spare.pk}
    assert table_ball(unlocked) == unlocked.spare.pk
    assert "B-SPARE" in client.get(f"/tables/{unlocked.table.pk}/").content.decode()


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


def test_a_ball_on_another_table_is_refused(unlocked, casino):
    from tests.factories import GamingTableFactory, configure_for_opening

    other = configure_for_opening(
        GamingTableFactory(property=casino.property, number="R-09"), created_by=casino.compliance
    )
    refused(
        lambda: adjust(unlocked, "replacement", part="ball", new_ball=other.ball, description="Ball borrowed"),
        "ball_in_use",
        "Product policy: a ball is on one table at a time",
    )


def test_the_api_names_the_new_ball_and_the_table_takes_it(unlocked):
    api = client_for(unlocked.maintenance)
    body = {
        "table": unlocked.table.pk,
        "kind": "replacement",
        "part": "ball",
        "description": "Chipped ball taken out",
        "performer": signature(unlocked.maintenance),
        "witness": signature(unlocked.security),
    }
    assert_refused(api.post("/api/adjustments/", body, format="json"), "new_ball_required", POLICY, "new_ball")
    response = api.post("/api/adjustments/", {**body, "new_ball": unlocked.spare.pk}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["new_ball"] == unlocked.spare.pk
    assert table_ball(unlocked) == unlocked.spare.pk
