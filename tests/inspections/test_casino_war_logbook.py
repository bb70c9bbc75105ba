"""Casino War in the logbook (58 Pa. Code Chapter 651a, proposed): a deck change against what the
table may use (§ 651a.3(a), (c)), and the 24 hours of § 651a.3(d) run from the decks' opening."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from compliance.approvals.models import LayoutSubmission, RulesSubmission
from compliance.casinos.models import GamingTable, TableState
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook import services
from inspections.logbook.models import Entry
from tests.factories import GamingTableFactory
from tests.support.logbook import refused
from tests.support.people import sign

UTC = ZoneInfo("UTC")
WAR_LAYOUT = ["name_or_logo", "betting_areas", "tie_betting_area", "payout_odds_signage", "drop_box", "tip_box"]


def war_table(casino, *, shuffler: bool | None, decks: int = 6) -> GamingTable:
    """A Casino War table; with `shuffler` not None, an approved Rules Submission in effect (with or
    without an automated card shuffling device) and an approved layout. Made directly, as
    configure_for_opening does: these tests are about the logbook."""
    table = GamingTableFactory(
        property=casino.property, number="W-01", game="casino_war", wheel_type=None, has_external_movable_parts=False
    )
    if shuffler is not None:
        RulesSubmission.objects.create(
            property=casino.property,
            game="casino_war",
            version=1,
            effective_from=date(2020, 1, 1),
            wheel_types=[],
            payout_odds={"initial": [1, 1], "tie": [10, 1], "war": [2, 1], "war_tie": [3, 1]},
            options={"casino_war_adjacent_boxes": 2, "casino_war_decks": decks, "automated_shuffler": shuffler},
            status="approved",
            created_by=casino.compliance,
        )
        layout = LayoutSubmission.objects.create(
            property=casino.property,
            name="War layout",
            features=WAR_LAYOUT,
            status="approved",
            created_by=casino.compliance,
            content_hash="0" * 64,
        )
        layout.tables.add(table)
    return table


def backs_for(decks):
    """The backs of a deck change that § 651a.3(a), (c)(2) allow: one colour, or two for two batches."""
    return ["red", "blue"] if decks >= 12 else ["red"]


def composition(decks):
    """What a valid deck change states besides its count (§ 651a.3(a), (c)(2)), as its details keep it."""
    return {"cards_per_deck": 52, "cover_cards_per_deck": 2, "back_colours": backs_for(decks)}


def change_decks(casino, table, decks, at=None, **stated):
    """A deck change stating 52 cards and 2 cover cards a deck and valid backs, unless `stated` says otherwise."""
    return services.deck_change_record(
        table_id=table.pk,
        decks=decks,
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
        at=at,
        **(composition(decks) | stated),
    )


def war_event(casino, table, kind, at=None, cards="inspected"):
    return services.table_event_record(
        table_id=table.pk,
        kind=kind,
        signature=sign(casino.security),
        recorded_by=casino.security,
        at=at,
        cards=cards if kind == "open" else None,
    )


@pytest.mark.parametrize("decks", [6, 8])
@pytest.mark.parametrize("shuffler", [None, False, True])
def test_a_manual_shoe_takes_six_or_eight_decks_whatever_is_approved(casino, decks, shuffler):
    table = war_table(casino, shuffler=shuffler, decks=12 if shuffler else 6)
    assert change_decks(casino, table, decks).details == {"decks": decks, **composition(decks)}


@pytest.mark.parametrize("decks", [12, 14, 16])
def test_twelve_to_sixteen_decks_with_an_approved_shuffler(casino, decks):
    table = war_table(casino, shuffler=True, decks=decks)
    assert change_decks(casino, table, decks).details == {"decks": decks, **composition(decks)}


@pytest.mark.parametrize("shuffler", [None, False])
@pytest.mark.parametrize("decks", [12, 14, 16])
def test_twelve_to_sixteen_decks_without_an_approved_shuffler_are_refused(casino, decks, shuffler):
    table = war_table(casino, shuffler=shuffler)
    (found,) = refused(
        lambda: change_decks(casino, table, decks),
        "casino_war_decks",
        "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)",
    )
    assert found.field == "decks"
    assert "no automated card shuffling device approved" in found.message


@pytest.mark.parametrize(
    "decks, shuffler, citation",
    [
        (5, None, "58 Pa. Code § 651a.3(a) (proposed, 41 Pa.B. 3000)"),
        (7, False, "58 Pa. Code § 651a.3(a) (proposed, 41 Pa.B. 3000)"),
        (10, False, "58 Pa. Code § 651a.3(a) (proposed, 41 Pa.B. 3000)"),
        (13, True, "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)"),
        (10, True, "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)"),
        (18, True, "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)"),
    ],
)
def test_other_deck_counts_are_refused(casino, decks, shuffler, citation):
    table = war_table(casino, shuffler=shuffler, decks=12 if shuffler else 6)
    refused(lambda: change_decks(casino, table, decks), "casino_war_decks", citation)


def test_the_24_hours_run_from_the_deck_change_not_from_a_reopening(casino):
    """§ 651a.3(d): "The decks of cards opened for use ... shall be changed at least once every 24
    hours": closing and reopening the table does not make old decks new."""
    table = war_table(casino, shuffler=False)
    changed = change_decks(casino, table, 6)
    opened = war_event(casino, table, "open")
    table.refresh_from_db()
    assert table.status.decks_due_at == changed.occurred_at + timedelta(hours=24)
    war_event(casino, table, "close")
    table.refresh_from_db()
    assert table.status.decks_due_at is None  # a closed table deals no cards
    reopened = war_event(casino, table, "open")
    assert reopened.occurred_at > opened.occurred_at
    table.refresh_from_db()
    assert table.status.decks_due_at == changed.occurred_at + timedelta(hours=24)


