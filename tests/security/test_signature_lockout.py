"""Every signature counts towards the lockout: each endpoint that takes a signature is found in the
API's schema (none is listed by hand), and at each one a signer's wrong passwords lock their name
there, after which even the right password is refused and nothing is written. The threat: a
signed-in floor employee guessing a regulator's or a manager's password through a signed action."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.http import HttpRequest
from django.test import RequestFactory
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from compliance.accounts.models import SignatureFailures
from compliance.accounts.signatures import SignatureInput, Unattended, signer_authenticate
from compliance.approvals import forms as compliance_forms
from compliance.approvals.models import ApprovalSignature, LayoutSubmission, RulesSubmission
from compliance.rulebook import RuleViolation
from inspections.flags import forms as flags_forms  # noqa: F401  (its form is a SignatureFields too)
from inspections.flags.models import ComplianceException
from inspections.logbook import forms as inspections_forms  # noqa: F401  (its forms are SignatureFields too)
from inspections.logbook import services
from inspections.logbook.models import Entry
from tests.factories import PASSWORD, RegulatorFactory, flag_raised, rules_submission_version
from tests.support.logbook import ALL_PASS
from tests.support.people import sign

LIMIT = settings.AXES_FAILURE_LIMIT
SIGNATURE_COMPONENT = "SignatureInputRequest"
# § 617a.2(e) asks for the signature of the individual in the log; anything else signed (a flag's
# resolution, a filing, a regulator's decision) is signed by the product's own policy.
LOG = "58 Pa. Code § 617a.2(e)"
POLICY = "Product policy: a signature is the signer's password re-entered at signing"


def _refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value.rsplit("/", 1)[-1]
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def signed_endpoints() -> list[tuple[str, str, str]]:
    """(method, path, field) for every request body field of the schema that is a signature."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            for body in {ref for media in content.values() for ref in _refs(media.get("schema", {}))}:
                for name, prop in components[body].get("properties", {}).items():
                    if SIGNATURE_COMPONENT in set(_refs(prop)):
                        found.append((method.upper(), path, name))
    return sorted(set(found))


SIGNED = signed_endpoints()


@dataclass
class Case:
    """How to reach one signed endpoint: who calls, the body without signatures, who signs."""

    url: str
    body: dict
    signers: dict  # field -> user
    caller: object = None
    citation: str = LOG  # what a wrong or locked signature cites


def cases(casino) -> dict[tuple[str, str], Case]:
    """What each signed endpoint needs. A new signed endpoint fails the test below until it has a row."""
    table = casino.table
    regulator = RegulatorFactory()
    layout = LayoutSubmission.objects.filter(property=casino.property).first()
    submission = RulesSubmission.objects.filter(property=casino.property).first()
    draft = rules_submission_version(submission, version=2, status="draft", created_by=casino.compliance)
    now = timezone.now()
    flag = flag_raised(table, kind="cover_overdue", due_at=now)
    covered = services.table_event_record(
        table_id=table.pk, kind="cover", signature=sign(casino.security), recorded_by=casino.security
    )
    decision = {"decision": "approved", "reference": "BGO-2026-1"}
    return {
        ("POST", "/api/inspections/"): Case(
            "/api/inspections/", {"table": table.pk, "items": ALL_PASS}, {"signature": casino.security}
        ),
        ("POST", "/api/adjustments/"): Case(
            "/api/adjustments/",
            {"table": table.pk, "kind": "adjustment", "part": "ball track", "description": "levelled"},
            {"performer": casino.maintenance, "witness": casino.security},
        ),
        ("POST", "/api/irregularities/"): Case(
            "/api/irregularities/", {"table": table.pk, "kind": "same_direction"}, {"signature": casino.security}
        ),
        ("POST", "/api/deck-changes/"): Case(
            "/api/deck-changes/", {"table": table.pk, "decks": 6}, {"signature": casino.security}
        ),
        ("POST", "/api/amendments/"): Case(
            "/api/amendments/",
            {"entry": covered.pk, "reason": "The time was wrong.", "correction": {"at": now.isoformat()}},
            {"signature": casino.compliance},
        ),
        **{
            ("POST", f"/api/tables/{{id}}/{kind}/"): Case(
                f"/api/tables/{table.pk}/{kind}/", {}, {"signature": casino.security}
            )
            for kind in ("unlock", "open", "close", "cover")
        },
        **{
            ("POST", f"/api/exceptions/{{id}}/{action}/"): Case(
                f"/api/exceptions/{flag.pk}/{action}/",
                {"note": "Covered late."},
                {"signature": casino.compliance},
                citation=POLICY,
            )
            for action in ("acknowledge", "resolve")
        },
        ("POST", "/api/layouts/{id}/decision/"): Case(
            f"/api/layouts/{layout.pk}/decision/", decision, {"signature": regulator}, citation=POLICY
        ),
        ("POST", "/api/rules-submissions/{id}/decision/"): Case(
            f"/api/rules-submissions/{submission.pk}/decision/", decision, {"signature": regulator}, citation=POLICY
        ),
        ("POST", "/api/rules-submissions/{id}/file/"): Case(
            f"/api/rules-submissions/{draft.pk}/file/",
            {},
            {"signature": casino.compliance},
            caller=casino.compliance,  # filing is the compliance manager's page
            citation=POLICY,
        ),
    }


