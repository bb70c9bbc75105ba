"""`manage.py seed_demo`: the demo casino, its people and a week of valid, chained history."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import call_command
from django.test import RequestFactory, override_settings

from compliance.accounts.models import Role, User
from compliance.casinos.models import GamingTable, Property, TableState, WheelType
from inspections.logbook import demo
from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry, EntryKind, Signature


class QuickPBKDF2(PBKDF2PasswordHasher):
    """The production algorithm with few iterations: shows which hasher the final passwords use."""

    iterations = 1000


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def seeded(db):
    with override_settings(PASSWORD_HASHERS=["tests.inspections.test_seed_demo.QuickPBKDF2"]):
        seed()
    return Property.objects.get(licence_number=demo.PROPERTY_LICENCE)


def test_demo_property_people_tables_and_passwords(seeded):
    assert seeded.name == "Keystone Demo Casino"
    assert seeded.jurisdiction == "PA"
    assert seeded.time_zone == "America/New_York"

    people = {u.username: u for u in User.objects.all()}
    assert set(people) == {u.username for u in demo.DEMO_USERS}
    for spec in demo.DEMO_USERS:
        person = people[spec.username]
        assert person.role == spec.role
        assert person.full_name and person.credential_number
        assert (person.property_id == seeded.pk) is spec.at_property
    assert people["regulator"].role == Role.REGULATOR and people["regulator"].jurisdiction == "PA"
    assert people["admin"].is_staff and people["admin"].is_superuser and people["admin"].property is None
    assert people["security2"].role == Role.SECURITY

    tables = list(GamingTable.objects.filter(property=seeded).order_by("number"))
    assert [t.number for t in tables] == [f"R-0{i}" for i in range(1, 9)]
    kinds = {(t.wheel_type, t.has_external_movable_parts) for t in tables}
    assert kinds == {(w, e) for w in WheelType.values for e in (True, False)}
    assert sum(t.electronic for t in tables) == 1
    states = {t.state for t in tables}
    assert {TableState.LOCKED, TableState.CLOSED, TableState.OPEN} <= states

    # Signed through the fast hasher, then every password hashed again with the configured one.
    for person in User.objects.all():
        assert person.password.startswith("pbkdf2_sha256$1000$"), person.username
    with override_settings(PASSWORD_HASHERS=["tests.inspections.test_seed_demo.QuickPBKDF2"]):
        assert authenticate(RequestFactory().post("/login/"), username="security", password=demo.DEMO_PASSWORD)


def test_a_week_of_history_through_the_services_written_once(seeded):
    entries = Entry.objects.filter(property=seeded)
    kinds = set(entries.values_list("kind", flat=True))
    assert {
        EntryKind.UNLOCK,
        EntryKind.INSPECTION,
        EntryKind.OPEN,
        EntryKind.CLOSE,
        EntryKind.COVER,
        EntryKind.ADJUSTMENT,
        EntryKind.REPLACEMENT,
        EntryKind.IRREGULARITY,
        EntryKind.AMENDMENT,
    } <= kinds
    assert entries.filter(kind=EntryKind.INSPECTION, passed=False).count() == 0
    # Adjustments only where the wheel has external movable parts, each performed and witnessed.
    adjusted = entries.filter(kind__in=[EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT])
    assert not adjusted.filter(table__has_external_movable_parts=False).exists()
    for entry in adjusted:
        assert sorted(Signature.objects.filter(entry=entry).values_list("meaning", flat=True)) == [
            "performed",
            "witnessed",
        ]
    # Item (5) of the checklist on the double-zero-as-single-zero tables only.
    for inspection in entries.filter(kind=EntryKind.INSPECTION).select_related("table"):
        has_item_5 = "layout_and_signage_00" in inspection.details["items"]
        assert has_item_5 is (inspection.table.wheel_type == WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO)
    # Each table's entries are in time order, spread over the past week.
    for table in GamingTable.objects.filter(property=seeded):
        times = list(
            entries.filter(table=table)
            .exclude(kind=EntryKind.AMENDMENT)
            .order_by("seq")
            .values_list("occurred_at", flat=True)
        )
        assert times == sorted(times)
        assert (times[-1] - times[0]).days >= 6

    report = chain_verify(property_id=seeded.pk)
    assert report.ok, report.reason
    assert report.entries_checked == entries.count() > 300
    call_command("verify_logbook", stdout=StringIO())

    # Seeding again creates nothing.
    counts = (Property.objects.count(), User.objects.count(), GamingTable.objects.count(), Entry.objects.count())
    assert "already exists" in seed()
    assert (
        Property.objects.count(),
        User.objects.count(),
        GamingTable.objects.count(),
        Entry.objects.count(),
    ) == counts


def test_if_empty_leaves_a_database_with_users_alone(db):
    User.objects.create_superuser("someone", "someone@example.com", "someone-else-s-passphrase")
    out = StringIO()
    call_command("seed_demo", "--if-empty", stdout=out)
    assert "demo data not loaded" in out.getvalue()
    assert not Property.objects.exists()


def test_the_demo_layout_is_approved_with_its_generated_artwork(seeded):
    from compliance.approvals.models import LayoutSubmission
    from compliance.rulebook.artwork import artwork_kind

    layouts = LayoutSubmission.objects.filter(property=seeded, status="approved")
    assert layouts.count() == 3  # the standard tables', the Lightning table's, the Touchdown table's
    for layout in layouts:
        with layout.artwork.open("rb") as handle:
            assert artwork_kind(handle.read(8)) == layout.artwork_kind == "png"
        assert len(layout.artwork_sha256) == 64


def test_the_demo_property_has_mixed_tables_under_one_approved_submission(seeded):
    """Issue 19: single zero, double zero, Lightning and Touchdown (electronic) tables side by side,
    each using a configuration of the one approved Roulette Rules Submission, each able to open."""
    from compliance.approvals.models import LayoutSubmission, RulesSubmission
    from compliance.approvals.selectors import layout_approved_for, rules_submission_in_effect
    from compliance.casinos.clock import property_today
    from compliance.casinos.models import GamingTable
    from compliance.rulebook import rulebook_for

    submission = RulesSubmission.objects.get(property=seeded, game="roulette")
    assert submission.status == "approved"
    assert [c.key for c in submission.all_configurations()] == ["standard", "lightning", "touchdown", "first-five"]
    assert submission.violations == []
    tables = {t.number: t for t in GamingTable.objects.filter(property=seeded)}
    assert {t.wheel_type for t in tables.values()} >= {"single_zero", "double_zero"}
    assert tables["R-02"].configuration == "lightning" and tables["R-02"].wheel_type == "single_zero"
    assert tables["R-07"].configuration == "touchdown" and tables["R-07"].electronic
    assert tables["R-08"].configuration == "first-five"
    rules = rulebook_for(seeded.jurisdiction)
    in_effect = rules_submission_in_effect(property_id=seeded.pk, game="roulette", on=property_today(seeded))
    assert in_effect == submission
    for table in tables.values():
        assert (
            rules.configuration_ready(
                table=table, layout=layout_approved_for(table_id=table.pk), rules_submission=in_effect
            )
            == []
        ), table.number
    assert LayoutSubmission.objects.get(tables=tables["R-02"]).features.count("lightning_rng") == 1
