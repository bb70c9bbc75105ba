"""Typed names and numbers are printable text on one line, notes printable text of a bounded
length (product policy, config.validators), on every model field and every API write.

A table number with a line break in it once broke the flag mail's subject; 2.4 MB notes were
accepted into logbook entries that can never be deleted."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils import timezone
from rest_framework.test import APIClient

from compliance.accounts.models import Role
from compliance.approvals.models import LayoutSubmission, RulesSubmission
from compliance.rulebook.text import (
    CITATIONS,
    LENGTH_LIMITS,
    PRINTABLE_NAMES,
    PRINTABLE_NOTES,
    REQUEST_FORM,
    SAME_CAUSE,
)
from config.validators import NOTE_MAX_LENGTH
from tests.api_schema import WRITE_METHODS, body_with, operations
from tests.factories import RegulatorFactory, UserFactory, flag_raised
from tests.support.api import client_for

PROJECT_APPS = ("casinos", "accounts", "approvals", "logbook", "flags", "reports")
# Refused everywhere: C0 controls, DEL, C1 controls.
CONTROL = ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\x9b"]
# Refused in a name or number, allowed in a note.
LINE_BREAKS = ["\n", "\r\n", "\t", "\u2028"]
# Refused everywhere: the bidirectional embeddings, overrides and isolates, which reorder what is
# shown ("R-0\u202e1" displays differently from what is stored and compared).
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]
# Refused in a name or number (invisible, so two numbers that look the same differ), allowed in a
# note: zero-width space, non-joiner, joiner, word joiner, byte-order mark, soft hyphen.
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]


def text_fields(*, kind: type[models.Field]) -> list[tuple[str, models.Field]]:
    """Every text field of the project's models that a person can type into: all but a list's
    choice (refused unless it is one of the list) and the password's hash (never typed), by name."""
    found = [
        (f"{model.__name__}.{field.name}", field)
        for label in PROJECT_APPS
        for model in apps.get_app_config(label).get_models()
        for field in model._meta.concrete_fields
        if isinstance(field, kind) and not field.choices and field.name != "password"
    ]
    assert found
    return found


def codes(error: ValidationError) -> set[str]:
    return {e.code for e in error.error_list}


@pytest.mark.parametrize("character", CONTROL + LINE_BREAKS + BIDI + INVISIBLE)
def test_every_name_and_number_field_refuses_a_control_character(character):
    """One item a character, every name and number field in it: a validator that lets the character
    through fails its item, naming every field; a field without the validator fails them all, named."""
    passed = []
    for name, field in text_fields(kind=models.CharField):
        try:
            field.run_validators(f"R{character}01")
        except ValidationError as refused:
            if "control_characters" not in codes(refused):
                passed.append(f"{name}: refused with {sorted(codes(refused))} only")
        else:
            passed.append(f"{name}: accepted")
    assert passed == []


@pytest.mark.parametrize("field", [pytest.param(f, id=name) for name, f in text_fields(kind=models.TextField)])
def test_every_note_field_refuses_a_control_character_but_keeps_its_lines(field):
    for character in CONTROL + BIDI:
        with pytest.raises(ValidationError) as refused:
            field.run_validators(f"Ball{character}replaced")
        assert codes(refused.value) == {"control_characters_in_text"}
    field.run_validators("Ball replaced.\r\nWheel re-levelled,\tchecked twice\n")
    for character in INVISIBLE:  # a pasted name in a note may keep its joiners and soft hyphens
        field.run_validators(f"Ball{character}replaced")


