"""What the logbook was kept under stays as it was (issue 17, item 5): a property with records keeps
its jurisdiction; a person who has signed keeps their credential number and their property, in the
API, the services and the admin alike."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from compliance.accounts import services as people
from compliance.accounts.models import Role, User
from compliance.approvals import services as approvals
from compliance.casinos import services
from compliance.casinos.models import Property
from compliance.rulebook import RuleViolation
from tests.factories import PropertyFactory, UserFactory, configure_for_opening
from tests.support.api import assert_refused, client_for
from tests.support.logbook import inspect
from tests.support.people import sign

POLICY = "Product policy, derived from 58 Pa. Code § 617a.2(e)"
NEW_PASSWORD = "a-long-new-person-passphrase"


@pytest.fixture
def casino(casino):
    """A table ready to open, with its approved Rules Submission (the approvals' tests start from nothing)."""
    configure_for_opening(casino.table, created_by=casino.compliance)
    return casino


@pytest.fixture
def administrator(db):
    return User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")


@pytest.fixture
def admin_client(client, administrator):
    client.force_login(administrator)
    return client


# ---- A property's jurisdiction ----


def test_a_property_with_entries_keeps_its_jurisdiction_in_the_api(casino, administrator):
    inspect(casino)
    response = client_for(administrator).patch(
        f"/api/properties/{casino.property.pk}/", {"jurisdiction": "NJ"}, format="json"
    )
    assert_refused(response, "property_has_records", POLICY, "jurisdiction")
    assert Property.objects.get(pk=casino.property.pk).jurisdiction == "PA"


def test_a_property_with_only_a_rules_submission_keeps_its_jurisdiction(casino, administrator):
    # The casino fixture's property has a Rules Submission (approved by PA's Board) and no entry.
    with pytest.raises(RuleViolation) as refusal:
        services.property_update(property_id=casino.property.pk, actor=administrator, changes={"jurisdiction": "S4"})
    assert refusal.value.violations[0].citation == POLICY
    assert Property.objects.get(pk=casino.property.pk).jurisdiction == "PA"


def test_a_property_without_records_may_change_jurisdiction(administrator):
    prop = PropertyFactory()
    response = client_for(administrator).patch(f"/api/properties/{prop.pk}/", {"jurisdiction": "NJ"}, format="json")
    assert response.status_code == 200, response.content
    assert Property.objects.get(pk=prop.pk).jurisdiction == "NJ"


def test_the_admin_refuses_a_new_jurisdiction_for_a_property_with_entries(admin_client, casino):
    inspect(casino)
    prop = Property.objects.get(pk=casino.property.pk)
    response = admin_client.post(
        f"/admin/casinos/property/{prop.pk}/change/",
        {
            "name": prop.name,
            "licence_number": prop.licence_number,
            "jurisdiction": "NJ",
            "time_zone": prop.time_zone,
            "cover_grace_minutes": prop.cover_grace_minutes,
            "max_inspection_interval_hours": prop.max_inspection_interval_hours,
            "notify_emails": "",
            "procedure": prop.procedure,
        },
        follow=True,
    )
    assert POLICY in response.content.decode()
    assert Property.objects.get(pk=prop.pk).jurisdiction == "PA"


# ---- A person who has signed ----


@pytest.mark.parametrize(
    "change, code, citation, field",
    [
        ({"credential_number": "BC-NEW"}, "credential_number_signed", POLICY, "credential_number"),
        ("other_property", "person_has_signed", POLICY, "property"),
        ({"role": Role.REGULATOR, "property": None, "jurisdiction": "PA"}, "person_has_signed", POLICY, "property"),
    ],
)
def test_a_person_who_has_signed_keeps_credential_and_property(
    casino, other_casino, administrator, change, code, citation, field
):
    inspect(casino)  # the floorperson signed it
    person = casino.floorperson
    changes = {"property": other_casino.property} if change == "other_property" else change
    with pytest.raises(RuleViolation) as refusal:
        people.person_update(person_id=person.pk, actor=administrator, changes=changes)
    found = [v for v in refusal.value.violations if v.code == code]
    assert found and found[0].citation == citation and found[0].field == field
    before = User.objects.get(pk=person.pk)
    assert (before.credential_number, before.property_id, before.role) == (
        person.credential_number,
        casino.property.pk,
        person.role,
    )


def test_a_person_who_signed_an_approval_keeps_their_credential(casino, administrator):
    from datetime import date

    draft = approvals.rules_submission_draft(
        prop=casino.property,
        game="roulette",
        effective_from=date(2030, 1, 1),
        wheel_types=["double_zero"],
        payout_odds={"straight": [35, 1]},
        options={},
        created_by=casino.compliance,
    )
    approvals.rules_submission_file(submission_id=draft.pk, signature=sign(casino.compliance))
    with pytest.raises(RuleViolation):
        people.person_update(
            person_id=casino.compliance.pk, actor=administrator, changes={"credential_number": "BC-NEW"}
        )


def test_a_person_who_has_signed_may_take_a_new_role_or_name_at_their_property(casino, administrator):
    inspect(casino)
    person = casino.floorperson
    people.person_update(
        person_id=person.pk, actor=administrator, changes={"role": Role.SECURITY, "full_name": "Pat Keystone"}
    )
    person.refresh_from_db()
    assert (person.role, person.full_name, person.property_id) == (Role.SECURITY, "Pat Keystone", casino.property.pk)


def test_a_person_who_never_signed_may_move_and_take_a_new_credential(casino, other_casino, administrator):
    person = UserFactory(property=casino.property, role=Role.FLOORPERSON)
    people.person_update(
        person_id=person.pk,
        actor=administrator,
        changes={"property": other_casino.property, "credential_number": "BC-MOVED"},
    )
    person.refresh_from_db()
    assert (person.property_id, person.credential_number) == (other_casino.property.pk, "BC-MOVED")


def test_only_an_administrator_changes_a_person(casino):
    with pytest.raises(people.PermissionDenied):
        people.person_update(person_id=casino.floorperson.pk, actor=casino.compliance, changes={"full_name": "X"})


def test_the_person_service_refuses_to_write_a_sign_in_column(casino, administrator):
    for name in ("password", "last_login", "date_joined"):
        with pytest.raises(ValueError, match=name):
            people.person_update(person_id=casino.floorperson.pk, actor=administrator, changes={name: None})


def person_form(person, **overrides) -> dict:
    data = {
        "username": person.username,
        "first_name": "",
        "last_name": "",
        "email": person.email,
        "is_active": "on",
        "full_name": person.full_name,
        "role": person.role,
        "credential_number": person.credential_number,
        "property": person.property_id or "",
        "jurisdiction": person.jurisdiction,
        # Django's sign-in times: read-only here, a posted value is ignored.
        "last_login_0": "2020-01-01",
        "last_login_1": "00:00:00",
        "date_joined_0": "2020-01-01",
        "date_joined_1": "00:00:00",
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize(
    "change, citation",
    [({"credential_number": "BC-NEW"}, POLICY), ("other_property", POLICY)],
)
def test_the_admin_refuses_to_change_a_signed_persons_credential_or_property(
    admin_client, casino, other_casino, change, citation
):
    inspect(casino)
    person = User.objects.get(pk=casino.floorperson.pk)
    overrides = {"property": other_casino.property.pk} if change == "other_property" else change
    response = admin_client.post(f"/admin/accounts/user/{person.pk}/change/", person_form(person, **overrides))
    assert response.status_code == 200
    assert citation in response.content.decode()
    after = User.objects.get(pk=person.pk)
    assert (after.credential_number, after.property_id) == (person.credential_number, person.property_id)


def test_the_admin_changes_a_person_through_the_service(admin_client, casino, monkeypatch):
    person = User.objects.get(pk=casino.floorperson.pk)
    calls = []
    real = people.person_update
    monkeypatch.setattr(people, "person_update", lambda **kw: calls.append(kw) or real(**kw))
    response = admin_client.post(
        f"/admin/accounts/user/{person.pk}/change/", person_form(person, full_name="Pat Keystone")
    )
    assert response.status_code == 302, response.content.decode()
    assert calls and calls[0]["changes"] == {"full_name": "Pat Keystone"}
    after = User.objects.get(pk=person.pk)
    assert after.full_name == "Pat Keystone" and after.date_joined == person.date_joined
    assert after.password == person.password


def test_the_admin_adds_a_person_through_the_service(admin_client, casino, monkeypatch):
    calls = []
    real = people.person_create
    monkeypatch.setattr(people, "person_create", lambda **kw: calls.append(kw) or real(**kw))
    response = admin_client.post(
        "/admin/accounts/user/add/",
        {
            "username": "newfloor",
            "usable_password": "true",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            "full_name": "New Floor",
            "role": Role.FLOORPERSON,
            "credential_number": "BC-777",
            "property": casino.property.pk,
            "jurisdiction": "",
        },
    )
    assert response.status_code == 302, response.content.decode()
    assert len(calls) == 1
    person = User.objects.get(username="newfloor")
    assert person.check_password(NEW_PASSWORD) and person.credential_number == "BC-777"
    assert not person.is_staff


def test_the_people_api_creates_through_the_service(casino, monkeypatch):
    calls = []
    real = people.person_create
    monkeypatch.setattr(people, "person_create", lambda **kw: calls.append(kw) or real(**kw))
    response = client_for(casino.compliance).post(
        "/api/people/",
        {
            "username": "newsec",
            "full_name": "New Security",
            "role": Role.SECURITY,
            "credential_number": "BC-778",
            "password": NEW_PASSWORD,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    assert len(calls) == 1
    person = User.objects.get(username="newsec")
    assert person.property_id == casino.property.pk and person.check_password(NEW_PASSWORD)


def test_a_compliance_manager_adds_staff_to_their_own_property_only(casino, other_casino):
    with pytest.raises(people.PermissionDenied):
        people.person_create(
            actor=casino.compliance,
            password=NEW_PASSWORD,
            username="elsewhere",
            role=Role.SECURITY,
            credential_number="BC-779",
            property=other_casino.property,
        )
    with pytest.raises(people.PermissionDenied):
        people.person_create(
            actor=casino.compliance,
            password=NEW_PASSWORD,
            username="boss",
            role=Role.ADMIN,
            credential_number="BC-780",
            property=casino.property,
        )
    assert not User.objects.filter(username__in=["elsewhere", "boss"]).exists()


def test_the_admin_deletes_nobody(admin_client, casino):
    person = casino.floorperson
    assert admin_client.post(f"/admin/accounts/user/{person.pk}/delete/", {"post": "yes"}).status_code == 403
    assert User.objects.filter(pk=person.pk).exists()


def test_a_password_is_set_by_its_person_or_an_administrator_by_the_policy(administrator):
    person = UserFactory()
    other = UserFactory(property=person.property)
    with pytest.raises(PermissionDenied):
        people.person_password_set(person_id=person.pk, actor=other, password=NEW_PASSWORD)
    with pytest.raises(ValidationError):
        people.person_password_set(person_id=person.pk, actor=person, password="short")
    people.person_password_set(person_id=person.pk, actor=person, password=NEW_PASSWORD)
    person.refresh_from_db()
    assert person.check_password(NEW_PASSWORD)
    people.person_password_set(person_id=person.pk, actor=administrator, password=NEW_PASSWORD + "-2")
    person.refresh_from_db()
    assert person.check_password(NEW_PASSWORD + "-2")


# ---- A property's licence number ----


def test_a_property_with_entries_keeps_its_licence_number_in_the_api_and_the_admin(casino, administrator, admin_client):
    """The signed checkpoints name the property by its licence number; a new number on a property with a
    logbook would make the checkpoint signer refuse every later checkpoint (issue 32)."""
    inspect(casino)
    prop = Property.objects.get(pk=casino.property.pk)
    response = client_for(administrator).patch(
        f"/api/properties/{prop.pk}/", {"licence_number": "PA-NEW-0001"}, format="json"
    )
    assert_refused(response, "licence_has_records", POLICY, "licence_number")
    page = admin_client.post(
        f"/admin/casinos/property/{prop.pk}/change/",
        {
            "name": prop.name,
            "licence_number": "PA-NEW-0001",
            "jurisdiction": prop.jurisdiction,
            "time_zone": prop.time_zone,
            "cover_grace_minutes": prop.cover_grace_minutes,
            "max_inspection_interval_hours": prop.max_inspection_interval_hours,
            "notify_emails": "",
            "procedure": prop.procedure,
        },
        follow=True,
    ).content.decode()
    assert f"kept under licence {prop.licence_number}" in page and POLICY in page
    assert Property.objects.get(pk=prop.pk).licence_number == prop.licence_number


def test_a_property_without_records_may_take_a_new_licence_number(administrator):
    prop = PropertyFactory()
    response = client_for(administrator).patch(
        f"/api/properties/{prop.pk}/", {"licence_number": "PA-NEW-0002"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert Property.objects.get(pk=prop.pk).licence_number == "PA-NEW-0002"
