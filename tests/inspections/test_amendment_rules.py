"""Amendments answer to the same rules as the entries they correct (issue 31, item 2): a correction
writes nothing creation refuses, at the table's jurisdiction, game and configuration."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from compliance.casinos.models import TableState
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook import services
from tests.compliance.test_jurisdiction_citations import JURISDICTIONS, borrowed, own
from tests.factories import GamingTableFactory, PropertyFactory, configure_for_opening
from tests.inspections.test_casino_war_logbook import change_decks, war_event, war_irregularity, war_table
from tests.support.logbook import adjust, event, inspect, refused
from tests.support.people import sign, staff_of

BALL_ROULETTE_ONLY = (
    "Product policy: only a Roulette table has a ball (58 Pa. Code § 617a.1(a) describes the Roulette ball; "
    "neither § 619a.1 (proposed, 41 Pa.B. 3000) nor § 651a.2 (proposed, 41 Pa.B. 3000) has one)"
)
IRREGULARITIES_651A = "58 Pa. Code § 651a.11 (proposed, 41 Pa.B. 3000)"


@pytest.fixture(params=JURISDICTIONS)
def house(request, db):
    """A property of each jurisdiction, with its staff and one open double-zero Roulette table."""
    people = staff_of(PropertyFactory(name=f"House {request.param}", jurisdiction=request.param))
    people.table = configure_for_opening(
        GamingTableFactory(property=people.property, number="R-01"), created_by=people.compliance
    )
    people.code = request.param
    inspect(people)
    event(people, "open")
    return people


@pytest.fixture
def war(db):
    """A Pennsylvania Casino War table open on a manual shoe (no shuffler approved), its decks changed."""
    people = staff_of(PropertyFactory(name="House of War", jurisdiction="PA"))
    people.table = war_table(people, shuffler=False)
    people.decks = change_decks(people, people.table, 6)
    war_event(people, people.table, "open")
    return people


def amend(people, entry, correction):
    return services.amendment_record(
        entry_id=entry.pk,
        reason="Wrote the wrong value.",
        correction=correction,
        signature=sign(people.compliance),
        recorded_by=people.compliance,
    )


def test_a_no_spin_is_corrected_only_to_a_kind_the_tables_text_lists(house):
    """§ 617a.6(c) lists a ball leaving the wheel; N.J.A.C. 19:47-5.4 and Section 4(d) do not."""
    entry = war_irregularity(house, house.table, "same_direction")
    if house.code == "PA":
        assert amend(house, entry, {"kind": "ball_left_wheel"}).kind == "amendment"
        return
    found = refused(
        lambda: amend(house, entry, {"kind": "ball_left_wheel"}),
        "irregularity_kind_not_in_jurisdiction",
        own(house.code, "", "N.J.A.C. 19:47-5.4", "Section 4(d)"),
    )
    assert {v.field for v in found} == {"correction.kind"}
    assert amend(house, entry, {"kind": "foreign_object"}).kind == "amendment"


def test_a_roulette_no_spin_is_not_corrected_to_a_casino_war_kind(house):
    entry = war_irregularity(house, house.table, "same_direction")
    refused(
        lambda: amend(house, entry, {"kind": "shuffler_failed"}),
        "irregularity_kind_for_game",
        own(house.code, "58 Pa. Code § 617a.6", "N.J.A.C. 19:47-5.4", "Section 4(d)"),
    )


def test_a_casino_war_irregularity_is_not_corrected_to_a_roulette_kind_or_a_ball(war):
    entry = war_irregularity(war, war.table, "shuffler_failed")
    refused(lambda: amend(war, entry, {"kind": "same_direction"}), "irregularity_kind_for_game", IRREGULARITIES_651A)
    refused(lambda: amend(war, entry, {"ball_replaced": True}), "irregularity_kind_for_game", BALL_ROULETTE_ONLY)
    assert amend(war, entry, {"kind": "shuffler_out_of_order"}).kind == "amendment"
    # Corrected once, the entry's kind is the corrected one: a later correction of the ball meets it.
    refused(lambda: amend(war, entry, {"ball_replaced": True}), "irregularity_kind_for_game", BALL_ROULETTE_ONLY)


@pytest.mark.parametrize(
    ("decks", "citation"),
    [
        (7, "58 Pa. Code § 651a.3(a) (proposed, 41 Pa.B. 3000)"),
        (12, "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)"),
    ],
)
def test_a_deck_change_is_corrected_only_to_decks_the_table_may_use(war, decks, citation):
    """Six or eight on the manual shoe; 12 to 16 only with an approved shuffler (§ 651a.3(a), (c))."""
    found = refused(lambda: amend(war, war.decks, {"decks": decks}), "casino_war_decks", citation)
    assert {v.field for v in found} == {"correction.decks"}
    assert amend(war, war.decks, {"decks": 8}).kind == "amendment"


def test_a_deck_change_at_a_shuffler_table_is_corrected_to_its_batches(db):
    people = staff_of(PropertyFactory(name="Shuffle House", jurisdiction="PA"))
    table = war_table(people, shuffler=True, decks=12)
    entry = change_decks(people, table, 12)
    assert amend(people, entry, {"decks": 16}).kind == "amendment"
    refused(
        lambda: amend(people, entry, {"decks": 13}),
        "casino_war_decks",
        "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)",
    )


# ---- § 617a.2(c): all adjustments before the inspection, on the log as amended ----


@pytest.fixture(params=JURISDICTIONS)
def ready(request, db):
    """A table of each jurisdiction adjusted an hour ago and inspected after it: ready to open."""
    people = staff_of(PropertyFactory(name=f"House {request.param}", jurisdiction=request.param))
    people.table = configure_for_opening(
        GamingTableFactory(property=people.property, number="R-01"), created_by=people.compliance
    )
    people.code = request.param
    now = timezone.now().replace(microsecond=0)
    people.adjustment = adjust(people, at=now - timedelta(minutes=60))
    people.inspection = inspect(people, at=now - timedelta(minutes=50))
    people.now = now
    return people


def later(people, minutes):
    return (people.now - timedelta(minutes=minutes)).isoformat()


def adjustments_before_inspection(code):
    return borrowed(code, "58 Pa. Code § 617a.2(c)", "sets no procedure")


def test_an_adjustment_corrected_to_after_the_inspection_voids_it(ready):
    amend(ready, ready.adjustment, {"performed_at": later(ready, 40)})
    ready.table.refresh_from_db()
    assert (ready.table.state, ready.table.status.inspection_void_reason) == (TableState.UNLOCKED, "adjustment")
    refused(lambda: event(ready, "open"), "adjustment_after_inspection", adjustments_before_inspection(ready.code))
    inspect(ready)
    assert event(ready, "open").kind == "open"


def test_an_inspection_corrected_to_before_the_adjustment_no_longer_counts(ready):
    amend(ready, ready.inspection, {"performed_at": later(ready, 70)})
    refused(lambda: event(ready, "open"), "adjustment_after_inspection", adjustments_before_inspection(ready.code))


def test_a_correction_that_keeps_the_order_keeps_the_table_ready(ready):
    amend(ready, ready.adjustment, {"performed_at": later(ready, 55)})
    ready.table.refresh_from_db()
    assert ready.table.state == TableState.INSPECTED
    assert event(ready, "open").kind == "open"


def test_an_open_table_whose_adjustment_is_corrected_to_after_its_inspection_is_flagged(ready):
    event(ready, "open")
    amend(ready, ready.adjustment, {"performed_at": later(ready, 40)})
    ready.table.refresh_from_db()
    assert ready.table.state == TableState.OPEN  # the logbook records what happened; the scan flags it
    assert ready.table.status.adjusted_since == ready.now - timedelta(minutes=40)
    flag_services.scan(now=timezone.now())
    flag = ComplianceException.objects.get(table=ready.table, kind="adjusted_after_inspection")
    assert flag.citation == adjustments_before_inspection(ready.code)


def test_a_replacement_corrected_to_after_the_inspection_voids_it(db):
    people = staff_of(PropertyFactory(name="House PA", jurisdiction="PA"))
    people.table = configure_for_opening(
        GamingTableFactory(property=people.property, number="R-01"), created_by=people.compliance
    )
    now = timezone.now().replace(microsecond=0)
    replacement = adjust(people, "replacement", at=now - timedelta(minutes=60), part="rotor", description="New rotor")
    inspect(people, at=now - timedelta(minutes=50))
    amend(people, replacement, {"performed_at": (now - timedelta(minutes=40)).isoformat()})
    refused(lambda: event(people, "open"), "replacement_without_inspection", "58 Pa. Code § 617a.2(d)")
