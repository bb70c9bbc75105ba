"""A Rules Submission's table configurations on the pages (issue 30, items 1 and 2): every page of
compliance/approvals/web.py renders a submission of several configurations for each person who reads
it, in English and Spanish, on a test's world and on the demo's own data."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from compliance.accounts.models import Role, User
from compliance.approvals import services as approvals
from compliance.approvals.models import LayoutSubmission, RulesSubmission
from compliance.casinos.clock import property_today
from compliance.casinos.models import Property
from inspections.logbook import demo
from tests.conftest import sign
from tests.factories import RegulatorFactory, UserFactory, layout_submitted

LANGUAGES = {"en": "en", "es": "es-ES,es;q=0.9"}
STANDARD_ODDS = {"straight": [35, 1], "red": [1, 1], "black": [1, 1]}
SEVERAL = [
    {
        "key": "lightning",
        "name": "Lightning Roulette",
        "wheel_types": ["single_zero"],
        "payout_odds": {**STANDARD_ODDS, "straight": [29, 1]},
        "options": {"lightning_payouts": [499, 399, 349, 299, 249, 199, 149, 99, 49]},
    },
    {
        "key": "first-five",
        "name": "Double zero with First Five",
        "wheel_types": ["double_zero"],
        "payout_odds": {**STANDARD_ODDS, "first_five": [6, 1]},
        "options": {"five_adjacent": True},
    },
]


def reader(person, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=LANGUAGES[language])
    client.force_login(person)
    return client


@pytest.fixture
def several(casino):
    """Keystone Casino with version 1 approved (one configuration), a filed version 2 and a draft
    version 3 of several configurations each, a layout waiting, a regulator and an administrator."""
    later = property_today(casino.property) + timedelta(days=30)
    versions = []
    for _ in range(2):
        versions.append(
            approvals.rules_submission_draft(
                prop=casino.property,
                game="roulette",
                effective_from=later,
                wheel_types=["single_zero", "double_zero"],
                payout_odds=STANDARD_ODDS,
                options={},
                configurations=SEVERAL,
                created_by=casino.compliance,
            )
        )
    approvals.rules_submission_file(submission_id=versions[0].pk, signature=sign(casino.compliance))
    casino.filed, casino.draft = versions
    casino.layout = layout_submitted(casino)
    casino.regulator = RegulatorFactory()
    casino.admin = UserFactory(role=Role.ADMIN, property=None, is_staff=True, is_superuser=True)
    return casino


def pages_of(world, role: str) -> list[str]:
    """The pages of compliance/approvals/web.py this person reads (GET), each expected to answer 200."""
    submissions = [f"/rules-submissions/{s.pk}/" for s in RulesSubmission.objects.filter(property=world.property)]
    layouts = [
        f"/layouts/{pk}/"
        for pk in LayoutSubmission.objects.filter(property=world.property).values_list("pk", flat=True)
    ]
    manager = ["/manage/", "/manage/rules/new/", *submissions, *layouts]
    return {
        "compliance": manager,
        "regulator": ["/approvals/", *submissions, *layouts],
        "admin": manager,  # the approvals queue is the regulator's alone
    }[role]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("role", ["compliance", "regulator", "admin"])
def test_every_approvals_page_renders_a_submission_of_several_configurations(several, role, language):
    client = reader(getattr(several, role), language)
    for url in pages_of(several, role):
        response = client.get(url)
        assert response.status_code == 200, url
    page = client.get(f"/rules-submissions/{several.draft.pk}/").content.decode()
    assert "Lightning Roulette" in page and "Double zero with First Five" in page
    if role != "regulator":
        # The live check of the manager's form (htmx) answers too.
        check = client.post(
            f"/manage/properties/{several.property.pk}/rules/check/",
            {"effective_from": "2026-12-01", "wheel_types": ["double_zero"], "odds_straight": "35 to 1"},
        )
        assert check.status_code == 200


def test_the_demos_own_submissions_render_for_each_person_who_reads_them_in_both_languages(db):
    """Issue 30, item 1: the demo's approved Rules Submission, of four configurations, answered 500."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        call_command("seed_demo", stdout=StringIO())
    prop = Property.objects.get(licence_number=demo.PROPERTY_LICENCE)
    submissions = list(RulesSubmission.objects.filter(property=prop))
    assert any(len(s.all_configurations()) > 1 for s in submissions)
    world = SimpleNamespace(property=prop)
    for username in ("compliance", "regulator", "admin"):
        for language in LANGUAGES:
            client = reader(User.objects.get(username=username), language)
            for url in pages_of(world, User.objects.get(username=username).role):
                assert client.get(url).status_code == 200, (username, language, url)
