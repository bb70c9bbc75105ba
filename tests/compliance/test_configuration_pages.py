"""A Rules Submission's table configurations on the pages (issue 30, items 1 and 2): every page of
compliance/approvals/web.py renders a submission of several configurations for each person who reads
it, in English and Spanish, on a test's world and on the demo's own data."""

from __future__ import annotations

from datetime import date, timedelta
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
from tests.factories import RegulatorFactory, UserFactory, configure_for_opening, layout_submitted
from tests.support.people import sign

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
    configure_for_opening(casino.table, created_by=casino.compliance)
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
    # A configuration's pages: a draft's form, a filed or decided version's refusal in words.
    configurations = [
        f"/rules-submissions/{s.pk}/configurations/{c.key}/edit/"
        for s in RulesSubmission.objects.filter(property=world.property, game="roulette")
        for c in s.all_configurations()[1:]
    ]
    configurations += [
        f"/rules-submissions/{pk}/configurations/new/"
        for pk in RulesSubmission.objects.filter(property=world.property, game="roulette").values_list("pk", flat=True)
    ]
    tables = [f"/manage/tables/{pk}/configuration/" for pk in world.property.tables.values_list("pk", flat=True)]
    manager = ["/manage/", "/manage/rules/new/", *submissions, *layouts, *configurations, *tables]
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
    if language == "es" and role != "regulator":
        new = client.get(f"/rules-submissions/{several.draft.pk}/configurations/new/").content.decode()
        for words in ("Nueva configuración de mesa", "Nombre de la configuración", "Guardar la configuración"):
            assert words in new
        assert "Añadir una configuración de mesa" in page and "Modificar o eliminar" in page
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


# ---- Item 2: a draft's table configurations made, named, edited and removed on its page ----


def test_a_manager_makes_edits_and_removes_a_table_configuration_on_the_draft_page(client, several):
    client.force_login(several.compliance)
    draft = f"/rules-submissions/{several.draft.pk}/"
    assert f"{draft}configurations/new/" in client.get(draft).content.decode()
    new = client.get(f"{draft}configurations/new/").content.decode()
    assert f'hx-post="{draft}configurations/check/"' in new and 'name="key"' in new

    # A key another configuration has: refused in words, and nothing typed is lost.
    typed = {"name": "Single zero, red and black", "key": "lightning", "wheel_types": ["single_zero"]}
    typed |= {"odds_straight": "34 to 1", "odds_red": "1 to 1", "odds_black": "1 to 1"}
    refused = client.post(f"{draft}configurations/new/", typed).content.decode()
    assert "The key “lightning” names another configuration" in refused
    assert 'value="Single zero, red and black"' in refused and 'value="34 to 1"' in refused
    several.draft.refresh_from_db()
    assert [c["key"] for c in several.draft.configurations] == ["lightning", "first-five"]

    # Made with a straight below § 617a.4(a)'s minimum: saved, with the violation and its citation.
    made = client.post(f"{draft}configurations/new/", {**typed, "key": "single"})
    assert made.status_code == 302 and made["Location"] == f"{draft}#configurations-heading"
    several.draft.refresh_from_db()
    single = several.draft.configurations[2]
    assert single == {
        "key": "single",
        "name": "Single zero, red and black",
        "wheel_types": ["single_zero"],
        "payout_odds": {"straight": [34, 1], "red": [1, 1], "black": [1, 1]},
        "options": {},
    }
    assert [(v["code"], v["citation"], v["field"]) for v in several.draft.violations] == [
        ("odds_below_minimum", "58 Pa. Code § 617a.4(a)", "configurations.2.payout_odds.straight")
    ]
    page = client.get(draft).content.decode()
    card = page[page.index('id="configuration-single"') :]
    assert "58 Pa. Code § 617a.4(a)" in card[: card.index("</article>")]

    # The live check and house edges of the configuration's own page, as the standard one's.
    edit = f"{draft}configurations/single/edit/"
    shown = client.get(edit).content.decode()
    assert "58 Pa. Code § 617a.4(a)" in shown and "House edge" in shown and 'value="34 to 1"' in shown
    live = client.post(f"{draft}configurations/check/", {**typed, "odds_straight": "35 to 1"}).content.decode()
    assert "No violations" in live and "2.70" in live  # 35 to 1 on 37 pockets
    assert RulesSubmission.objects.get(pk=several.draft.pk).configurations[2]["payout_odds"]["straight"] == [34, 1]

    # Edited: renamed, on both wheel types, the straight at its minimum; the key stays.
    client.post(
        edit,
        {**typed, "action": "save", "name": "Red and black", "wheel_types": ["single_zero", "double_zero"]}
        | {"odds_straight": "35 to 1", "key": "other"},
    )
    several.draft.refresh_from_db()
    assert several.draft.configurations[2]["key"] == "single"
    assert several.draft.configurations[2]["name"] == "Red and black"
    assert several.draft.configurations[2]["wheel_types"] == ["single_zero", "double_zero"]
    assert several.draft.violations == []

    # Removed.
    removed = client.post(edit, {"action": "remove"})
    assert removed.status_code == 302
    several.draft.refresh_from_db()
    assert [c["key"] for c in several.draft.configurations] == ["lightning", "first-five"]
    assert client.get(edit).status_code == 404


