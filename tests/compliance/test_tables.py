"""A table's and a property's changes: one service each (compliance.casinos.services), locked, by the rules,
writing only what changes; a table's configuration changes only while it is closed."""

from decimal import Decimal

import pytest

from compliance.accounts.models import User
from compliance.approvals import services as approvals
from compliance.approvals.api.views import RulesSubmissionViewSet
from compliance.approvals.models import RulesSubmission
from compliance.casinos import services
from compliance.casinos.api.views import PropertyViewSet
from compliance.casinos.models import GamingTable, Property, TableState, Wheel
from compliance.rulebook import RuleViolation, pa
from inspections.logbook.api.views import GamingTableViewSet
from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry
from tests.factories import GamingTableFactory, configure_for_opening
from tests.support.api import assert_refused, client_for, signature
from tests.support.logbook import ALL_PASS, event, inspect, refused
from tests.support.people import sign

POLICY = "Product policy, derived from 58 Pa. Code § 617a.2(a), (d)"
STAYS = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
ITEM_5 = {**ALL_PASS, "layout_and_signage_00": True}


@pytest.fixture
def casino(casino):
    """Here a table ready to open (the approvals' tests start from nothing)."""
    configure_for_opening(casino.table, created_by=casino.compliance)
    return casino


def table_of(casino) -> GamingTable:
    return GamingTable.objects.get(pk=casino.table.pk)


def between_read_and_save(monkeypatch, viewset, other_write) -> None:
    """A deterministic interleaving: the PATCH has read the row (get_object, the serializer's
    validation); another request's write commits; then the PATCH writes."""
    patch_write = viewset.perform_update

    def interleaved(self, serializer):
        other_write()
        patch_write(self, serializer)

    monkeypatch.setattr(viewset, "perform_update", interleaved)


# ---- Lost updates (issue 17, item 6) ----


def test_a_table_patch_racing_an_opening_keeps_the_table_open(casino, monkeypatch):
    inspect(casino)
    assert table_of(casino).state == TableState.INSPECTED
    between_read_and_save(monkeypatch, GamingTableViewSet, lambda: event(casino, "open"))
    number = table_of(casino).number
    # The rename is refused (the table has entries) and the refusal writes nothing over the opening.
    response = client_for(casino.compliance).patch(f"/api/tables/{casino.table.pk}/", {"number": "R-1"}, format="json")
    assert_refused(response, "table_number_in_logbook", STAYS, "number")
    table = table_of(casino)
    assert table.number == number
    assert table.state == TableState.OPEN and table.status.last_opened_at is not None


def test_a_rename_racing_the_tables_first_entry_is_refused(casino, monkeypatch):
    """The entries are counted under the table's lock: an inspection recorded between the rename's
    read and its save keeps the number it was signed with."""
    number = table_of(casino).number
    assert not Entry.objects.filter(table=casino.table).exists()
    between_read_and_save(monkeypatch, GamingTableViewSet, lambda: inspect(casino))
    response = client_for(casino.compliance).patch(f"/api/tables/{casino.table.pk}/", {"number": "R-1"}, format="json")
    assert_refused(response, "table_number_in_logbook", STAYS, "number")
    assert table_of(casino).number == number


def test_a_property_patch_racing_an_entry_keeps_the_chain_head(casino, monkeypatch):
    between_read_and_save(monkeypatch, PropertyViewSet, lambda: inspect(casino))
    response = client_for(casino.compliance).patch(
        f"/api/properties/{casino.property.pk}/", {"cover_grace_minutes": 5}, format="json"
    )
    assert response.status_code == 200, response.content
    prop = Property.objects.get(pk=casino.property.pk)
    assert prop.cover_grace_minutes == 5
    assert prop.chain.length == 1 == Entry.objects.filter(property=prop).count()
    report = chain_verify(property_id=prop.pk)
    assert report.ok, report.reason
    # The table the entry inspected stays inspected through the deadlines the policy moved.
    assert table_of(casino).state == TableState.INSPECTED


