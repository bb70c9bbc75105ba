"""What the decks of a Casino War deck change are (issue 31, item 4, last part): § 651a.3(a) (proposed,
41 Pa.B. 3000), "Each deck of cards must consist of 52 cards and 2 cover cards", the six or eight decks
"identical in appearance"; § 651a.3(c)(2), with an automated card shuffling device, "the backs of the
cards in one batch must be of a different color than the cards included in the other batch". Refused
on every path that writes a deck change: the service, the API, and an amendment by the API or the
floor's form."""

from __future__ import annotations

import pytest

from inspections.logbook.admin import details_in_words
from inspections.logbook.models import Entry, EntryKind
from tests.conftest import sign, staff_of
from tests.factories import PropertyFactory
from tests.inspections.test_api import assert_refused, client_for, signature
from tests.inspections.test_casino_war_logbook import change_decks, composition, war_event, war_table
from tests.inspections.test_services import refused
from tests.inspections.test_web import signed

AMENDMENT_POLICY = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
DECK_651A_3A = "58 Pa. Code § 651a.3(a) (proposed, 41 Pa.B. 3000)"
BATCHES_651A_3C2 = "58 Pa. Code § 651a.3(c)(2) (proposed, 41 Pa.B. 3000)"


@pytest.fixture
def house(db):
    """A Pennsylvania property with a manual-shoe Casino War table and a shuffler one."""
    people = staff_of(PropertyFactory(name="House of War", jurisdiction="PA"))
    people.manual = war_table(people, shuffler=False)
    return people


@pytest.fixture
def shuffled(db):
    people = staff_of(PropertyFactory(name="House of Batches", jurisdiction="PA"))
    people.table = war_table(people, shuffler=True, decks=12)
    return people


# ---- The service ----


def test_a_deck_change_states_52_cards_2_cover_cards_and_one_colour_of_back(house):
    entry = change_decks(house, house.manual, 8)
    assert entry.details == {"decks": 8, "cards_per_deck": 52, "cover_cards_per_deck": 2, "back_colours": ["red"]}
    assert entry.description == "8 new decks put in the shoe (52 cards and 2 cover cards each; backs red)"
    assert details_in_words(entry.details, property_id=house.property.pk) == [
        ("Decks", "8"),
        ("Cards in each deck", "52"),
        ("Cover cards in each deck", "2"),
        ("Colours of the backs", "red"),
    ]


@pytest.mark.parametrize(
    ("stated", "code", "field"),
    [
        ({"cards_per_deck": None}, "deck_cards", "cards_per_deck"),
        ({"cover_cards_per_deck": None}, "deck_cards", "cover_cards_per_deck"),
        ({"cards_per_deck": 53}, "deck_cards", "cards_per_deck"),
        ({"cover_cards_per_deck": 1}, "deck_cards", "cover_cards_per_deck"),
        ({"back_colours": None}, "deck_backs", "back_colours"),
        ({"back_colours": ["red", "blue"]}, "deck_backs", "back_colours"),
        ({"back_colours": ["  "]}, "deck_backs", "back_colours"),
    ],
)
def test_a_manual_shoes_decks_are_refused_citing_651a_3a(house, stated, code, field):
    found = refused(lambda: change_decks(house, house.manual, 6, **stated), code, DECK_651A_3A)
    assert [v.field for v in found] == [field]
    assert not Entry.objects.filter(kind=EntryKind.DECK_CHANGE).exists()


def test_the_refusal_names_what_was_stated(house):
    (found,) = refused(lambda: change_decks(house, house.manual, 6, cards_per_deck=50), "deck_cards", DECK_651A_3A)
    assert found.message == (
        "Each deck of cards must consist of 52 cards and 2 cover cards; these decks have 50 cards and 2 cover cards."
    )


def test_a_shufflers_two_batches_have_backs_of_different_colours(shuffled):
    entry = change_decks(shuffled, shuffled.table, 14, back_colours=["Red", " blue "])
    assert entry.details["back_colours"] == ["Red", "blue"]
    for backs in (["red"], None, ["red", ""]):
        refused(
            lambda backs=backs: change_decks(shuffled, shuffled.table, 12, back_colours=backs),
            "deck_backs",
            BATCHES_651A_3C2,
        )
    (same,) = refused(
        lambda: change_decks(shuffled, shuffled.table, 16, back_colours=["Red", "red "]), "deck_backs", BATCHES_651A_3C2
    )
    assert same.message == (
        "Both batches' backs are Red: the backs of the cards in one batch must be of a different colour than the "
        "cards in the other batch."
    )
    assert same.field == "back_colours"


def test_a_count_of_decks_refused_is_not_judged_again_by_its_backs(house):
    """12 decks without an approved shuffler: the count's refusal says it (§ 651a.3(c)), not the backs too."""
    found = refused(
        lambda: change_decks(house, house.manual, 12, back_colours=["red"]),
        "casino_war_decks",
        "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)",
    )
    assert [v.code for v in found] == ["casino_war_decks"]


# ---- The API, in English and Spanish ----


