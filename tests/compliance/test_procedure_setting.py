"""A property's choice of procedure (issue 19, item 2): the New Jersey and Section 4 texts set no
inspection procedure, so their properties keep Pennsylvania's § 617a.2 by policy or none; a
Pennsylvania property keeps it, because there it is the law."""

from __future__ import annotations

import pytest

from compliance.casinos.models import GamingTable
from compliance.rulebook import RuleViolation
from tests.factories import GamingTableFactory, PropertyFactory, configure_for_opening
from tests.support.api import assert_refused, client_for
from tests.support.logbook import event, inspect, refused
from tests.support.people import staff_of


def house_of(code: str):
    staff = staff_of(PropertyFactory(name=f"House {code}", jurisdiction=code))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01"), created_by=staff.compliance
    )
    return staff


def choose(staff, procedure: str):
    return client_for(staff.compliance).patch(
        f"/api/properties/{staff.property.pk}/", {"procedure": procedure}, format="json"
    )


def test_a_pennsylvania_property_keeps_the_procedure(db):
    house = house_of("PA")
    errors = assert_refused(choose(house, "none"), "procedure_required", "58 Pa. Code § 617a.2", "procedure")
    assert "the Code sets it" in errors[0]["message"]
    house.property.refresh_from_db()
    assert house.property.procedure == "kept"


@pytest.mark.parametrize("code", ["NJ", "S4"])
def test_a_property_whose_text_sets_none_may_keep_a_log_without_it(db, code):
    house = house_of(code)
    # By default it keeps Pennsylvania's, by policy: no opening without an inspection.
    text = {"NJ": "N.J.A.C. 19:47-5", "S4": "Section 4"}[code]
    refused(
        lambda: event(house, "open"),
        "no_inspection",
        f"58 Pa. Code § 617a.2(a) (applied by policy: {text} sets no procedure)",
    )
    response = choose(house, "none")
    assert response.status_code == 200, response.content
    assert response.json()["procedure"] == "none"
    house.property.refresh_from_db()
    assert house.property.rulebook().KEEPS_PROCEDURE is False
    # No inspection is required before opening, and no § 617a.2 deadline runs.
    assert event(house, "open").kind == "open"
    event(house, "close")
    table = GamingTable.objects.get(pk=house.table.pk)
    assert (table.status.cover_due_at, table.status.uninspected_since) == (None, None)
    # Choosing the procedure again starts the cover deadline of the closed table at once.
    assert choose(house, "kept").status_code == 200
    table.refresh_from_db()
    assert table.status.cover_due_at is not None
    inspect(house)
    assert event(house, "open").kind == "open"


def test_a_property_that_keeps_none_cannot_move_to_pennsylvania_with_it(db):
    from compliance.accounts.models import User
    from compliance.casinos import services

    admin = User.objects.create_superuser("root", password="x" * 20, role="admin")
    prop = PropertyFactory(name="Empty", jurisdiction="NJ", procedure="none")
    with pytest.raises(RuleViolation) as refusal:
        services.property_update(property_id=prop.pk, actor=admin, changes={"jurisdiction": "PA"})
    assert refusal.value.violations[0].code == "procedure_required"
