"""A lock on a shared floor (issue 20, item 4): a security supervisor lifts it from a page on the floor,
with a reason, and the lifting is logged in an append-only record."""

import pytest
from axes.models import AccessAttempt
from django.db import DatabaseError, transaction
from django.test import Client
from rest_framework.test import APIClient

from compliance.accounts.models import LockLift, SignatureFailures, User
from tests.factories import PASSWORD
from tests.security.test_lockout import LIMIT, inspect_via_api, sign_in
from tests.support.api import signature


@pytest.fixture
def supervisor(casino):
    User.objects.filter(pk=casino.security2.pk).update(security_supervisor=True)
    casino.security2.refresh_from_db()
    return casino.security2


def lock_everything(casino):
    for _ in range(LIMIT):
        sign_in(Client(), casino.floorperson, "wrong")
        inspect_via_api(casino, "wrong")
    assert sign_in(Client(), casino.floorperson, PASSWORD).status_code == 429
    assert inspect_via_api(casino, PASSWORD).json()["errors"][0]["code"] == "signature_locked_out"


def test_only_a_security_supervisor_may_lift_a_lock_on_the_floor(client, casino, supervisor):
    for person, status in ((casino.security, 403), (casino.compliance, 403), (supervisor, 200)):
        client.force_login(person)
        assert client.get("/floor/locks/").status_code == status, person.role
        assert ('href="/floor/locks/"' in client.get("/floor/").content.decode()) == (status == 200)


def test_a_supervisor_lifts_both_locks_on_the_floor_and_it_is_logged(client, casino, supervisor):
    lock_everything(casino)
    client.force_login(supervisor)
    page = client.get("/floor/locks/").content.decode()
    assert casino.floorperson.display_name in page and "signing in locked" in page and "signing locked" in page
    response = client.post(
        "/floor/locks/",
        {"person": casino.floorperson.pk, "reason": "Rosa asked at the pit; badge checked"},
        follow=True,
    )
    assert "Lock lifted for" in response.content.decode()
    (lift,) = LockLift.objects.all()
    assert (lift.person, lift.lifted_by, lift.lifter_credential) == (
        casino.floorperson,
        supervisor,
        supervisor.credential_number,
    )
    assert lift.sign_in_attempts >= LIMIT and lift.signature_failures >= LIMIT
    assert "badge checked" in client.get("/floor/locks/").content.decode()
    assert not AccessAttempt.objects.exists() and not SignatureFailures.objects.exists()
    assert sign_in(Client(), casino.floorperson, PASSWORD).status_code == 302
    assert inspect_via_api(casino, PASSWORD).status_code == 201


def test_a_lift_needs_a_reason_and_never_reaches_another_property(client, casino, other_casino, supervisor):
    lock_everything(casino)
    client.force_login(supervisor)
    client.post("/floor/locks/", {"person": casino.floorperson.pk, "reason": ""})
    assert not LockLift.objects.exists()
    assert client.post("/floor/locks/", {"person": other_casino.floorperson.pk, "reason": "x"}).status_code == 404
    assert not LockLift.objects.exists()


def test_the_record_of_lifted_locks_is_append_only(client, casino, supervisor):
    lock_everything(casino)
    client.force_login(supervisor)
    client.post("/floor/locks/", {"person": casino.floorperson.pk, "reason": "asked in person"})
    for change in (
        lambda: LockLift.objects.update(reason="nothing happened"),
        lambda: LockLift.objects.all().delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            change()
    assert LockLift.objects.get().reason == "asked in person"


def test_the_api_says_the_same_about_a_locked_signature(casino):
    lock_everything(casino)
    client = APIClient()
    client.force_authenticate(casino.floorperson)
    response = client.post(
        "/api/inspections/",
        {"table": casino.table.pk, "items": {}, "signature": signature(casino.floorperson)},
        format="json",
    )
    assert "A security supervisor or an administrator can lift the lock." in response.content.decode()


def test_the_supervisor_permission_is_a_security_officers_only(casino):
    User.objects.filter(pk__in=[casino.security.pk, casino.floorperson.pk]).update(security_supervisor=True)
    assert User.objects.get(pk=casino.security.pk).may("lockouts.lift")
    assert not User.objects.get(pk=casino.floorperson.pk).may("lockouts.lift")
    assert not User.objects.get(pk=casino.security2.pk).may("lockouts.lift")
