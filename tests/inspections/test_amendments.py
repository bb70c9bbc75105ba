"""Amendments: an entry made in error is marked so, a duplicate names the entry it repeats, any
field may be corrected; the signed original stays as it was, and an inspection amended away does
not open the table (§ 617a.2(a))."""

from datetime import timedelta

import pytest
from django.utils import timezone

from compliance.casinos.models import TableState
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook import services
from inspections.logbook.models import Entry
from inspections.reports.kinds import KINDS_BY_CODE
from inspections.reports.models import Report
from tests.factories import PASSWORD, GamingTableFactory
from tests.support.api import assert_refused, client_for, signature
from tests.support.logbook import ALL_PASS, adjust, event, inspect, refused, state
from tests.support.people import sign

INSPECTION = "58 Pa. Code § 617a.2(a)"
# § 617a.2(e) asks for the log; correcting it by a signed amendment is the product's policy.
LOG = "Product policy, derived from 58 Pa. Code § 617a.2(e)"


def amend(casino, entry, *, kind="correction", duplicate_of=None, correction=None, who=None, reason="Tapped twice"):
    who = who or casino.floorperson
    return services.amendment_record(
        entry_id=entry.pk,
        reason=reason,
        correction=correction,
        amendment_kind=kind,
        duplicate_of=duplicate_of,
        signature=sign(who),
        recorded_by=who,
    )


def opening(casino):
    return lambda: event(casino, "open")


def unlocked(casino):
    event(casino, "cover")
    event(casino, "unlock")


def test_an_inspection_entered_in_error_does_not_open_the_table(casino):
    unlocked(casino)
    mistaken = inspect(casino)
    amendment = amend(casino, mistaken, kind="entered_in_error", reason="Logged at the wrong table")
    assert amendment.description == f"Entry #{mistaken.seq} marked entered in error: Logged at the wrong table"
    assert state(casino) == TableState.UNLOCKED
    refused(opening(casino), "inspection_amended_away", INSPECTION)
    inspect(casino)
    event(casino, "open")
    assert state(casino) == TableState.OPEN


def test_the_original_entry_stays_as_it_was_signed(casino):
    unlocked(casino)
    mistaken = inspect(casino)
    before = (mistaken.entry_hash, mistaken.details, mistaken.passed)
    amend(casino, mistaken, kind="entered_in_error")
    mistaken.refresh_from_db()
    assert (mistaken.entry_hash, mistaken.details, mistaken.passed) == before


def test_an_open_table_whose_inspection_was_entered_in_error_is_flagged(casino):
    unlocked(casino)
    mistaken = inspect(casino)
    event(casino, "open")
    amend(casino, mistaken, kind="entered_in_error")
    casino.table.refresh_from_db()
    assert casino.table.state == TableState.OPEN  # the log says what happened: it is open
    assert casino.table.status.uninspected_since == casino.table.status.last_opened_at
    flag_services.scan(now=timezone.now() + timedelta(minutes=1))
    flag = ComplianceException.objects.get(table=casino.table, status="open")
    assert flag.citation == INSPECTION


def test_an_earlier_inspection_entered_in_error_changes_nothing(casino):
    unlocked(casino)
    first = inspect(casino)
    inspect(casino)
    amend(casino, first, kind="entered_in_error")
    event(casino, "open")
    assert state(casino) == TableState.OPEN


def test_a_duplicate_of_the_inspection_just_before_still_opens_the_table(casino):
    unlocked(casino)
    first = inspect(casino)
    second = inspect(casino)
    amendment = amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    assert amendment.description.startswith(f"Entry #{second.seq} marked duplicate of #{first.seq}")
    event(casino, "open")
    assert state(casino) == TableState.OPEN


def test_a_duplicate_of_an_inspection_made_before_an_adjustment_does_not_count(casino):
    unlocked(casino)
    first = inspect(casino)
    adjust(casino)
    second = inspect(casino)
    amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    refused(opening(casino), "adjustment_after_inspection", "58 Pa. Code § 617a.2(c)")


def test_a_duplicate_of_a_failed_inspection_does_not_count(casino):
    unlocked(casino)
    first = inspect(casino, items={**ALL_PASS, "parts_secure": False})
    second = inspect(casino)
    amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    refused(opening(casino), "inspection_failed", INSPECTION)