def test_the_schema_has_the_signed_endpoints_api_md_names():
    """The discovery itself: it finds the endpoints docs/api.md says take a signature (and may find more)."""
    paths = {path for _, path, _ in SIGNED}
    assert {"/api/inspections/", "/api/adjustments/", "/api/layouts/{id}/decision/"} <= paths
    assert {"/api/rules-submissions/{id}/file/", "/api/exceptions/{id}/resolve/"} <= paths
    assert ("POST", "/api/adjustments/", "witness") in SIGNED


@pytest.mark.parametrize(("method", "path", "signed_field"), SIGNED, ids=[f"{m} {p} {f}" for m, p, f in SIGNED])
def test_every_signature_locks_after_repeated_wrong_passwords_even_with_the_right_one(
    casino, method, path, signed_field
):
    known = cases(casino)
    assert (method, path) in known, f"{method} {path} takes a signature: say in cases() how to reach it"
    case = known[(method, path)]
    signer = case.signers[signed_field]
    client = APIClient()
    # A signed-in floor employee at a tablet, unless the endpoint is another role's page.
    client.force_authenticate(case.caller or casino.floorperson)
    watched = [Entry.objects.all(), ApprovalSignature.objects.all()]
    before = [qs.count() for qs in watched]
    flags_open = ComplianceException.objects.filter(status="open").count()

    def attempt(password):
        signatures = {
            name: {"username": person.username, "password": password if name == signed_field else PASSWORD}
            for name, person in case.signers.items()
        }
        response = client.post(case.url, {**case.body, **signatures}, format="json")
        assert response.status_code == 400, (len(attempts), response.content)
        [error] = [e for e in response.json()["errors"] if e["field"] == signed_field]
        attempts.append(error["code"])
        # The rule that asks for this signature, never the one of the action signed (a flag's).
        assert error["citation"] == case.citation, (error, path)
        return error

    attempts: list[str] = []
    for _ in range(LIMIT + 1):
        attempt("not " + PASSWORD)
    locked_right = attempt(PASSWORD)
    # The fifth wrong password locks the name; the sixth, and then the right one, meet the lock.
    assert attempts == ["signature_invalid"] * (LIMIT - 1) + ["signature_locked_out"] * 3
    assert "locked for 15 minutes" in locked_right["message"]
    # Counted as the signature's own, never toward signing in.
    assert SignatureFailures.objects.get(username=signer.username).failures >= LIMIT
    assert not AccessAttempt.objects.filter(username=signer.username).exists()
    assert [qs.count() for qs in watched] == before
    assert ComplianceException.objects.filter(status="open").count() == flags_open


def test_a_signature_cannot_be_made_without_its_request():
    with pytest.raises(TypeError):
        SignatureInput("someone", PASSWORD)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        SignatureInput("someone", PASSWORD, None)  # type: ignore[arg-type]


def test_a_password_is_never_checked_without_the_request_that_brought_it(casino):
    """Django's authenticate() without a request would skip the count: the lockout backend refuses it."""
    from django.contrib.auth import authenticate

    assert authenticate(username=casino.security.username, password=PASSWORD) is None
    assert authenticate(RequestFactory().post("/"), username=casino.security.username, password=PASSWORD)


def test_only_an_explicit_unattended_signature_is_not_counted(casino):
    """The demo seeder signs on the server, saying so: its password is checked, no attempt is counted."""
    unattended = SignatureInput(casino.security.username, PASSWORD, Unattended("seed_demo"))
    assert (
        signer_authenticate(signature=unattended, field="signature", jurisdiction="PA", in_logbook=True)
        == casino.security
    )
    wrong = SignatureInput(casino.security.username, "wrong", Unattended("seed_demo"))
    with pytest.raises(RuleViolation) as refused:
        signer_authenticate(signature=wrong, field="signature", jurisdiction="PA", in_logbook=True)
    assert refused.value.violations[0].code == "signature_invalid"
    assert not AccessAttempt.objects.exists()


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


SIGNED_FORMS = sorted(set(_subclasses(compliance_forms.SignatureFields)), key=lambda c: c.__qualname__)


@pytest.mark.parametrize("form_class", SIGNED_FORMS, ids=[c.__name__ for c in SIGNED_FORMS])
def test_every_signing_form_takes_the_request_and_signs_with_it(casino, form_class):
    """The browser's side: every form with a signature is built with the request, and passes it on."""
    assert len(SIGNED_FORMS) >= 6
    with pytest.raises(TypeError):
        form_class({})
    request = RequestFactory().post("/")
    request.user = casino.security
    form = form_class.__new__(form_class)
    form.request = request
    form.cleaned_data = {"username": "someone", "password": PASSWORD}
    signature = form.signature()
    assert isinstance(signature.request, HttpRequest) and signature.request is request