def test_every_free_text_field_refuses_text_beyond_its_limit():
    """Every field at once: those without a limit, with one above the notes', or that refuse their
    own limit's length or accept one more, are listed by name."""
    wrong = []
    for name, field in text_fields(kind=models.CharField) + text_fields(kind=models.TextField):
        limits = [v.limit_value for v in field.validators if isinstance(v, MaxLengthValidator)]
        if not limits or max(limits) > NOTE_MAX_LENGTH:
            wrong.append(f"{name}: limits {limits}")
            continue
        limit = min(limits)
        try:
            field.run_validators("x" * limit)
        except ValidationError as other:  # a time zone's own rule
            if "max_length" in codes(other):
                wrong.append(f"{name}: refuses {limit} characters")
        try:
            field.run_validators("x" * (limit + 1))
        except ValidationError as refused:
            if "max_length" not in codes(refused):
                wrong.append(f"{name}: refuses {limit + 1} characters with {sorted(codes(refused))} only")
        else:
            wrong.append(f"{name}: accepts {limit + 1} characters")
    assert wrong == []


def test_a_model_form_path_refuses_them_too(casino):
    """The admin's and the pages' model forms run the model's validators (full_clean)."""
    table = casino.table
    for number in ("R-\n01", "R-0\u202e1", "R-\u200b01"):
        table.number = number
        with pytest.raises(ValidationError) as refused:
            table.full_clean()
        assert refused.value.error_dict["number"][0].code == "control_characters"


@pytest.fixture
def world(casino):
    """Someone allowed to send each write, and an object of each kind to send it to."""
    admin = UserFactory(role=Role.ADMIN, property=None, is_staff=True)
    flag = flag_raised(casino.table, due_at=timezone.now(), detected_at=timezone.now())
    ids = {
        "tables": casino.table.pk,
        "properties": casino.property.pk,
        "exceptions": flag.pk,
        "layouts": LayoutSubmission.objects.get(property=casino.property).pk,
        "rules-submissions": RulesSubmission.objects.get(property=casino.property).pk,
    }
    clients = [client_for(casino.compliance), client_for(admin), client_for(RegulatorFactory(jurisdiction="PA"))]
    return ids, clients


def send(world, operation, body):
    """The request, from the first person the endpoint lets past its door (403 means: not them)."""
    ids, clients = world
    if operation.path == "/api/auth/token/":
        clients = [APIClient()]
    for client in clients:
        response = getattr(client, operation.method)(operation.url(ids), body, format="json")
        if response.status_code != 403:
            return response
    raise AssertionError(f"{operation}: nobody may send it")


def errors_by_field(response) -> dict[str | None, list[dict]]:
    assert response.status_code == 400, response.content
    found: dict = {}
    for error in response.json()["errors"]:
        found.setdefault(error["field"], []).append(error)
    return found


WRITES = [
    pytest.param(operation, id=str(operation))
    for operation in operations(WRITE_METHODS)
    if any(field.free_string for field in operation.body_fields)
]


def test_the_writes_are_discovered():
    assert len(WRITES) >= 20  # a broken discovery must not pass by covering nothing


@pytest.mark.parametrize("operation", WRITES)
def test_every_api_write_refuses_a_control_character_in_every_typed_field(world, operation):
    """One item a write, each character sent in turn: what is let through is listed by character and field."""
    fields = [field for field in operation.body_fields if field.free_string]
    wrong = []
    for character in ["\x1b", "\x9b", "\n", "\t", "\u202e", "\u2066", "\u200b", "\u00ad"]:
        response = send(world, operation, body_with({field.path: f"R{character}01" for field in fields}))
        if response.status_code != 400:
            wrong.append(f"{character!r}: answered {response.status_code} {response.content[:300]!r}")
            continue
        errors = errors_by_field(response)
        for field in fields:
            # A note is NOTE_MAX_LENGTH long; it keeps its line breaks, tabs and invisible joiners.
            note = field.schema.get("maxLength") == NOTE_MAX_LENGTH
            found = errors.get(field.path, [])
            if note and character in ["\n", "\t", *INVISIBLE]:
                if any(e["code"].startswith("control") for e in found):
                    wrong.append(f"{field.path} {character!r}: a note refused it: {found}")
                continue
            code = "control_characters_in_text" if note else "control_characters"
            matching = [e for e in found if e["code"] == code]
            if not matching:
                wrong.append(f"{field.path} {character!r}: not refused as {code}: {found}")
            elif matching[0]["citation"] != (PRINTABLE_NOTES if note else PRINTABLE_NAMES):
                wrong.append(f"{field.path} {character!r}: cites {matching[0]['citation']}")
    assert wrong == [], str(operation)