def test_a_rules_submission_patch_racing_its_filing_is_refused(casino, monkeypatch):
    draft = approvals.rules_submission_draft(
        prop=casino.property,
        game="roulette",
        effective_from=RulesSubmission.objects.get(property=casino.property).effective_from,
        wheel_types=["double_zero"],
        payout_odds={"straight": [35, 1]},
        options={},
        created_by=casino.compliance,
    )
    filed = lambda: approvals.rules_submission_file(submission_id=draft.pk, signature=sign(casino.compliance))  # noqa: E731
    between_read_and_save(monkeypatch, RulesSubmissionViewSet, filed)
    response = client_for(casino.compliance).patch(
        f"/api/rules-submissions/{draft.pk}/", {"wheel_types": ["single_zero"]}, format="json"
    )
    assert response.status_code == 400, response.content
    draft.refresh_from_db()
    assert draft.status == "filed" and draft.wheel_types == ["double_zero"]


@pytest.mark.parametrize("path", ["/api/layouts/{}/", "/api/wheels/{}/", "/api/balls/{}/", "/api/people/{}/"])
def test_the_other_resources_have_no_patch(casino, path):
    """Layouts, equipment and people are written once (approvals, registration): no PATCH to race."""
    ids = {
        "layouts": casino.table.layouts.get().pk,
        "wheels": casino.table.wheel_id,
        "balls": casino.table.ball_id,
        "people": casino.floorperson.pk,
    }
    url = path.format(ids[path.split("/")[2]])
    assert client_for(casino.compliance).get(url).status_code == 200
    assert client_for(casino.compliance).patch(url, {}, format="json").status_code == 405


# ---- Configuration only while closed (issue 17, item 11) ----


@pytest.mark.parametrize(
    "change, field",
    [
        ({"wheel_type": "double_zero_as_single_zero"}, "wheel_type"),
        ({"has_external_movable_parts": False}, "has_external_movable_parts"),
        ({"electronic": True}, "electronic"),
        ({"game": "big_six", "wheel_type": None, "has_external_movable_parts": False}, "game"),
    ],
)
@pytest.mark.parametrize("opened", [False, True], ids=["inspected", "open"])
def test_a_configuration_change_is_refused_once_the_table_is_inspected_or_open(casino, change, field, opened):
    inspect(casino)
    if opened:
        event(casino, "open")
    before = table_of(casino)
    response = client_for(casino.compliance).patch(f"/api/tables/{casino.table.pk}/", change, format="json")
    assert_refused(response, "configuration_change_while_inspected", POLICY, field)
    after = table_of(casino)
    assert [getattr(after, f.attname) for f in GamingTable._meta.fields] == [
        getattr(before, f.attname) for f in GamingTable._meta.fields
    ]


