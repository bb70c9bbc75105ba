"""Every signed form (and every other form that records something) carries a one-time token: sent
twice (a double tap, a slow tablet sending again), it is recorded once, and the second answer says
where the first one is."""

from __future__ import annotations

import re
import threading

import pytest
from django import forms
from django.db import connection
from django.test import Client
from django.utils import timezone

from compliance.accounts.forms import OneTimeTokenForm, SignatureFields
from compliance.approvals import forms as compliance_forms
from inspections.flags import forms as flags_forms
from inspections.flags.models import ComplianceException
from inspections.logbook import forms as inspections_forms
from inspections.logbook.forms import SignedForm
from inspections.logbook.models import Entry
from inspections.reports import forms as reports_forms
from tests.compliance.test_layouts import BASIC
from tests.compliance.test_rules_submissions import STANDARD
from tests.compliance.test_web import STANDARD as WEB_STANDARD
from tests.factories import PASSWORD, artwork_upload
from tests.security.test_idempotency import row_counts
from tests.support.api import client_for, signature
from tests.support.logbook import ALL_PASS, event, inspect
from tests.test_i18n import set_language

TOKEN = re.compile(r'name="form_token" value="([^"]+)"')


def signed(who, **extra) -> dict:
    return {"username": who.username, "password": PASSWORD, **extra}


def every_token_form() -> set[type]:
    """The forms that record something, found as the subclasses of OneTimeTokenForm (less the bases)."""
    found, todo = set(), [OneTimeTokenForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.add(sub)
            todo.append(sub)
    return found - {SignatureFields, SignedForm}


def test_every_form_of_the_apps_carries_the_token():
    """Every form the pages offer records something (a sign-in is Django's own), so each has a token."""
    for module in (compliance_forms, inspections_forms, flags_forms, reports_forms):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, forms.BaseForm) and value.__module__ == module.__name__:
                assert issubclass(value, OneTimeTokenForm), value


def _draft(casino, *, filed=False) -> int:
    api = client_for(casino.compliance)
    body = {
        "property": casino.property.pk,
        "game": "roulette",
        "effective_from": timezone.localdate(timezone=casino.property.zone).isoformat(),
        "wheel_types": ["double_zero"],
        "payout_odds": STANDARD,
        "options": {},
    }
    submission = api.post("/api/rules-submissions/", body, format="json").json()["id"]
    if filed:
        response = api.post(
            f"/api/rules-submissions/{submission}/file/", {"signature": signature(casino.compliance)}, format="json"
        )
        assert response.status_code == 200, response.content
    return submission


def _with_configuration(casino) -> int:
    """A draft with a table configuration “single” beside the standard one."""
    submission = _draft(casino)
    configuration = {"key": "single", "name": "Single", "wheel_types": ["single_zero"], "payout_odds": STANDARD}
    response = client_for(casino.compliance).patch(
        f"/api/rules-submissions/{submission}/", {"configurations": [configuration]}, format="json"
    )
    assert response.status_code == 200, response.content
    return submission


def _layout(casino) -> int:
    body = {
        "property": casino.property.pk,
        "game": "roulette",
        "name": "L",
        "features": BASIC,
        "tables": [casino.table.pk],
        "artwork": artwork_upload(),
    }
    return client_for(casino.compliance).post("/api/layouts/", body, format="multipart").json()["id"]


def _flag(casino) -> int:
    now = timezone.now()
    return ComplianceException.objects.create(
        property=casino.property, table=casino.table, kind="not_covered", citation="x", due_at=now, detected_at=now
    ).pk


def _spare(casino) -> int:
    from decimal import Decimal

    from compliance.casinos.models import Ball

    return Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    ).pk


def _open(casino):
    event(casino, "cover")
    event(casino, "unlock")
    inspect(casino)
    event(casino, "open")