@pytest.mark.parametrize("operation", WRITES)
def test_every_api_write_refuses_typed_text_beyond_its_limit(world, operation):
    fields = [field for field in operation.body_fields if field.free_string]
    for field in fields:
        assert field.schema.get("maxLength"), f"{operation} {field.path} has no length limit"
    response = send(world, operation, body_with({f.path: "x" * (f.schema["maxLength"] + 1) for f in fields}))
    errors = errors_by_field(response)
    for field in fields:
        matching = [e for e in errors.get(field.path, []) if e["code"] == "max_length"]
        assert matching and matching[0]["citation"] == LENGTH_LIMITS, f"{operation} {field.path}: {errors}"


def test_a_correction_carries_printable_text_only(casino):
    from tests.support.api import signature
    from tests.support.logbook import inspect

    entry = inspect(casino)
    response = client_for(casino.compliance).post(
        "/api/amendments/",
        {
            "entry": entry.pk,
            "reason": "Typo in the notes",
            "correction": {"notes": "Ball\x1bchanged"},
            "signature": signature(casino.compliance),
        },
        format="json",
    )
    errors = errors_by_field(response)
    assert errors["correction"][0]["code"] == "control_characters_in_text"
    assert errors["correction"][0]["citation"] == CITATIONS["control_characters_in_text"]


def test_notes_of_two_and_a_half_megabytes_are_refused_and_nothing_is_written(casino):
    from inspections.logbook.models import Entry
    from tests.support.api import signature
    from tests.support.logbook import ALL_PASS

    response = client_for(casino.floorperson).post(
        "/api/inspections/",
        {
            "table": casino.table.pk,
            "items": ALL_PASS,
            "notes": "x" * 2_400_000,
            "signature": signature(casino.floorperson),
        },
        format="json",
    )
    assert response.status_code == 413, response.content
    assert response.json()["errors"][0]["code"] == "request_too_large"
    assert not Entry.objects.exists()


@pytest.mark.parametrize("operation", WRITES)
def test_a_nul_in_every_typed_field_answers_one_error_per_field_each_with_its_citation(world, operation):
    """A NUL is refused by our policy and by the framework's own check: the person reads it once per
    field, and every error of the answer (a missing field's too) names its citation."""
    fields = [field for field in operation.body_fields if field.free_string]
    response = send(world, operation, body_with({field.path: "R\x0001" for field in fields}))
    errors = errors_by_field(response)
    for error in response.json()["errors"]:
        assert error["citation"], f"{operation}: {error}"
    for field in fields:
        refusals = [e for e in errors.get(field.path, []) if SAME_CAUSE.get(e["code"]) == "control_characters"]
        assert [e["code"] for e in refusals] in (["control_characters"], ["control_characters_in_text"]), (
            f"{operation} {field.path}: {errors}"
        )
        assert refusals[0]["citation"] in (PRINTABLE_NAMES, PRINTABLE_NOTES)


def test_the_frameworks_own_refusals_name_their_citation(casino):
    """Missing, blank, too long or of the wrong type: the framework's codes each cite a policy."""
    response = client_for(casino.compliance).post(
        "/api/amendments/", {"entry": "x", "reason": "", "amendment_kind": "nonsense"}, format="json"
    )
    errors = response.json()["errors"]
    assert response.status_code == 400 and len(errors) >= 3, errors
    for error in errors:
        assert error["citation"] in (REQUEST_FORM, *CITATIONS.values()), error