def test_decks_changed_while_closed_and_older_than_a_day_are_due_at_the_opening(casino):
    table = war_table(casino, shuffler=False)
    now = datetime(2026, 11, 23, 12, tzinfo=UTC)
    table.status.last_deck_change_at = now - timedelta(hours=30)
    table.status.state, table.status.last_opened_at = TableState.OPEN, now
    from inspections.logbook.deadlines import deadlines_set

    deadlines_set(table)
    assert table.status.decks_due_at == now - timedelta(hours=6)


def test_an_open_table_with_no_deck_change_on_record_is_due_at_its_opening_and_cured_by_one(casino):
    """Nothing in the logbook says how old its decks are: flagged from the opening, with the citation."""
    table = war_table(casino, shuffler=False)
    opened = war_event(casino, table, "open")
    table.refresh_from_db()
    assert table.status.decks_due_at == opened.occurred_at
    flag_services.scan(now=opened.occurred_at - timedelta(seconds=1))
    assert not ComplianceException.objects.filter(kind="decks_stale").exists()
    flag_services.scan(now=opened.occurred_at)
    (flag,) = ComplianceException.objects.filter(kind="decks_stale", status="open")
    assert (flag.citation, flag.due_at, flag.table_id) == (
        "58 Pa. Code § 651a.3(d) (proposed, 41 Pa.B. 3000)",
        opened.occurred_at,
        table.pk,
    )
    changed = change_decks(casino, table, 6)
    flag.refresh_from_db()
    assert (flag.status, flag.cured_by_entry) == ("resolved", changed)
    table.refresh_from_db()
    assert table.status.decks_due_at == changed.occurred_at + timedelta(hours=24)


# ---- § 651a.11: the automated card shuffling device's irregularities ----


def war_irregularity(casino, table, kind, **more):
    return services.irregularity_record(
        table_id=table.pk,
        kind=kind,
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
        **more,
    )


@pytest.mark.parametrize("kind, paragraph", [("shuffler_failed", "(d)"), ("shuffler_out_of_order", "(e)")])
def test_a_shuffler_irregularity_is_recorded_on_an_open_casino_war_table(casino, kind, paragraph):
    table = war_table(casino, shuffler=True, decks=12)
    change_decks(casino, table, 12)
    war_event(casino, table, "open")
    entry = war_irregularity(casino, table, kind)
    assert entry.details["irregularity"] == kind
    assert entry.description.startswith("Irregularity: ") and f"§ 651a.11{paragraph}" in entry.description
    table.refresh_from_db()
    assert table.state == TableState.OPEN