def test_a_filed_submissions_configurations_take_no_change(client, several):
    client.force_login(several.compliance)
    filed = f"/rules-submissions/{several.filed.pk}/"
    assert "configurations/new/" not in client.get(filed).content.decode()
    for url in (f"{filed}configurations/new/", f"{filed}configurations/lightning/edit/"):
        page = client.get(url).content.decode()
        assert "it is never rewritten" in page and "58 Pa. Code § 601a.2" in page and 'name="name"' not in page
    refused = client.post(
        f"{filed}configurations/lightning/edit/", {"action": "save", "name": "Changed", "wheel_types": ["single_zero"]}
    ).content.decode()
    assert "it is never rewritten" in refused and "58 Pa. Code § 601a.2" in refused
    client.post(f"{filed}configurations/lightning/edit/", {"action": "remove"})
    client.post(f"{filed}configurations/new/", {"name": "New", "key": "new", "wheel_types": ["single_zero"]})
    assert RulesSubmission.objects.get(pk=several.filed.pk).configurations == SEVERAL


def test_another_propertys_manager_and_the_regulator_keep_no_configuration(client, several, other_casino):
    new = f"/rules-submissions/{several.draft.pk}/configurations/new/"
    client.force_login(other_casino.compliance)
    assert client.get(new).status_code == 404
    client.force_login(several.regulator)
    assert client.get(new).status_code == 403
    assert client.post(new, {"name": "X", "key": "x", "wheel_types": ["single_zero"]}).status_code == 403
    assert "configurations/new/" not in client.get(f"/rules-submissions/{several.draft.pk}/").content.decode()


# ---- Item 2: a table's configuration chosen where the tables are managed ----


def test_the_manager_chooses_a_tables_configuration_among_those_in_effect_and_drafted(client, several):
    client.force_login(several.compliance)
    table = several.table
    assert f"/manage/tables/{table.pk}/configuration/" in client.get("/manage/").content.decode()
    url = f"/manage/tables/{table.pk}/configuration/"
    page = client.get(url).content.decode()
    assert 'value="standard"' in page and "in effect (version 1)" in page
    assert 'value="lightning"' in page and "version 3, draft" in page and "version 2, filed with the regulator" in page
    done = client.post(url, {"configuration": "first-five"})
    assert done.status_code == 302
    table.refresh_from_db()
    assert table.configuration == "first-five"
    assert "“first-five”: not in the version in effect" in client.get("/manage/").content.decode()
    assert client.post(url, {"configuration": "not-offered"}).status_code == 200
    table.refresh_from_db()
    assert table.configuration == "first-five"


def test_an_inspected_table_keeps_its_configuration_and_says_why(client, several):
    from tests.support.logbook import event, inspect

    client.force_login(several.compliance)
    event(several, "cover")
    event(several, "unlock")
    inspect(several)
    page = client.post(
        f"/manage/tables/{several.table.pk}/configuration/", {"configuration": "first-five"}
    ).content.decode()
    assert "its configuration changes only while it is closed" in page
    assert "Product policy" in page  # § 617a.2(a), (d) read as policy: the citation says so
    several.table.refresh_from_db()
    assert several.table.configuration == "standard"


def test_a_table_of_another_property_is_not_configured_here(client, several, other_casino):
    client.force_login(several.compliance)
    assert client.get(f"/manage/tables/{other_casino.table.pk}/configuration/").status_code == 404
    client.force_login(several.regulator)
    assert client.get(f"/manage/tables/{several.table.pk}/configuration/").status_code == 404


# ---- Item 2: the regulator sees each configuration and what changed from the version in effect ----


