"""Wherever a password is typed, one beyond 1,024 characters is refused before it is hashed (a
200 KB password made Argon2 burn the server's CPU), with a clear message, and is not counted toward
the lockout (no password was tried); NIST SP 800-63B's 64 characters, and the bound itself, work.

Every password field is found: the API's from its OpenAPI schema, the pages' from the forms."""

from __future__ import annotations

import importlib

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django import forms
from django.contrib.auth.forms import ReadOnlyPasswordHashField
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client
from rest_framework.test import APIClient

from compliance.rulebook.text import LENGTH_LIMITS
from config.validators import PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG
from tests.api_schema import WRITE_METHODS, body_with, operations
from tests.factories import PASSWORD, UserFactory
from tests.security.test_typed_text import errors_by_field, send, world  # noqa: F401 (a fixture)

TOO_LONG = "x" * (PASSWORD_MAX_LENGTH + 1)


class CountingHasher(MD5PasswordHasher):
    """The tests' own hasher (same algorithm, same hashes), counting every password it hashes."""

    hashed = 0

    def encode(self, password, salt):
        CountingHasher.hashed += 1
        return super().encode(password, salt)


@pytest.fixture
def hashes(settings):
    settings.PASSWORD_HASHERS = ["tests.security.test_password_length.CountingHasher"]
    CountingHasher.hashed = 0
    return CountingHasher


def _password_paths(operation) -> list[str]:
    return [f.path for f in operation.body_fields if "password" in f.path.rsplit(".", 1)[-1]]


PASSWORD_WRITES = [pytest.param(op, id=str(op)) for op in operations(WRITE_METHODS) if _password_paths(op)]


def test_the_password_fields_are_discovered():
    found = {str(p.values[0]) for p in PASSWORD_WRITES}
    assert {"POST /api/auth/token/", "POST /api/people/", "POST /api/inspections/", "POST /api/adjustments/"} <= found
    assert len(found) >= 10


@pytest.mark.parametrize("operation", PASSWORD_WRITES)
def test_every_api_password_beyond_the_limit_is_refused(world, operation, hashes):  # noqa: F811
    paths = _password_paths(operation)
    response = send(world, operation, body_with({path: TOO_LONG for path in paths}))
    errors = errors_by_field(response)
    for path in paths:
        assert [(e["code"], e["message"], e["citation"]) for e in errors.get(path, [])] == [
            ("max_length", PASSWORD_TOO_LONG, LENGTH_LIMITS)
        ], f"{operation} {path}: {errors}"
    assert hashes.hashed == 0


def _form_classes() -> list[type[forms.Form]]:
    for module in (
        "compliance.approvals.forms",
        "inspections.logbook.forms",
        "inspections.flags.forms",
        "inspections.reports.forms",
        "compliance.accounts.auth",
    ):
        importlib.import_module(module)
    found, stack = [], list(forms.BaseForm.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] in ("compliance", "inspections"):
            found.append(cls)
    return found


def test_every_password_field_of_the_pages_is_bounded():
    fields = {
        (cls.__name__, name): field
        for cls in _form_classes()
        for name, field in cls.base_fields.items()
        # The admin's display of the stored hash is not typed into.
        if "password" in name and not isinstance(field, ReadOnlyPasswordHashField)
    }
    assert ("SignInForm", "password") in fields and ("AdjustmentForm", "witness_password") in fields
    for where, field in fields.items():
        assert field.max_length == PASSWORD_MAX_LENGTH, where
        assert field.error_messages["max_length"] == PASSWORD_TOO_LONG, where


def _nothing_counted() -> bool:
    return not AccessAttempt.objects.exists() and not AccessFailureLog.objects.exists()


def test_the_sign_in_page_refuses_it_before_hashing_and_without_counting(db, hashes):
    person = UserFactory()
    hashes.hashed = 0  # making the person hashed theirs
    response = Client().post("/login/", {"username": person.username, "password": TOO_LONG})
    assert response.status_code == 200
    assert str(PASSWORD_TOO_LONG) in response.content.decode()
    assert hashes.hashed == 0 and _nothing_counted()