# For each signed form: who fills it in, on which page, with what (setting up what it needs).
def _cases(casino, regulator):
    c, t = casino, casino.table.pk
    return {
        "TableEventForm": lambda: (c.security, f"/tables/{t}/cover/", signed(c.security)),
        "InspectionForm": lambda: (
            event(c, "cover") and event(c, "unlock") and c.floorperson,
            f"/tables/{t}/inspect/",
            signed(c.floorperson, **{code: "pass" for code in ALL_PASS}),
        ),
        "AdjustmentForm": lambda: (
            event(c, "cover") and event(c, "unlock") and c.maintenance,
            f"/tables/{t}/adjust/",
            signed(
                c.maintenance,
                kind="adjustment",
                part="rotor",
                description="Levelled",
                witness_username=c.security.username,
                witness_password=PASSWORD,
            ),
        ),
        "BallChangeForm": lambda: (
            event(c, "cover") and event(c, "unlock") and c.maintenance,
            f"/tables/{t}/ball/",
            signed(
                c.maintenance,
                new_ball=_spare(c),
                description="Chipped",
                witness_username=c.security.username,
                witness_password=PASSWORD,
            ),
        ),
        "IrregularityForm": lambda: (
            _open(c) or c.floorperson,
            f"/tables/{t}/irregularity/",
            signed(c.floorperson, kind="same_direction"),
        ),
        "AmendmentForm": lambda: (
            c.floorperson,
            f"/entries/{inspect(c).pk if event(c, 'cover') and event(c, 'unlock') else 0}/amend/",
            signed(c.floorperson, reason="Typo", corrected_notes="Ball checked twice"),
        ),
        "FlagAcknowledgeForm": lambda: (
            c.compliance,
            f"/flags/{_flag(c)}/resolve/",
            signed(c.compliance, note="Covered"),
        ),
        "FileForm": lambda: (
            c.compliance,
            f"/rules-submissions/{_draft(c)}/",
            signed(c.compliance, action="file"),
        ),
        "DecisionForm": lambda: (
            regulator,
            f"/layouts/{_layout(c)}/",
            signed(regulator, action="decide", decision="approved", reference="BGO-L-1"),
        ),
        "DecisionForm on a Rules Submission": lambda: (
            regulator,
            f"/rules-submissions/{_draft(c, filed=True)}/",
            signed(regulator, action="decide", decision="approved", reference="BGO-1"),
        ),
        "RulesSubmissionForm": lambda: (c.compliance, "/manage/rules/new/", WEB_STANDARD),
        "ConfigurationForm": lambda: (
            c.compliance,
            f"/rules-submissions/{_draft(c)}/configurations/new/",
            {"name": "Single", "key": "single", "wheel_types": ["single_zero"], "odds_straight": "35 to 1"},
        ),
        "ConfigurationForm changed": lambda: (
            c.compliance,
            f"/rules-submissions/{_with_configuration(c)}/configurations/single/edit/",
            {"action": "save", "name": "Single zero", "wheel_types": ["single_zero"], "odds_straight": "35 to 1"},
        ),
        "ConfigurationForm removed": lambda: (
            c.compliance,
            f"/rules-submissions/{_with_configuration(c)}/configurations/single/edit/",
            {"action": "remove"},
        ),
        "TableConfigurationForm": lambda: (
            c.compliance,
            f"/manage/tables/{t}/configuration/",
            {"configuration": "standard"},
        ),
        "LayoutForm": lambda: (
            c.compliance,
            "/manage/layouts/new/",
            {"name": "Keystone 2027", "features": BASIC, "tables": [t], "artwork": artwork_upload()},
        ),
        "ReportForm": lambda: (
            c.compliance,
            "/reports/",
            {
                "kind": "inspection_register",
                "property": c.property.pk,
                "period_from": "2026-11-01",
                "period_to": "2026-11-02",
                "tables": "",
                "format": "csv",
            },
        ),
    }


def test_the_cases_below_cover_every_form_that_records(casino, regulator):
    named = {name.split(" ")[0] for name in _cases(casino, regulator)}
    assert named == {form.__name__ for form in every_token_form()}


def _shown_with_token(client, url) -> str:
    page = client.get(url)
    assert page.status_code == 200, page.content
    tokens = TOKEN.findall(page.content.decode())
    assert tokens, "the form carries no token"
    # A draft's page has its editor first, then the form to file it: the signed form is the last one.
    return tokens[-1]