def test_a_duplicate_names_an_earlier_entry_of_the_same_table_and_kind(casino):
    unlocked(casino)
    first = inspect(casino)
    second = inspect(casino)
    other_table = GamingTableFactory(property=casino.property, number="R-02")
    elsewhere = services.table_event_record(
        table_id=other_table.pk, kind="cover", signature=sign(casino.security), recorded_by=casino.security
    )
    for duplicate_of, code in [
        (None, "duplicate_of_required"),
        (second.seq, "duplicate_of_unknown"),  # itself
        (second.seq + 5, "duplicate_of_unknown"),  # later, or none
        (elsewhere.seq, "duplicate_of_unknown"),  # another table's
        (first.seq - 1, "duplicate_of_other_kind"),  # the unlocking
    ]:
        refused(lambda d=duplicate_of: amend(casino, second, kind="duplicate", duplicate_of=d), code, LOG)


def test_an_entry_is_marked_void_once_and_not_corrected_at_the_same_time(casino):
    unlocked(casino)
    mistaken = inspect(casino)
    refused(
        lambda: amend(casino, mistaken, kind="entered_in_error", correction={"notes": "x"}),
        "correction_with_void",
        LOG,
    )
    refused(
        lambda: amend(casino, mistaken, duplicate_of=1, correction={"notes": "x"}),
        "duplicate_of_without_duplicate",
        LOG,
    )
    marked = amend(casino, mistaken, kind="entered_in_error")
    violations = refused(lambda: amend(casino, mistaken, kind="entered_in_error"), "entry_already_voided", LOG)
    assert f"#{marked.seq}" in violations[0].message


@pytest.mark.parametrize(
    "correction, field",
    [
        ({"items": {"ball_non_magnetic": "yes"}}, "correction.items"),
        ({"items": {"sparkles": True}}, "correction.items"),
        ({"items": {}}, "correction.items"),
        ({"notes": 7}, "correction.notes"),
    ],
)
def test_a_corrected_inspection_value_is_of_the_fields_kind(casino, correction, field):
    unlocked(casino)
    original = inspect(casino)
    violations = refused(lambda: amend(casino, original, correction=correction), "correction_value", LOG)
    assert violations[0].field == field


def test_any_field_of_an_entry_may_be_corrected(casino):
    unlocked(casino)
    adjustment = adjust(casino)
    amendment = amend(
        casino,
        adjustment,
        who=casino.maintenance,
        correction={"kind": "replacement", "part": "rotor", "description": "Rotor replaced, not adjusted"},
    )
    assert amendment.details["correction"]["kind"] == "replacement"
    refused(
        lambda: amend(casino, adjustment, who=casino.maintenance, correction={"kind": "polish"}),
        "correction_value",
        LOG,
    )
    refused(lambda: amend(casino, adjustment, who=casino.maintenance, correction={"part": ""}), "correction_value", LOG)


