"""The guard of tests/write_guard.py catches a write around a service, and lets a service's through."""

import pytest

from compliance.accounts.models import Role, User
from compliance.casinos.models import Property
from tests import write_guard
from tests.factories import PASSWORD

WRITE = "def write():\n    return Property.objects.create(name='Probe', licence_number='PROBE-1', jurisdiction='PA')\n"


def _function_in(module_name: str):
    namespace = {"__name__": module_name, "Property": Property}
    exec(compile(WRITE, f"<{module_name}>", "exec"), namespace)
    return namespace["write"]


@pytest.mark.django_db
def test_a_view_that_writes_a_model_itself_is_caught():
    before = len(write_guard.bypasses)
    _function_in("compliance.casinos.views_probe")()
    found = write_guard.bypasses[before:]
    del write_guard.bypasses[before:]  # caught on purpose: this test's own teardown must not fail on it
    assert [str(b) for b in found] == [
        "Property.save from compliance.casinos.views_probe:write (line 2), not through a service"
    ]


@pytest.mark.django_db
def test_a_service_that_writes_its_model_passes():
    before = len(write_guard.bypasses)
    _function_in("compliance.casinos.services")()
    assert write_guard.bypasses[before:] == []


@pytest.mark.django_db
def test_a_sign_in_and_an_outdated_hash_are_written_by_the_peoples_services(client, casino, settings):
    """Django's own writes on a person, the sign-in's time and a password's hash stored again with the
    current algorithm, go through compliance.accounts.services like every other write: the guard has
    no list of exceptions for them."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",  # the person's hash: an older algorithm
    ]
    person = casino.security
    assert person.password.startswith("md5$") and person.last_login is None
    before = len(write_guard.bypasses)
    signed_in = client.post("/login/", {"username": person.username, "password": PASSWORD})
    assert signed_in.status_code == 302
    assert write_guard.bypasses[before:] == []
    person.refresh_from_db()
    assert person.password.startswith("pbkdf2_sha256$") and person.last_login is not None


@pytest.mark.django_db
def test_the_first_administrator_is_made_by_the_peoples_service():
    """`createsuperuser` asks the manager by Django's name; the write is the service's."""
    from io import StringIO

    from django.core.management import call_command

    before = len(write_guard.bypasses)
    call_command("createsuperuser", "--noinput", username="root", email="root@example.org", stdout=StringIO())
    assert write_guard.bypasses[before:] == []
    assert User.objects.get(username="root").role == Role.ADMIN