CASES = [
    "TableEventForm",
    "InspectionForm",
    "AdjustmentForm",
    "IrregularityForm",
    "AmendmentForm",
    "FlagAcknowledgeForm",
    "FileForm",
    "DecisionForm",
    "DecisionForm on a Rules Submission",
    "RulesSubmissionForm",
    "ConfigurationForm",
    "ConfigurationForm changed",
    "ConfigurationForm removed",
    "TableConfigurationForm",
    "LayoutForm",
    "ReportForm",
]


@pytest.mark.parametrize("case", CASES)
def test_a_form_sent_twice_is_recorded_once(client, casino, regulator, case):
    who, url, data = _cases(casino, regulator)[case]()
    client.force_login(who)
    token = _shown_with_token(client, url)
    first = client.post(url, {**data, "form_token": token})
    assert first.status_code == 302, first.content.decode()
    before = row_counts()
    again = client.post(url, {**data, "form_token": token}, follow=True)
    assert row_counts() == before
    assert again.redirect_chain[0][0] == first["Location"]
    assert "Already recorded as" in again.content.decode()


def test_the_second_tap_names_the_entry_already_recorded(client, casino):
    client.force_login(casino.security)
    url = f"/tables/{casino.table.pk}/cover/"
    token = _shown_with_token(client, url)
    client.post(url, {**signed(casino.security), "form_token": token})
    page = client.post(url, {**signed(casino.security), "form_token": token}, follow=True).content.decode()
    assert "Already recorded as #1: Wheel covered and locked at table R-01" in page
    assert Entry.objects.count() == 1


def test_each_showing_of_a_form_has_its_own_token(client, casino):
    client.force_login(casino.security)
    url = f"/tables/{casino.table.pk}/cover/"
    assert _shown_with_token(client, url) != _shown_with_token(client, url)


def test_a_refused_form_may_be_corrected_and_sent_with_the_same_token(client, casino):
    client.force_login(casino.security)
    url = f"/tables/{casino.table.pk}/cover/"
    token = _shown_with_token(client, url)
    refused = client.post(url, {**signed(casino.security), "password": "wrong", "form_token": token})
    assert refused.status_code == 200 and f'value="{token}"' in refused.content.decode()
    assert client.post(url, {**signed(casino.security), "form_token": token}).status_code == 302
    assert Entry.objects.count() == 1


def test_two_taps_at_once_make_one_entry(committed_db, casino):
    url = f"/tables/{casino.table.pk}/cover/"
    browser = Client()
    browser.force_login(casino.security)
    token = _shown_with_token(browser, url)
    results: list = [None, None]
    barrier = threading.Barrier(2)

    def tap(index):
        try:
            barrier.wait()
            results[index] = browser.post(url, {**signed(casino.security), "form_token": token})
        finally:
            connection.close()

    threads = [threading.Thread(target=tap, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status_code for r in results] == [302, 302]
    assert Entry.objects.filter(kind="cover").count() == 1


MESSAGES = re.compile(r'<ul class="messages" role="status">(.*?)</ul>', re.S)
# The English of what a form recorded ("… at table R-01", "the decision on …", "draft version 2").
ENGLISH = re.compile(r"\b(Already|recorded|twice|the|at|of|on|version|draft|layout|report|approved|rejected|signed)\b")


@pytest.mark.parametrize("case", CASES)
def test_a_form_sent_twice_says_so_in_the_persons_language(client, casino, regulator, case):
    """A double tap on a Spanish tablet is told, in Spanish, what the first tap recorded (the walk
    of the demo in Chromium found "Already recorded as #363: Mesa cerrada at table R-04. The form
    was sent twice; it is recorded once." on a Spanish page); and so is the regulator's decision."""
    who, url, data = _cases(casino, regulator)[case]()
    set_language(who, "es")
    client.force_login(who)
    token = _shown_with_token(client, url)
    first = client.post(url, {**data, "form_token": token}, follow=True)
    said = " ".join(MESSAGES.findall(first.content.decode()))
    assert not ENGLISH.search(re.sub(r"<[^>]+>|“[^”]*”|«[^»]*»", "", said)), said
    again = client.post(url, {**data, "form_token": token}, follow=True).content.decode()
    said = " ".join(MESSAGES.findall(again))
    assert "Ya anotado como" in said, said
    assert not ENGLISH.search(re.sub(r"<[^>]+>|“[^”]*”|«[^»]*»", "", said)), said
