"""Rules Submissions: drafts with their violations, filing, the regulator's signed decision, versions."""

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction

from compliance.approvals.models import ApprovalSignature, RulesSubmission
from compliance.approvals.selectors import rules_submission_in_effect
from compliance.casinos.clock import property_today
from tests.factories import RegulatorFactory
from tests.support.api import assert_refused, client_for, signature

STANDARD = {
    "straight": [35, 1],
    "split": [17, 1],
    "three_numbers": [11, 1],
    "four_numbers": [8, 1],
    "first_five": [6, 1],
    "six_numbers": [5, 1],
    "column": [2, 1],
    "dozen": [2, 1],
    "red": [1, 1],
    "black": [1, 1],
    "odd": [1, 1],
    "even": [1, 1],
    "low": [1, 1],
    "high": [1, 1],
}


def draft(client, prop, **overrides):
    body = {
        "property": prop.pk,
        "game": "roulette",
        "effective_from": property_today(prop).isoformat(),  # the property's today, not the server's
        "wheel_types": ["double_zero"],
        "payout_odds": STANDARD,
        "options": {"touchdown_paytable": "A"},
    }
    return client.post("/api/rules-submissions/", {**body, **overrides}, format="json")


def test_a_draft_lists_every_violation_and_is_kept(casino):
    response = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["double_zero", "single_zero"],
        payout_odds={**STANDARD, "straight": [30, 1], "seven_numbers": [4, 1]},
        options={"touchdown_paytable": "A", "b2b_payouts": [1000]},
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "draft" and body["version"] == 1
    found = {(v["code"], v["citation"], v["field"]) for v in body["violations"]}
    assert found == {
        ("odds_below_minimum", "58 Pa. Code § 617a.4(a)", "payout_odds.straight"),
        # New Jersey has the seven numbers wager; Pennsylvania does not.
        ("wager_not_in_jurisdiction", "58 Pa. Code § 617a.3(e)", "payout_odds.seven_numbers"),
        ("wager_wheel_type", "58 Pa. Code § 617a.3(e)(5)", "payout_odds.first_five"),
        ("option_wheel_type", "58 Pa. Code § 617a.1(f)(5)", "options.touchdown_paytable"),
        ("payouts_incomplete", "58 Pa. Code § 617c.1(e)", "options.b2b_payouts"),
    }