def _post(people, table, language="en", **fields):
    return client_for(people.floorperson).post(
        "/api/deck-changes/",
        {"table": table.pk, "decks": 6, "signature": signature(people.floorperson), **fields},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_the_api_records_and_reads_back_the_decks_composition(house):
    response = _post(house, house.manual, **composition(6))
    assert response.status_code == 201, response.content
    assert {name: response.json()[name] for name in composition(6)} == composition(6)


def test_the_api_refuses_a_deck_change_without_its_cards_or_backs(house):
    response = _post(house, house.manual)
    assert_refused(response, "deck_cards", DECK_651A_3A, "cards_per_deck")
    assert_refused(response, "deck_backs", DECK_651A_3A, "back_colours")
    spanish = _post(house, house.manual, "es", cards_per_deck=52, cover_cards_per_deck=3, back_colours=["rojo"])
    assert_refused(spanish, "deck_cards", DECK_651A_3A, "cover_cards_per_deck")
    assert spanish.json()["errors"][0]["message"] == (
        "Cada baraja debe constar de 52 cartas y 2 cartas de corte; estas barajas tienen 52 cartas y 3 cartas de corte."
    )


def test_the_api_refuses_two_batches_of_one_colour_in_spanish_too(shuffled):
    fields = {"decks": 12, "cards_per_deck": 52, "cover_cards_per_deck": 2, "back_colours": ["azul", "Azul"]}
    english = _post(shuffled, shuffled.table, **fields)
    assert_refused(english, "deck_backs", BATCHES_651A_3C2, "back_colours")
    spanish = _post(shuffled, shuffled.table, "es", **fields)
    assert_refused(spanish, "deck_backs", BATCHES_651A_3C2, "back_colours")
    assert spanish.json()["errors"][0]["message"] == (
        "Los reversos de ambos lotes son azul: los reversos de las cartas de un lote deben ser de un color distinto "
        "de los de las cartas del otro lote."
    )
    assert not Entry.objects.filter(kind=EntryKind.DECK_CHANGE).exists()


# ---- Amendments: the service, the API and the floor's form ----


@pytest.fixture
def changed(shuffled):
    shuffled.decks = change_decks(shuffled, shuffled.table, 12)
    war_event(shuffled, shuffled.table, "open")
    return shuffled


def _amend(people, correction):
    from inspections.logbook import services

    return services.amendment_record(
        entry_id=people.decks.pk,
        reason="Wrote the wrong value.",
        correction=correction,
        signature=sign(people.compliance),
        recorded_by=people.compliance,
    )


def test_a_correction_keeps_the_batches_apart_and_the_decks_whole(changed):
    found = refused(lambda: _amend(changed, {"back_colours": ["blue", "blue"]}), "deck_backs", BATCHES_651A_3C2)
    assert [v.field for v in found] == ["correction.back_colours"]
    found = refused(lambda: _amend(changed, {"cover_cards_per_deck": 0}), "deck_cards", DECK_651A_3A)
    assert [v.field for v in found] == ["correction.cover_cards_per_deck"]
    # The entry's backs as recorded (red, blue) hold for 16 decks; corrected to six, one colour is asked.
    assert _amend(changed, {"decks": 16}).kind == EntryKind.AMENDMENT
    refused(lambda: _amend(changed, {"back_colours": ["green"]}), "deck_backs", BATCHES_651A_3C2)
    assert _amend(changed, {"back_colours": ["green", "red"]}).kind == EntryKind.AMENDMENT
    refused(lambda: _amend(changed, {"back_colours": "green"}), "correction_value", AMENDMENT_POLICY)


def test_a_deck_change_recorded_before_its_composition_was_asked_is_corrected_as_it_was(house):
    """Records are never rewritten: a deck change without cards or backs stated is corrected in its count
    alone, and judged on them as soon as a correction states one (the rule, on such an entry's details)."""
    rules = house.property.rulebook()

    def corrected(correction):
        return rules.check_corrected_entry(
            table=house.manual,
            entry_kind="deck_change",
            details={"decks": 6},
            correction=correction,
            rules_submission=None,
        )

    assert [v for v in corrected({"decks": 8}) if v] == []
    found = [v for v in corrected({"cards_per_deck": 52}) if v]
    assert [(v.code, v.citation, v.field) for v in found] == [
        ("deck_cards", DECK_651A_3A, "correction.cover_cards_per_deck"),
        ("deck_backs", DECK_651A_3A, "correction.back_colours"),
    ]


def test_the_api_refuses_a_correction_to_one_colour_of_backs_for_two_batches(changed):
    response = client_for(changed.compliance).post(
        "/api/amendments/",
        {
            "entry": changed.decks.pk,
            "reason": "Both batches were blue.",
            "correction": {"back_colours": ["blue", "Blue"]},
            "signature": signature(changed.compliance),
        },
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert_refused(response, "deck_backs", BATCHES_651A_3C2, "correction.back_colours")
    assert "lotes" in response.json()["errors"][0]["message"]


def test_the_floors_amendment_form_refuses_what_the_rule_refuses(client, changed):
    client.force_login(changed.compliance)
    url = f"/entries/{changed.decks.pk}/amend/"
    page = client.get(url).content.decode()
    assert 'id="id_corrected_back_colours"' in page and 'id="id_corrected_cards_per_deck"' in page
    response = client.post(url, signed(changed.compliance, reason="Backs", corrected_back_colours="blue, BLUE"))
    page = response.content.decode()
    assert response.status_code == 200
    assert f"({BATCHES_651A_3C2})" in page
    at = page.index("the backs of the cards in one batch must be of a different colour")
    assert page.index('id="id_corrected_back_colours"') < at
    assert not Entry.objects.filter(kind=EntryKind.AMENDMENT).exists()
    response = client.post(url, signed(changed.compliance, reason="Cards", corrected_cards_per_deck="51"))
    assert f"({DECK_651A_3A})" in response.content.decode()
    client.post(url, signed(changed.compliance, reason="Backs", corrected_back_colours="blue, green"), follow=True)
    amendment = Entry.objects.get(kind=EntryKind.AMENDMENT)
    assert amendment.details["correction"] == {"back_colours": ["blue", "green"]}
