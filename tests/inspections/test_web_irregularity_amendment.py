"""The floor's "no spin" and amendment forms, through Django's test client."""

import re
from decimal import Decimal

import pytest
import time_machine

from compliance.casinos.models import Ball, Game, TableState
from inspections.logbook.models import Entry, EntryKind, TableStatus
from tests.factories import PASSWORD, GamingTableFactory
from tests.inspections.test_web import signed
from tests.support.logbook import event, inspect


def spare_ball(casino, serial: str = "B-SPARE") -> Ball:
    return Ball.objects.create(
        property=casino.property, serial=serial, material="non_metallic", diameter_inches=Decimal("0.8125")
    )


def open_table(casino) -> None:
    inspect(casino)
    event(casino, "open")


# The "no spin" (irregularity) form.


def test_a_no_spin_with_a_new_ball_is_recorded_on_an_open_table(client, casino):
    open_table(casino)
    ball = spare_ball(casino)
    client.force_login(casino.floorperson)
    response = client.post(
        f"/tables/{casino.table.pk}/irregularity/",
        signed(casino.floorperson, kind="ball_left_wheel", ball_replaced="on", new_ball=ball.pk, notes="Ball chipped"),
        follow=True,
    )
    assert "Recorded: Irregularity (table R-01, entry #3)." in response.content.decode()
    entry = Entry.objects.get(kind=EntryKind.IRREGULARITY)
    assert entry.details == {
        "irregularity": "ball_left_wheel",
        "ball_replaced": True,
        "new_ball": ball.pk,
        "notes": "Ball chipped",
    }
    assert entry.signatures.get().signer == casino.floorperson
    casino.table.refresh_from_db()
    assert casino.table.ball == ball