def test_the_api_takes_a_casino_war_irregularity(casino):
    from tests.support.api import client_for, signature

    table = war_table(casino, shuffler=True, decks=12)
    change_decks(casino, table, 12)
    war_event(casino, table, "open")
    response = client_for(casino.floorperson).post(
        "/api/irregularities/",
        {"table": table.pk, "kind": "shuffler_out_of_order", "signature": signature(casino.floorperson)},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["kind"] == "shuffler_out_of_order"


def test_a_roulette_reason_on_a_casino_war_table_is_refused(casino):
    table = war_table(casino, shuffler=False)
    change_decks(casino, table, 6)
    war_event(casino, table, "open")
    (found,) = refused(
        lambda: war_irregularity(casino, table, "same_direction"),
        "irregularity_kind_for_game",
        "58 Pa. Code § 651a.11 (proposed, 41 Pa.B. 3000)",
    )
    assert found.field == "kind"
    # The reasons in words, not the API's codes (its schema lists those).
    assert "automated card shuffling device jammed" in found.message and "shuffler_failed" not in found.message
    refused(
        lambda: war_irregularity(casino, table, "shuffler_failed", ball_replaced=True),
        "irregularity_kind_for_game",
        "Product policy: only a Roulette table has a ball (58 Pa. Code § 617a.1(a) describes the Roulette ball; "
        "neither § 619a.1 (proposed, 41 Pa.B. 3000) nor § 651a.2 (proposed, 41 Pa.B. 3000) has one)",
    )


def test_a_casino_war_irregularity_needs_the_table_open(casino):
    table = war_table(casino, shuffler=True, decks=12)
    refused(
        lambda: war_irregularity(casino, table, "shuffler_failed"),
        "table_not_open",
        "58 Pa. Code § 651a.11 (proposed, 41 Pa.B. 3000)",
    )


def test_a_shuffler_reason_on_a_roulette_table_is_refused(casino):
    from tests.support.logbook import event, inspect

    inspect(casino)
    event(casino, "open")
    found = refused(
        lambda: war_irregularity(casino, casino.table, "shuffler_failed"),
        "irregularity_kind_for_game",
        "58 Pa. Code § 617a.6",
    )
    (found,) = [v for v in found if v.code == "irregularity_kind_for_game"]
    assert "ball spun in the same direction as the wheel" in found.message and "same_direction" not in found.message


# ---- § 651a.4: the cards at opening ----


@pytest.mark.parametrize("cards", ["inspected", "preinspected"])
def test_a_casino_war_table_opens_stating_how_its_cards_were_inspected(casino, cards):
    table = war_table(casino, shuffler=False)
    change_decks(casino, table, 6)
    opened = war_event(casino, table, "open", cards=cards)
    assert opened.details == {"cards": cards}
    assert "§ 651a.4" in opened.description


@pytest.mark.parametrize("cards", [None, "", "looked at"])
def test_a_casino_war_opening_without_its_card_inspection_is_refused(casino, cards):
    table = war_table(casino, shuffler=False)
    change_decks(casino, table, 6)
    (found,) = refused(
        lambda: war_event(casino, table, "open", cards=cards),
        "cards_at_opening",
        "58 Pa. Code § 651a.4 (proposed, 41 Pa.B. 3000)",
    )
    assert found.field == "cards"
    assert "received preinspected and preshuffled" in found.message and "(inspected" not in found.message


def test_a_roulette_opening_states_no_cards(casino):
    from tests.support.logbook import inspect

    inspect(casino)
    refused(
        lambda: services.table_event_record(
            table_id=casino.table.pk,
            kind="open",
            signature=sign(casino.security),
            recorded_by=casino.security,
            cards="inspected",
        ),
        "cards_at_opening",
        "58 Pa. Code § 651a.4 (proposed, 41 Pa.B. 3000)",
    )


def test_the_api_and_the_floor_open_a_casino_war_table_with_its_cards(client, casino):
    from tests.factories import PASSWORD
    from tests.support.api import client_for, signature

    table = war_table(casino, shuffler=False)
    change_decks(casino, table, 6)
    api = client_for(casino.security)
    refused_body = api.post(
        f"/api/tables/{table.pk}/open/", {"signature": signature(casino.security)}, format="json"
    ).json()
    assert {(e["code"], e["citation"], e["field"]) for e in refused_body["errors"]} == {
        ("cards_at_opening", "58 Pa. Code § 651a.4 (proposed, 41 Pa.B. 3000)", "cards")
    }
    response = api.post(
        f"/api/tables/{table.pk}/open/",
        {"cards": "preinspected", "signature": signature(casino.security)},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["table"]["state"] == "open"
    assert Entry.objects.filter(table=table, kind="open").get().details == {"cards": "preinspected"}
    war_event(casino, table, "close")
    client.force_login(casino.security)
    page = client.get(f"/tables/{table.pk}/open/").content.decode()
    assert 'name="cards"' in page
    client.post(
        f"/tables/{table.pk}/open/",
        {"cards": "inspected", "username": casino.security.username, "password": PASSWORD},
    )
    table.refresh_from_db()
    assert table.state == TableState.OPEN


def test_the_floor_page_records_a_casino_war_irregularity(client, casino):
    """§ 651a.11 (proposed): offered on the open table's page, with its own reasons and no ball."""
    from tests.inspections.test_web import signed

    table = war_table(casino, shuffler=True, decks=12)
    change_decks(casino, table, 12)
    war_event(casino, table, "open")
    client.force_login(casino.floorperson)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f"/tables/{table.pk}/irregularity/" in page and ">Irregularity<" in page
    form = client.get(f"/tables/{table.pk}/irregularity/").content.decode()
    assert "§ 651a.11 (proposed, 41 Pa.B. 3000)" in form
    assert 'value="shuffler_out_of_order"' in form and 'name="new_ball"' not in form
    assert 'value="same_direction"' not in form  # Roulette's reasons are not a Casino War table's
    response = client.post(
        f"/tables/{table.pk}/irregularity/", signed(casino.floorperson, kind="shuffler_out_of_order")
    )
    assert response.status_code == 302, response.content.decode()
    entry = Entry.objects.filter(table=table).latest("seq")
    assert entry.details["irregularity"] == "shuffler_out_of_order"