def test_the_token_endpoint_refuses_it_before_hashing_and_without_counting(db, hashes):
    person = UserFactory()
    hashes.hashed = 0  # making the person hashed theirs
    response = APIClient().post("/api/auth/token/", {"username": person.username, "password": TOO_LONG}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"code": "max_length", "message": PASSWORD_TOO_LONG, "citation": LENGTH_LIMITS, "field": "password"}
    ]
    assert hashes.hashed == 0 and _nothing_counted()


def test_a_signature_refuses_it_before_hashing_and_without_counting(casino, hashes):
    from tests.support.api import client_for
    from tests.support.logbook import ALL_PASS

    response = client_for(casino.floorperson).post(
        "/api/inspections/",
        {
            "table": casino.table.pk,
            "items": ALL_PASS,
            "signature": {"username": casino.floorperson.username, "password": TOO_LONG},
        },
        format="json",
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["code"], error["field"]) == ("max_length", "signature.password")
    assert hashes.hashed == 0 and _nothing_counted()


def test_a_signature_page_refuses_it_with_a_form_error(client, casino, hashes):
    from inspections.logbook.models import Entry

    client.force_login(casino.floorperson)
    response = client.post(
        f"/tables/{casino.table.pk}/inspect/",
        {
            "ball_non_magnetic": "on",
            "no_magnet_or_contrivance": "on",
            "wheel_level_and_rotating": "on",
            "parts_secure": "on",
            "username": casino.floorperson.username,
            "password": TOO_LONG,
        },
    )
    assert response.status_code == 200
    assert str(PASSWORD_TOO_LONG) in response.content.decode()
    assert hashes.hashed == 0 and _nothing_counted()
    assert not Entry.objects.exists()


def test_the_signature_service_refuses_it_whoever_calls(casino, hashes):
    from compliance.rulebook import RuleViolation
    from inspections.logbook.services import inspection_record
    from tests.support.logbook import ALL_PASS
    from tests.support.people import sign

    with pytest.raises(RuleViolation) as refused:
        inspection_record(
            table_id=casino.table.pk,
            items=ALL_PASS,
            signature=sign(casino.floorperson, TOO_LONG),
            recorded_by=casino.floorperson,
        )
    assert [(v.code, v.citation, v.field) for v in refused.value.violations] == [
        ("max_length", LENGTH_LIMITS, "signature")
    ]
    assert hashes.hashed == 0 and _nothing_counted()


def test_a_password_of_the_limit_is_set_and_typed_at_every_door(casino):
    at_limit = "correct horse battery staple " * 40
    at_limit = at_limit[:PASSWORD_MAX_LENGTH]
    api = APIClient()
    api.force_authenticate(casino.compliance)
    person = {"full_name": "New Guard", "role": "security", "credential_number": "BC-778", "username": "guard2"}
    assert api.post("/api/people/", {**person, "password": at_limit + "x"}, format="json").status_code == 400
    made = api.post("/api/people/", {**person, "password": at_limit}, format="json")
    assert made.status_code == 201, made.content
    assert Client().post("/login/", {"username": "guard2", "password": at_limit}).status_code == 302
    assert api.post("/api/auth/token/", {"username": "guard2", "password": at_limit}, format="json").status_code == 200
    covered = api.post(
        f"/api/tables/{casino.table.pk}/cover/",
        {"signature": {"username": "guard2", "password": at_limit}},
        format="json",
    )
    assert covered.status_code == 201, covered.content


def test_a_new_password_beyond_the_limit_is_refused_by_the_password_policy(db):
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        validate_password(TOO_LONG)
    assert PASSWORD_TOO_LONG in refused.value.messages
    validate_password(PASSWORD)