@pytest.fixture
def changed(casino):
    """Version 1 in effect with configurations “first-five” and “colour”; version 2 filed, with
    “first-five” changed (wheel types, odds, options), “colour” removed and “lightning” added."""
    # Made directly, approved, as the factories make version 1 (configure_for_opening keeps it).
    first = RulesSubmission.objects.create(
        property=casino.property,
        game="roulette",
        version=1,
        effective_from=date(2020, 1, 1),
        wheel_types=["single_zero", "double_zero"],
        payout_odds=STANDARD_ODDS,
        configurations=[
            SEVERAL[1],
            {"key": "colour", "name": "Colour table", "wheel_types": ["double_zero"], "payout_odds": STANDARD_ODDS},
        ],
        status="approved",
        created_by=casino.compliance,
    )
    configure_for_opening(casino.table, created_by=casino.compliance)
    first_five = {
        **SEVERAL[1],
        "wheel_types": ["single_zero", "double_zero"],
        "payout_odds": {"straight": [35, 1], "red": [1, 1]},
        "options": {},
    }
    casino.filed = approvals.rules_submission_draft(
        prop=casino.property,
        game="roulette",
        effective_from=property_today(casino.property) + timedelta(days=30),
        wheel_types=first.wheel_types,
        payout_odds=first.payout_odds,
        options={},
        configurations=[first_five, SEVERAL[0]],
        created_by=casino.compliance,
    )
    approvals.rules_submission_file(submission_id=casino.filed.pk, signature=sign(casino.compliance))
    casino.regulator = RegulatorFactory()
    return casino


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            [
                "Configuration Double zero with First Five: changed",
                "Wheel types: double zero → single zero, double zero",
                "Black: no longer offered (was 1 to 1)",
                "Five adjacent numbers wager: yes → not chosen",
                "Configuration Lightning Roulette: added",
                "Configuration Colour table: removed",
            ],
        ),
        (
            "es",
            [
                "Configuración Double zero with First Five: modificada",
                "Tipos de rueda: doble cero → un cero, doble cero",
                "Negro: ya no se ofrece (era 1 a 1)",
                "Apuesta a cinco números contiguos: sí → no elegida",
                "Configuración Lightning Roulette: añadida",
                "Configuración Colour table: eliminada",
            ],
        ),
    ],
)
def test_the_regulator_sees_each_configuration_and_what_changed_before_deciding(changed, language, said):
    client = reader(changed.regulator, language)
    page = client.get(f"/rules-submissions/{changed.filed.pk}/").content.decode()
    for words in said:
        assert words in page, words
    assert 'id="configuration-lightning"' in page and 'id="configuration-first-five"' in page
    assert 'name="decision"' in page  # the decision is taken on this page, below what changed


def test_the_service_refuses_a_configuration_the_draft_no_longer_has_and_writes_nothing(several):
    from compliance.rulebook import RuleViolation

    for call in (
        lambda: approvals.rules_submission_configuration_remove(submission_id=several.draft.pk, key="gone"),
        lambda: approvals.rules_submission_configuration_save(
            submission_id=several.draft.pk, key="gone", configuration={"name": "Gone", "wheel_types": []}
        ),
    ):
        with pytest.raises(RuleViolation) as refused:
            call()
        assert [(v.code, v.field) for v in refused.value.violations] == [("configuration_missing", "configurations")]
    assert RulesSubmission.objects.get(pk=several.draft.pk).configurations == SEVERAL


def test_a_configuration_sent_twice_is_added_once(client, several):
    import re

    client.force_login(several.compliance)
    new = f"/rules-submissions/{several.draft.pk}/configurations/new/"
    token = re.search(r'name="form_token" value="([^"]+)"', client.get(new).content.decode())[1]
    typed = {"form_token": token, "name": "Single", "key": "single", "wheel_types": ["single_zero"]}
    first, second = client.post(new, typed), client.post(new, typed)
    assert first.status_code == 302 and second.status_code in (302, 303)
    assert "The key “single” names another configuration" not in client.get(second["Location"]).content.decode()
    several.draft.refresh_from_db()
    assert [c["key"] for c in several.draft.configurations] == ["lightning", "first-five", "single"]


def _typed(configuration: dict) -> dict:
    """A configuration as the page's form takes it, typed."""
    typed = {"name": configuration["name"], "key": configuration["key"], "wheel_types": configuration["wheel_types"]}
    typed |= {f"odds_{code}": f"{odds[0]} to {odds[1]}" for code, odds in configuration["payout_odds"].items()}
    for name, value in configuration["options"].items():
        typed[f"option_{name}"] = (
            ", ".join(map(str, value)) if isinstance(value, list) else {True: "yes", False: "no"}.get(value, value)
        )
    return typed


def test_the_demos_manager_gives_a_new_draft_the_configurations_its_tables_need_on_the_page(client, db):
    """What the first user met: a new draft warned that R-02, R-07 and R-08 would be left without a
    configuration and offered no way to add one."""
    from inspections.logbook.management.commands.seed_demo import DEMO_CONFIGURATIONS, DEMO_PAYOUT_ODDS

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        call_command("seed_demo", stdout=StringIO())
    client.force_login(User.objects.get(username="compliance"))
    standard = {
        "effective_from": "2030-01-01",
        "wheel_types": ["single_zero", "double_zero", "double_zero_as_single_zero"],
    }
    standard |= {f"odds_{code}": f"{odds[0]} to {odds[1]}" for code, odds in DEMO_PAYOUT_ODDS.items()}
    draft = client.post("/manage/rules/new/", {**standard, "option_five_adjacent": "yes"})["Location"]
    page = client.get(draft).content.decode()
    for number in ("R-02", "R-07", "R-08"):
        assert f"Table {number}: it uses the configuration" in page
    for configuration in DEMO_CONFIGURATIONS:
        made = client.post(f"{draft}configurations/new/", _typed(configuration))
        assert made.status_code == 302, made.content.decode()
    page = client.get(draft).content.decode()
    assert "Every Roulette table of the property has a configuration in this version." in page
    assert RulesSubmission.objects.get(pk=int(draft.strip("/").split("/")[-1])).violations == []