def test_a_draft_with_violations_cannot_be_filed(casino):
    client = client_for(casino.compliance)
    submission = draft(client, casino.property, payout_odds={"straight": [34, 1]}).json()
    response = client.post(
        f"/api/rules-submissions/{submission['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    assert_refused(response, "submission_has_violations", "58 Pa. Code § 601a.2", None)
    assert RulesSubmission.objects.get().status == "draft"


def test_the_house_edge_is_shown_per_wager_and_wheel(casino):
    body = draft(
        client_for(casino.compliance), casino.property, wheel_types=["double_zero", "single_zero"], options={}
    ).json()
    assert body["house_edge"]["straight"] == {"double_zero": 5.2632, "single_zero": 2.7027}
    assert body["house_edge"]["first_five"] == {"double_zero": 7.8947}


@pytest.mark.any_hour
def test_file_approve_and_supersede(casino, regulator):
    client = client_for(casino.compliance)
    today = property_today(casino.property)
    first = draft(client, casino.property, effective_from=(today - timedelta(days=30)).isoformat()).json()
    assert first["violations"] == []
    response = client.post(
        f"/api/rules-submissions/{first['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "filed" and len(response.json()["content_hash"]) == 64
    # A filed version is never rewritten.
    assert_refused(
        client.patch(f"/api/rules-submissions/{first['id']}/", {"options": {}}, format="json"),
        "submission_not_draft",
        "Product policy: a filed Rules Submission is never rewritten; a change is a new version "
        "(58 Pa. Code § 601a.2, relating to table games Rules Submissions)",
    )
    decision = {"decision": "approved", "reference": "BGO-2026-114", "signature": signature(regulator)}
    assert (
        client.post(
            f"/api/rules-submissions/{first['id']}/decision/",
            {**decision, "signature": signature(casino.compliance)},
            format="json",
        ).status_code
        == 400
    )
    response = client_for(regulator).post(f"/api/rules-submissions/{first['id']}/decision/", decision, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "approved"
    assert [s["action"] for s in response.json()["signatures"]] == ["filed", "approved"]
    assert response.json()["signatures"][1]["credential_number"] == regulator.credential_number
    assert rules_submission_in_effect(property_id=casino.property.pk, game="roulette", on=today).pk == first["id"]

    second = draft(
        client,
        casino.property,
        effective_from=(today + timedelta(days=7)).isoformat(),
        options={"touchdown_paytable": "D"},
    ).json()
    assert second["version"] == 2
    client.post(
        f"/api/rules-submissions/{second['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    client_for(regulator).post(
        f"/api/rules-submissions/{second['id']}/decision/", {**decision, "reference": "BGO-2026-120"}, format="json"
    )
    # The newer version takes effect from its date; the older one stays readable as it was.
    assert rules_submission_in_effect(property_id=casino.property.pk, game="roulette", on=today).pk == first["id"]
    assert (
        rules_submission_in_effect(property_id=casino.property.pk, game="roulette", on=today + timedelta(days=7)).pk
        == second["id"]
    )
    old = client.get(f"/api/rules-submissions/{first['id']}/").json()
    assert old["options"] == {"touchdown_paytable": "A"} and old["status"] == "approved"


def test_a_regulator_of_another_jurisdiction_cannot_decide_or_see(casino):
    client = client_for(casino.compliance)
    submission = draft(client, casino.property).json()
    client.post(
        f"/api/rules-submissions/{submission['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    outsider = RegulatorFactory(jurisdiction="NJ")
    response = client_for(outsider).post(
        f"/api/rules-submissions/{submission['id']}/decision/",
        {"decision": "approved", "reference": "X", "signature": signature(outsider)},
        format="json",
    )
    assert response.status_code == 404
    assert not ApprovalSignature.objects.filter(action="approved").exists()


def test_only_compliance_drafts_and_a_wrong_password_files_nothing(casino):
    assert draft(client_for(casino.security), casino.property).status_code == 403
    client = client_for(casino.compliance)
    submission = draft(client, casino.property).json()
    response = client.post(
        f"/api/rules-submissions/{submission['id']}/file/",
        {"signature": signature(casino.compliance, "wrong")},
        format="json",
    )
    assert_refused(
        response,
        "signature_invalid",
        "Product policy: a signature is the signer's password re-entered at signing",
        "signature",
    )
    assert RulesSubmission.objects.get().status == "draft"


def test_unknown_wagers_and_wheels_are_a_clear_400_and_nothing_is_saved(casino):
    response = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["triple_zero"],
        payout_odds={"martingale": [1, 1], "straight": "35:1"},
        options={"touchdown_paytable": "Z", "free_drinks": True},
    )
    assert response.status_code == 400
    fields = {(e["code"], e["field"]) for e in response.json()["errors"]}
    assert fields == {
        ("wheel_type_unknown", "wheel_types.0"),
        ("wager_unknown", "payout_odds.martingale"),
        ("odds_format", "payout_odds.straight"),
        ("paytable_not_listed", "options.touchdown_paytable"),
        ("option_unknown", "options.free_drinks"),
    }
    assert not RulesSubmission.objects.exists()


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE approvals_approvalsignature SET credential_number = 'forged'",
        "DELETE FROM approvals_approvalsignature",
    ],
)
def test_approval_signatures_are_append_only_in_the_database(casino, sql):
    client = client_for(casino.compliance)
    submission = draft(client, casino.property).json()
    client.post(
        f"/api/rules-submissions/{submission['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    assert ApprovalSignature.objects.count() == 1
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert ApprovalSignature.objects.get().credential_number == casino.compliance.credential_number


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE approvals_rulessubmission SET options = '{}'",
        "UPDATE approvals_rulessubmission SET status = 'draft'",
        "DELETE FROM approvals_rulessubmission",
    ],
)
def test_a_decided_submission_cannot_change_in_the_database(casino, regulator, sql):
    client = client_for(casino.compliance)
    submission = draft(client, casino.property).json()
    client.post(
        f"/api/rules-submissions/{submission['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    client_for(regulator).post(
        f"/api/rules-submissions/{submission['id']}/decision/",
        {"decision": "approved", "reference": "R", "signature": signature(regulator)},
        format="json",
    )
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert RulesSubmission.objects.get().options == {"touchdown_paytable": "A"}


def test_a_draft_still_changes_in_the_database(casino):
    draft(client_for(casino.compliance), casino.property)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE approvals_rulessubmission SET options = '{}'")
    assert RulesSubmission.objects.get().options == {}


def test_odds_too_large_to_be_meant_are_a_400_not_a_500(casino):
    response = draft(client_for(casino.compliance), casino.property, payout_odds={"straight": [10**400, 1]})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "odds_format"
    assert not RulesSubmission.objects.exists()
    assert client_for(casino.compliance).get("/api/rules-submissions/").status_code == 200