def test_a_corrected_no_spin_reason_is_refused_in_words_not_codes(casino):
    """The refusal lists the reasons a person chooses from, as § 617a.6 words them, not the API's codes."""
    inspect(casino)
    event(casino, "open")
    no_spin = services.irregularity_record(
        table_id=casino.table.pk,
        kind="ball_left_wheel",
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    (found,) = refused(
        lambda: amend(casino, no_spin, who=casino.floorperson, correction={"kind": "wobble"}), "correction_value", LOG
    )
    assert "ball left the wheel during the spin (§ 617a.6(c))" in found.message
    assert "ball_left_wheel" not in found.message and "same_direction" not in found.message


def test_the_api_marks_an_entry_entered_in_error_and_the_register_says_so(casino):
    unlocked(casino)
    mistaken = inspect(casino)
    client = client_for(casino.floorperson)
    response = client.post(
        "/api/amendments/",
        {
            "entry": mistaken.pk,
            "reason": "Wrong table",
            "amendment_kind": "entered_in_error",
            "signature": signature(casino.floorperson),
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["amendment_kind"], body["duplicate_of"], body["correction"]) == ("entered_in_error", None, {})
    rows = {row["seq"]: row for row in client.get("/api/logbook/").json()["results"]}
    assert rows[mistaken.seq]["amended_by"] == [
        {"id": body["id"], "seq": body["seq"], "label": "entered in error", "reason": "Wrong table"}
    ]


def test_the_api_refuses_a_duplicate_of_a_later_entry_with_its_citation(casino):
    unlocked(casino)
    first = inspect(casino)
    response = client_for(casino.floorperson).post(
        "/api/amendments/",
        {
            "entry": first.pk,
            "reason": "x",
            "amendment_kind": "duplicate",
            "duplicate_of": first.seq + 1,
            "signature": signature(casino.floorperson),
        },
        format="json",
    )
    assert_refused(response, "duplicate_of_unknown", LOG, "duplicate_of")
    assert not Entry.objects.filter(kind="amendment").exists()


def test_the_timeline_marks_amended_entries(client, casino):
    unlocked(casino)
    first = inspect(casino)
    second = inspect(casino)
    correction = amend(casino, first, correction={"notes": "Compass used"})
    void = amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    client.force_login(casino.floorperson)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert f"Amended by #{correction.seq}: correction" in page
    assert f"Amended by #{void.seq}: duplicate of #{first.seq}" in page
    assert page.count('class="void"') == 1


# The amendment form in the browser.


def _signed(who, **extra) -> dict:
    return {"username": who.username, "password": PASSWORD, **extra}


def test_the_form_marks_an_inspection_entered_in_error(client, casino):
    unlocked(casino)
    mistaken = inspect(casino)
    client.force_login(casino.floorperson)
    response = client.post(
        f"/entries/{mistaken.pk}/amend/",
        _signed(casino.floorperson, reason="Wrong table", amendment_kind="entered_in_error"),
        follow=True,
    )
    assert "Recorded: Amendment" in response.content.decode()
    amendment = Entry.objects.get(kind="amendment")
    assert amendment.details == {
        "reason": "Wrong table",
        "correction": {},
        "amendment_kind": "entered_in_error",
        "duplicate_of": None,
    }
    assert f"Amended by #{amendment.seq}: entered in error" in response.content.decode()
    assert state(casino) == TableState.UNLOCKED


def test_the_form_asks_which_entry_a_duplicate_repeats(client, casino):
    unlocked(casino)
    second = inspect(casino)
    client.force_login(casino.floorperson)
    page = client.post(
        f"/entries/{second.pk}/amend/", _signed(casino.floorperson, reason="Twice", amendment_kind="duplicate")
    ).content.decode()
    assert "Say which earlier entry" in page and "(Product policy, derived from 58 Pa. Code § 617a.2(e))" in page
    assert not Entry.objects.filter(kind="amendment").exists()


def test_the_form_corrects_a_checklist_item_and_an_adjustments_part(client, casino):
    unlocked(casino)
    adjustment = adjust(casino)
    inspection = inspect(casino)
    client.force_login(casino.maintenance)
    page = client.get(f"/entries/{inspection.pk}/amend/").content.decode()
    assert "id_corrected_item_parts_secure" in page and "id_corrected_part" not in page
    client.post(
        f"/entries/{adjustment.pk}/amend/",
        _signed(casino.maintenance, reason="Rotor", corrected_kind="replacement", corrected_part="rotor"),
    )
    client.force_login(casino.floorperson)
    client.post(
        f"/entries/{inspection.pk}/amend/",
        _signed(casino.floorperson, reason="Item 4 failed", corrected_item_parts_secure="fail"),
    )
    corrections = [e.details["correction"] for e in Entry.objects.filter(kind="amendment").order_by("seq")]
    assert corrections == [{"part": "rotor", "kind": "replacement"}, {"items": {"parts_secure": False}}]


def test_every_entry_has_an_amend_link_even_an_amendment(client, casino):
    unlocked(casino)
    amendment = amend(casino, inspect(casino), correction={"notes": "x"})
    client.force_login(casino.floorperson)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    for entry in Entry.objects.all():
        assert f'href="/entries/{entry.pk}/amend/"' in page
    assert client.get(f"/entries/{amendment.pk}/amend/").status_code == 200


def test_an_inspection_corrected_to_a_failed_item_does_not_open_the_table(casino):
    unlocked(casino)
    inspection = inspect(casino)
    amend(casino, inspection, correction={"items": {"parts_secure": False}}, reason="Item 4 had failed")
    refused(opening(casino), "inspection_failed", INSPECTION)


def test_the_register_report_marks_an_entry_entered_in_error(casino):
    unlocked(casino)
    mistaken = inspect(casino)
    marked = amend(casino, mistaken, kind="entered_in_error", reason="Wrong table")
    today = timezone.localdate(timezone=casino.property.zone)
    report = Report.objects.create(
        property=casino.property,
        kind="inspection_register",
        period_from=today - timedelta(days=1),
        period_to=today + timedelta(days=1),
        requested_by=casino.compliance,
    )
    register = KINDS_BY_CODE["inspection_register"]
    rows = {row["seq"]: row for row in register.rows(report, register.keys(report))}
    assert f"amended by #{marked.seq}: ENTERED IN ERROR, Wrong table" in rows[mistaken.seq]["description"]


def _void_duplicated_inspection(casino, order: str):
    """Passing inspections whose last one repeats an earlier one that is marked entered in error, the
    amendments made in the given order."""
    first = inspect(casino)
    second = inspect(casino)
    if order == "duplicate, then error":
        amend(casino, second, kind="duplicate", duplicate_of=first.seq)
        amend(casino, first, kind="entered_in_error")
    elif order == "error, then duplicate":
        amend(casino, first, kind="entered_in_error")
        amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    else:  # a duplicate of a duplicate, the chain built from either end
        third = inspect(casino)
        amend(casino, third, kind="duplicate", duplicate_of=second.seq)
        if order == "chain, then error":
            amend(casino, second, kind="duplicate", duplicate_of=first.seq)
            amend(casino, first, kind="entered_in_error")
        else:
            amend(casino, first, kind="entered_in_error")
            amend(casino, second, kind="duplicate", duplicate_of=first.seq)


VOID_ORDERS = ("duplicate, then error", "error, then duplicate", "chain, then error", "error, then chain")


@pytest.mark.parametrize("order", VOID_ORDERS)
def test_a_duplicate_of_an_inspection_entered_in_error_does_not_open_the_table(casino, order):
    unlocked(casino)
    _void_duplicated_inspection(casino, order)
    assert state(casino) == TableState.UNLOCKED
    refused(opening(casino), "inspection_amended_away", INSPECTION)
    inspect(casino)
    event(casino, "open")


@pytest.mark.parametrize("order", VOID_ORDERS)
def test_an_open_table_on_a_duplicate_of_an_inspection_entered_in_error_is_flagged(casino, order):
    unlocked(casino)
    first = inspect(casino)
    event(casino, "open")
    casino.table.refresh_from_db()
    # The inspections repeated while the table is open; the amendments leave it on none.
    second = inspect(casino)
    if order.startswith("duplicate"):
        amend(casino, second, kind="duplicate", duplicate_of=first.seq)
        amend(casino, first, kind="entered_in_error")
    elif order.startswith("error"):
        amend(casino, first, kind="entered_in_error")
        amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    else:
        third = inspect(casino)
        amend(casino, third, kind="duplicate", duplicate_of=second.seq)
        amend(casino, second, kind="duplicate", duplicate_of=first.seq)
        amend(casino, first, kind="entered_in_error")
    casino.table.refresh_from_db()
    assert casino.table.state == TableState.OPEN
    assert casino.table.status.uninspected_since == casino.table.status.last_opened_at
    flag_services.scan(now=timezone.now() + timedelta(minutes=1))
    flag = ComplianceException.objects.get(table=casino.table, status="open")
    assert flag.citation == INSPECTION


def test_a_duplicate_of_a_duplicate_of_a_passing_inspection_still_opens_the_table(casino):
    unlocked(casino)
    first = inspect(casino)
    second = inspect(casino)
    third = inspect(casino)
    amend(casino, third, kind="duplicate", duplicate_of=second.seq)
    amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    event(casino, "open")
    assert state(casino) == TableState.OPEN


def test_a_duplicate_of_an_inspection_later_corrected_to_a_failed_item_does_not_count(casino):
    unlocked(casino)
    first = inspect(casino)
    second = inspect(casino)
    amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    amend(casino, first, correction={"items": {"parts_secure": False}})
    refused(opening(casino), "inspection_failed", INSPECTION)