def test_a_double_zero_table_used_as_single_zero_opens_only_after_an_inspection_with_item_5(casino):
    client = client_for(casino.compliance)
    # Inspected on items (1)–(4) as a double-zero table: it may not turn into a single-zero one now.
    inspect(casino)
    assert_refused(
        client.patch(f"/api/tables/{casino.table.pk}/", {"wheel_type": "double_zero_as_single_zero"}, format="json"),
        "configuration_change_while_inspected",
        POLICY,
        "wheel_type",
    )
    event(casino, "open")
    event(casino, "close")
    # Closed: the change is made, and the inspection before the next opening is a new one.
    response = client.patch(
        f"/api/tables/{casino.table.pk}/", {"wheel_type": "double_zero_as_single_zero"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert table_of(casino).status.inspection_void_reason == "configuration"
    event(casino, "cover")
    event(casino, "unlock")
    response = client_for(casino.security).post(
        f"/api/tables/{casino.table.pk}/open/",
        {"signature": signature(casino.security)},
        format="json",
    )
    assert_refused(response, "configuration_changed", POLICY, "table")
    refused(lambda: inspect(casino), "checklist_item_missing", "58 Pa. Code § 617a.2(a)(5)")
    refused(lambda: event(casino, "open"), "configuration_changed", POLICY)
    inspect(casino, items=ITEM_5)
    event(casino, "open")
    assert table_of(casino).state == TableState.OPEN


def test_a_configuration_change_while_closed_voids_the_inspection_for_the_opening_gate(casino):
    """The gate itself: whatever state says, a table whose configuration changed opens only after an
    inspection (product policy); a passing inspection clears it."""
    services.table_update(table_id=casino.table.pk, actor=casino.compliance, changes={"electronic": True})
    table = table_of(casino)
    assert table.state == TableState.CLOSED and table.status.inspection_void_reason == "configuration"
    violation = pa.may_open(table=table)
    assert (violation.code, violation.citation) == ("configuration_changed", POLICY)
    inspect(casino)
    assert table_of(casino).status.inspection_void_reason == "" and table_of(casino).state == TableState.INSPECTED


def test_a_wheel_swapped_on_a_closed_table_needs_a_new_inspection(casino):
    spare = Wheel.objects.create(
        property=casino.property,
        serial="D-SPARE",
        wheel_type="double_zero",
        diameter_inches=Decimal(32),
        number_order=list(pa.DOUBLE_ZERO_ORDER),
    )
    event(casino, "cover")
    event(casino, "unlock")
    services.table_update(table_id=casino.table.pk, actor=casino.compliance, changes={"wheel": spare})
    table = table_of(casino)
    assert table.wheel == spare and table.status.inspection_void_reason == "configuration"


# ---- Derived columns and moves (issue 17, item 5) ----


@pytest.mark.parametrize("name", ["state", "cover_due_at", "next_due", "last_inspection_at", "inspection_void_reason"])
def test_the_table_service_refuses_to_write_a_derived_column(casino, name):
    with pytest.raises(ValueError, match=name):
        services.table_update(table_id=casino.table.pk, actor=casino.compliance, changes={name: None})


def test_the_property_service_refuses_to_write_the_chain(casino):
    with pytest.raises(ValueError, match="chain_head"):
        services.property_update(property_id=casino.property.pk, actor=casino.compliance, changes={"chain_head": ""})


@pytest.fixture
def administrator(db):
    return User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")


def test_a_table_with_a_history_never_moves_to_another_property(casino, other_casino, administrator):
    inspect(casino)
    GamingTable.objects.filter(pk=other_casino.table.pk).update(number="R-99")  # no clash of numbers
    response = client_for(administrator).patch(
        f"/api/tables/{casino.table.pk}/", {"property": other_casino.property.pk}, format="json"
    )
    assert_refused(response, "table_has_history", STAYS, "property")
    assert table_of(casino).property == casino.property
    assert client_for(other_casino.compliance).get(f"/api/tables/{casino.table.pk}/").status_code == 404


def test_a_table_without_a_history_may_be_moved_by_an_administrator(casino, other_casino, administrator):
    table = GamingTableFactory(property=casino.property, number="R-NEW")
    response = client_for(administrator).patch(
        f"/api/tables/{table.pk}/", {"property": other_casino.property.pk}, format="json"
    )
    assert response.status_code == 200, response.content
    table.refresh_from_db()
    assert table.property == other_casino.property


def test_a_compliance_manager_does_not_move_a_table(casino, other_casino):
    table = GamingTableFactory(property=casino.property, number="R-NEW")
    with pytest.raises(services.PermissionDenied):
        services.table_update(table_id=table.pk, actor=casino.compliance, changes={"property": other_casino.property})
    table.refresh_from_db()
    assert table.property == casino.property


def test_a_table_with_logbook_entries_keeps_its_number(casino, administrator):
    """The log holds the table number (§ 617a.2(e)); the logbook and the register read it from the
    table, so a rename would change the "Table" of every entry already signed."""
    number = table_of(casino).number
    inspect(casino)
    for who in (casino.compliance, administrator):
        response = client_for(who).patch(f"/api/tables/{casino.table.pk}/", {"number": "R-10"}, format="json")
        assert_refused(response, "table_number_in_logbook", STAYS, "number")
    with pytest.raises(RuleViolation):
        services.table_update(table_id=casino.table.pk, actor=administrator, changes={"number": "R-10"})
    assert table_of(casino).number == number
    rows = client_for(casino.compliance).get("/api/logbook/").json()
    rows = rows.get("results", rows)
    assert rows and {row["table_number"] for row in rows} == {number}


def test_a_table_without_entries_may_be_renumbered(casino):
    table = GamingTableFactory(property=casino.property, number="R-NEW")
    response = client_for(casino.compliance).patch(f"/api/tables/{table.pk}/", {"number": "R-10"}, format="json")
    assert response.status_code == 200, response.content
    table.refresh_from_db()
    assert table.number == "R-10"