def test_a_no_spin_on_a_closed_table_shows_the_citation_and_keeps_the_notes(client, casino):
    client.force_login(casino.floorperson)
    response = client.post(
        f"/tables/{casino.table.pk}/irregularity/",
        signed(casino.floorperson, kind="same_direction", notes="Dealer spun with the wheel"),
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "58 Pa. Code § 617a.6" in page and "is not open" in page
    assert "Dealer spun with the wheel" in page
    assert re.search(r'value="same_direction"[^>]*checked', page)
    assert not Entry.objects.filter(kind=EntryKind.IRREGULARITY).exists()


def test_a_no_spin_is_offered_only_at_an_open_roulette_table(client, casino):
    client.force_login(casino.security)
    assert "/irregularity/" not in client.get(f"/tables/{casino.table.pk}/").content.decode()
    open_table(casino)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert f'href="/tables/{casino.table.pk}/irregularity/"' in page
    big_six = GamingTableFactory(property=casino.property, number="B6-01", game=Game.BIG_SIX, wheel_type="")
    TableStatus.objects.filter(table_id=big_six.pk).update(state=TableState.OPEN)
    assert "/irregularity/" not in client.get(f"/tables/{big_six.pk}/").content.decode()


def test_the_no_spin_form_lists_the_rulebooks_reasons_and_the_propertys_other_balls(client, casino, other_casino):
    from compliance.rulebook import rulebook_for

    open_table(casino)
    spare = spare_ball(casino)
    theirs = spare_ball(other_casino, serial="B-THEIRS")
    client.force_login(casino.floorperson)
    page = client.get(f"/tables/{casino.table.pk}/irregularity/").content.decode()
    for code, label in rulebook_for(casino.property.jurisdiction).IRREGULARITY_KINDS:
        assert f'value="{code}"' in page and label[1:] in page
    assert f'<option value="{spare.pk}">B-SPARE' in page
    assert f'<option value="{casino.table.ball.pk}">' not in page and theirs.serial not in page


def test_a_new_ball_without_a_replacement_is_a_form_error(client, casino):
    open_table(casino)
    ball = spare_ball(casino)
    client.force_login(casino.floorperson)
    response = client.post(
        f"/tables/{casino.table.pk}/irregularity/",
        signed(casino.floorperson, kind="foreign_object", new_ball=ball.pk),
    )
    assert "A new ball is named only when the ball was replaced." in response.content.decode()
    assert not Entry.objects.filter(kind=EntryKind.IRREGULARITY).exists()


# The amendment form.


def test_each_entry_has_an_amend_link_for_those_who_write(client, casino, regulator):
    entry = inspect(casino)
    client.force_login(casino.security)
    assert f'href="/entries/{entry.pk}/amend/"' in client.get(f"/tables/{casino.table.pk}/").content.decode()
    client.force_login(regulator)
    assert "/amend/" not in client.get(f"/tables/{casino.table.pk}/").content.decode()


def test_the_amendment_form_shows_the_entry_and_only_the_fields_it_has(client, casino):
    inspection = inspect(casino)
    cover = event(casino, "cover")
    client.force_login(casino.floorperson)
    page = client.get(f"/entries/{inspection.pk}/amend/").content.decode()
    assert f"#{inspection.seq} · Inspection" in page and casino.floorperson.credential_number in page
    assert 'type="datetime-local"' in page and "id_corrected_notes" in page
    assert "id_corrected_description" not in page
    page = client.get(f"/entries/{cover.pk}/amend/").content.decode()
    assert 'type="datetime-local"' in page
    assert "id_corrected_notes" not in page and "id_corrected_description" not in page


# The inspection is logged at 10:00 New York time; its correction (09:30) is within the hours an
# entry may be back-dated (ENTRY_MAX_BACKDATE_HOURS).
@time_machine.travel("2024-03-01T15:00:00Z", tick=True)
def test_an_inspections_notes_and_time_are_amended(client, casino):
    original = inspect(casino)
    client.force_login(casino.floorperson)
    response = client.post(
        f"/entries/{original.pk}/amend/",
        signed(
            casino.floorperson,
            reason="Typed the wrong time",
            corrected_time="2024-03-01T09:30",
            corrected_notes="Ball checked with the compass",
        ),
        follow=True,
    )
    assert response.redirect_chain == [(f"/tables/{casino.table.pk}/", 302)]
    assert "Recorded: Amendment (table R-01, entry #2)." in response.content.decode()
    amendment = Entry.objects.get(kind=EntryKind.AMENDMENT)
    assert amendment.amends == original
    # The time typed is the property's (New York, winter: UTC−5), sent with its offset.
    assert amendment.details == {
        "reason": "Typed the wrong time",
        "correction": {"performed_at": "2024-03-01T09:30:00-05:00", "notes": "Ball checked with the compass"},
    }
    assert amendment.signatures.get().signer == casino.floorperson


def test_an_amendment_without_a_correction_is_refused_with_a_form_error(client, casino):
    original = inspect(casino)
    client.force_login(casino.floorperson)
    response = client.post(f"/entries/{original.pk}/amend/", signed(casino.floorperson, reason="Something was off"))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Say what the correct values are. (Product policy, derived from 58 Pa. Code § 617a.2(e))" in page
    assert "Something was off" in page
    assert not Entry.objects.filter(kind=EntryKind.AMENDMENT).exists()


def test_a_corrected_time_in_the_future_is_shown_at_the_time_field(client, casino):
    original = inspect(casino)
    client.force_login(casino.floorperson)
    response = client.post(
        f"/entries/{original.pk}/amend/",
        signed(casino.floorperson, reason="Clock", corrected_time="2999-01-01T10:00", corrected_notes="kept"),
    )
    page = response.content.decode()
    at = page.index("The corrected time is in the future. (58 Pa. Code § 617a.2(e))")
    assert page.index('id="id_corrected_time"') < at < page.index('id="id_corrected_notes"')
    assert 'value="2999-01-01T10:00"' in page and "kept</textarea>" in page
    assert not Entry.objects.filter(kind=EntryKind.AMENDMENT).exists()


def test_an_amendment_with_a_wrong_password_is_refused_and_the_form_kept(client, casino):
    original = inspect(casino)
    client.force_login(casino.floorperson)
    response = client.post(
        f"/entries/{original.pk}/amend/",
        {
            "username": casino.floorperson.username,
            "password": "not " + PASSWORD,
            "reason": "Wrong notes",
            "corrected_notes": "Compass",
        },
    )
    page = response.content.decode()
    assert "is wrong" in page and "58 Pa. Code § 617a.2(e)" in page
    assert "Wrong notes" in page and "Compass</textarea>" in page
    assert not Entry.objects.filter(kind=EntryKind.AMENDMENT).exists()


def test_another_propertys_entry_is_not_found(client, casino, other_casino):
    theirs = inspect(other_casino)
    client.force_login(casino.compliance)
    assert client.get(f"/entries/{theirs.pk}/amend/").status_code == 404
    response = client.post(f"/entries/{theirs.pk}/amend/", signed(casino.compliance, reason="x", corrected_notes="y"))
    assert response.status_code == 404
    assert not Entry.objects.filter(kind=EntryKind.AMENDMENT).exists()


@pytest.mark.parametrize("path", ["/entries/{entry}/amend/", "/tables/{table}/irregularity/"])
def test_a_regulator_may_not_amend_or_record_a_no_spin(client, casino, regulator, path):
    open_table(casino)
    url = path.format(entry=Entry.objects.first().pk, table=casino.table.pk)
    client.force_login(regulator)
    assert client.get(url).status_code == 403
    response = client.post(url, signed(regulator, reason="x", corrected_notes="y", kind="same_direction"))
    assert response.status_code == 403
    assert "needs one of these roles" in response.content.decode()
    assert Entry.objects.count() == 2
