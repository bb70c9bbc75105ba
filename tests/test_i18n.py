"""The staff's languages: English and Spanish on the floor, the forms, the refusals (codes and
citations unchanged), the API's refusals and the flags' mail; chosen by the person, else their
browser, else English; and the catalogue complete, its placeholders and citations kept, its .mo
compiled from it."""

import ast
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import polib
import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.utils import translation
from rest_framework.test import APIClient

from compliance.accounts.models import User
from compliance.accounts.services import person_language_set
from compliance.casinos.models import Property
from compliance.rulebook import RuleViolation, flags, game_rules_for, roles, rulebook_for
from compliance.rulebook import words as labels
from compliance.rulebook.catalogue import CATALOGUE, violation
from compliance.rulebook.games import casino_war
from compliance.rulebook.jurisdictions import pennsylvania
from compliance.rulebook.procedure import role_names, role_phrase
from compliance.rulebook.vocabulary import Jurisdiction, Role, Vocabulary
from inspections.flags import services as flag_services
from inspections.reports.models import Report
from tests.factories import PASSWORD, flag_raised
from tests.support.logbook import ALL_PASS
from tests.test_dates import page_text

PO = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
# What a translation must keep as it is: the placeholders, and every citation a message names.
BRACES = re.compile(r"\{[a-z_]+(?::[^}]*)?\}")
PERCENT = re.compile(r"%\([a-z_]+\)[sd]")
CITATIONS = re.compile(
    r"§ ?\d+[a-z]?\.\d+(?:\([a-z0-9]+\))*(?:–\([a-z]\))?|N\.J\.A\.C\. [0-9:.\-()a-z]+|Section 4\([a-z]\)(?:\(\d\))?"
)


def set_language(person, language: str) -> None:
    person_language_set(person_id=person.pk, actor=person, language=language)
    person.refresh_from_db()


@pytest.fixture
def catalogue() -> polib.POFile:
    return polib.pofile(str(PO))


# ---- The catalogue ----


def test_every_message_of_the_catalogue_has_its_spanish_and_none_is_fuzzy(catalogue):
    untranslated = [entry.msgid for entry in catalogue if not entry.translated()]
    fuzzy = [entry.msgid for entry in catalogue if "fuzzy" in entry.flags]
    assert (untranslated, fuzzy) == ([], [])
    assert len(catalogue) > 500


def rulebook_marked() -> set[str]:
    """Every text the rulebook marks with gettext_noop, read from its source as makemessages reads it."""
    found = set()
    for path in (Path(settings.BASE_DIR) / "compliance" / "rulebook").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop":
                found.add(node.args[0].value)
    return found


def rulebook_words() -> list[str]:
    """What the rulebook says, as its rules answer it: the refusals' templates, the vocabulary, the
    role phrases, the checklist, flags, wagers, irregularities, options and layout features."""
    found = [entry.template for entry in CATALOGUE.values()]
    found += [member.label for vocabulary in Vocabulary.__subclasses__() for member in vocabulary]
    found += [role_phrase(type("Signer", (), {"role": role})) for role in Role]
    # The roles a rule allows, as its sentence names them (role_names of each set of roles).
    for module in (roles, pennsylvania):
        for value in vars(module).values():
            for item in value.values() if isinstance(value, dict) else (value,):
                if isinstance(item, frozenset) and item and all(isinstance(role, Role) for role in item):
                    found.append(role_names(item))
    found += list(labels.LAYOUT_FEATURE_LABELS.values()) + list(labels.OPTION_LABELS.values())
    found += [value for value in labels.VALUE_WORDS.values() if isinstance(value, str)]
    found += [kind.label for kind in flags.FLAG_KINDS] + [label for _, label in casino_war.CARD_CHECKS]
    for code in Jurisdiction:
        rules, game = rulebook_for(code), game_rules_for(code)
        found += [item.label for item in rules.CHECKLIST] + [label for _, label in rules.IRREGULARITY_KINDS]
        found += [wager.label for wager in (*game.WAGERS.values(), *game.BIG_SIX_WAGERS.values())]
    found += [label for _, label in casino_war.IRREGULARITY_KINDS]
    return list(dict.fromkeys(found))


def test_every_sentence_and_word_of_the_rulebook_is_in_the_catalogue(catalogue):
    """The refusals, the vocabulary, the checklists, flags, wagers, options and layout features: a
    message added to the rulebook without `make messages` fails here, and so does one said without
    its gettext_noop mark (which makemessages finds it by)."""
    translated = {entry.msgid for entry in catalogue if entry.translated() and not entry.msgctxt}
    marked = rulebook_marked()
    missing = [text for text in sorted(marked) if text not in translated]
    assert missing == []
    assert {entry.template for entry in CATALOGUE.values()} <= translated
    unmarked = [text for text in rulebook_words() if text not in marked]
    assert unmarked == []


def test_the_floor_and_its_forms_are_in_the_catalogue(catalogue):
    """The floor's templates, the base navigation and the floor's forms: each of their messages
    extracted and translated (makemessages names where each comes from)."""
    places = {occurrence[0] for entry in catalogue if entry.translated() for occurrence in entry.occurrences}
    floor = {
        "templates/base.html",
        "templates/floor/action.html",
        "templates/floor/dashboard.html",
        "templates/floor/table.html",
        "templates/floor/flags.html",
        "templates/floor/flag_resolve.html",
        "templates/floor/flag_history.html",
        "templates/floor/amend.html",
        "templates/floor/not_offered.html",
        "templates/registration/login.html",
        "inspections/logbook/forms.py",
        "inspections/flags/forms.py",
        "compliance/accounts/forms.py",
        "compliance/approvals/forms.py",
        "inspections/reports/forms.py",
        "inspections/flags/services.py",
        "inspections/flags/text.py",
    }
    assert floor <= places


def test_each_translation_keeps_its_placeholders_and_citations(catalogue):
    for entry in catalogue:
        if not entry.msgid:
            continue
        pairs = (
            [(entry.msgid, entry.msgstr)]
            if not entry.msgid_plural
            else [(entry.msgid_plural, text) for text in entry.msgstr_plural.values()]
        )
        for english, spanish in pairs:
            for pattern in (BRACES, PERCENT):
                assert sorted(set(pattern.findall(english))) == sorted(set(pattern.findall(spanish))), english
            for citation in CITATIONS.findall(english):
                assert citation in spanish, (citation, english, spanish)


def test_every_plural_has_each_form_spanish_counts_with(catalogue):
    """Spanish has three plural forms in Django's catalogue (one; a round million, "de"; the rest):
    a message with fewer falls back to English for every count but one."""
    forms = int(re.search(r"nplurals=(\d+)", catalogue.metadata["Plural-Forms"]).group(1))
    plurals = [entry for entry in catalogue if entry.msgid_plural]
    assert plurals
    assert [entry.msgid for entry in plurals if sorted(entry.msgstr_plural) != list(range(forms))] == []
    with translation.override("es"):
        assert translation.ngettext("%(overdue)d table overdue", "%(overdue)d tables overdue", 3) == (
            "%(overdue)d mesas atrasadas"
        )


def test_the_committed_mo_is_compiled_from_the_po(catalogue):
    """The .mo is committed so that a fresh machine needs no GNU gettext; `make messages` (or
    scripts/compile_messages.py) writes it again after the .po changes."""
    compiled = polib.mofile(str(MO))
    said = {(entry.msgctxt, entry.msgid): (entry.msgstr, entry.msgstr_plural) for entry in compiled if entry.msgid}
    expected = {
        (entry.msgctxt, entry.msgid): (entry.msgstr, entry.msgstr_plural) for entry in catalogue.translated_entries()
    }
    assert said == expected


def test_a_refusal_is_said_in_the_language_in_use_with_its_code_and_citation_unchanged():
    refused = violation("table_already_open", field="table", table="R-01")
    with translation.override("es"):
        spanish = refused.as_dict()
    english = refused.as_dict()
    assert spanish["message"] == "La mesa R-01 ya está abierta."
    assert english["message"] == "Table R-01 is already open."
    assert {k: v for k, v in spanish.items() if k != "message"} == {k: v for k, v in english.items() if k != "message"}


# ---- The person's choice, then the browser's, then English ----


def test_the_floor_in_the_persons_language(client, casino):
    set_language(casino.floorperson, "es")
    client.force_login(casino.floorperson)
    page = client.get("/floor/").content.decode()
    assert '<html lang="es">' in page
    assert "Cada mesa y lo que necesita a continuación" in page and ">Sala</a>" in page
    assert "Every table and what it needs next" not in page


def test_the_floor_in_the_browsers_language_when_the_person_chose_none(client, casino):
    client.force_login(casino.floorperson)
    page = client.get("/floor/", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9,en;q=0.5").content.decode()
    assert '<html lang="es">' in page and "Cada mesa y lo que necesita a continuación" in page
    english = client.get("/floor/").content.decode()
    assert '<html lang="en">' in english and "Every table and what it needs next" in english


def test_the_persons_choice_beats_the_browsers(client, casino):
    set_language(casino.floorperson, "en")
    client.force_login(casino.floorperson)
    page = client.get("/floor/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="en">' in page and "Every table and what it needs next" in page


def test_a_language_no_one_translated_is_english(client, casino):
    client.force_login(casino.floorperson)
    page = client.get("/floor/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()
    assert '<html lang="en">' in page


def test_the_inspection_form_in_spanish_and_in_english(client, casino):
    table = casino.table
    client.force_login(casino.security)
    set_language(casino.security, "es")
    spanish = client.get(f"/tables/{table.pk}/inspect/").content.decode()
    for words in (
        "Inspección (§ 617a.2(a))",
        "Mesa R-01",
        "Firmar y anotar",
        "Cancelar",
        "Conforme",
        "No conforme",
        "Todo conforme",
        "Rueda nivelada y girando libre y uniformemente",
        "Firmado por (usuario)",
        "Contraseña",
    ):
        assert words in spanish, words
    assert "58 Pa. Code § 617a.2(a)" in spanish  # each item's citation, as in English
    set_language(casino.security, "")
    english = client.get(f"/tables/{table.pk}/inspect/").content.decode()
    for words in (
        "Inspection (§ 617a.2(a))",
        "Table R-01",
        "Sign and record",
        "Pass",
        "Fail",
        "Wheel level and rotating freely and evenly",
    ):
        assert words in english, words
    assert "Firmar y anotar" not in english


def test_a_failed_inspection_is_said_in_spanish_with_its_failed_item_in_spanish(client, casino):
    """The message after a failed inspection names the failed item in the reader's language; the
    entry's description, the record, stays as written."""
    from compliance.casinos.models import TableState
    from tests.support.logbook import event

    if casino.table.state == TableState.OPEN:
        event(casino, "close")
    set_language(casino.security, "es")
    client.force_login(casino.security)
    form = {**{code: "pass" for code in ALL_PASS}, "parts_secure": "fail"}
    form |= {"username": casino.security.username, "password": PASSWORD}
    response = client.post(f"/tables/{casino.table.pk}/inspect/", form, follow=True)
    (message,) = [str(message) for message in response.context["messages"]]
    assert "Todas las piezas de la rueda firmes y sin holgura" in message
    assert "All parts of the wheel" not in message
    assert "(58 Pa. Code § 617a.2(a))" in message


def test_the_tables_wheels_and_configuration_are_said_by_their_labels_in_each_language(client, casino):
    """The table page's configuration and wheel: the wheel types' labels in the reader's language,
    never their codes with the underscores taken out ("double zero as single zero")."""
    client.force_login(casino.security)
    set_language(casino.security, "es")
    spanish = page_text(client.get(f"/tables/{casino.table.pk}/").content.decode())
    assert "un cero, doble cero, doble cero usada como de un cero" in spanish
    assert "(doble cero, 32" in spanish  # the wheel registered
    assert "single zero" not in spanish and "double zero" not in spanish
    set_language(casino.security, "en")
    english = page_text(client.get(f"/tables/{casino.table.pk}/").content.decode())
    assert "single zero, double zero, double zero used as single zero" in english
    assert "double zero as single zero" not in english


def test_the_timeline_says_an_inspections_result_in_the_readers_language(client, casino):
    """The table's logbook: a failed inspection's items by their labels in Spanish for a Spanish
    reader, in English for an English one; the entry's description, the record, is unchanged."""
    from compliance.casinos.models import TableState
    from inspections.logbook.models import Entry
    from tests.support.logbook import event, inspect

    if casino.table.state == TableState.OPEN:
        event(casino, "close")
    inspect(casino, items={**ALL_PASS, "parts_secure": False})
    client.force_login(casino.security)
    set_language(casino.security, "es")
    spanish = page_text(client.get(f"/tables/{casino.table.pk}/").content.decode())
    assert "Todas las piezas de la rueda firmes y sin holgura" in spanish
    assert "All parts of the wheel" not in spanish
    set_language(casino.security, "en")
    english = page_text(client.get(f"/tables/{casino.table.pk}/").content.decode())
    assert "Inspection FAILED: All parts of the wheel secure and free from movement" in english
    assert Entry.objects.get(kind="inspection").description.startswith("Inspection FAILED: All parts")


def test_the_timeline_says_a_no_spin_in_the_readers_language(client, casino):
    """A "no spin" on the table's logbook: its reason by its Spanish label, with its citation as the
    rule writes it, and the ball put in play; the record's description is unchanged."""
    from decimal import Decimal

    from compliance.casinos.models import Ball
    from inspections.logbook import services
    from inspections.logbook.models import Entry
    from tests.support.logbook import event, inspect
    from tests.support.people import sign

    inspect(casino)
    event(casino, "open")
    spare = Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    services.irregularity_record(
        table_id=casino.table.pk,
        kind="ball_left_wheel",
        ball_replaced=True,
        new_ball=spare,
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    client.force_login(casino.security)
    set_language(casino.security, "es")
    spanish = page_text(client.get(f"/tables/{casino.table.pk}/").content.decode())
    assert "la bola salió de la rueda durante la tirada (§ 617a.6(c))" in spanish
    assert "B-SPARE" in spanish
    assert "ball left the wheel" not in spanish
    set_language(casino.security, "en")
    english = page_text(client.get(f"/tables/{casino.table.pk}/").content.decode())
    assert "No spin: ball left the wheel during the spin (§ 617a.6(c)); ball replaced by B-SPARE" in english
    assert Entry.objects.get(kind="irregularity").description.startswith("No spin: ball left the wheel")


def test_the_locks_page_is_named_in_spanish_in_its_title_too(client, casino):
    """The browser's tab and the history say the page's name in the person's language, whole."""
    User.objects.filter(pk=casino.security2.pk).update(security_supervisor=True)
    set_language(casino.security2, "es")
    client.force_login(casino.security2)
    title = re.search(r"<title>(.*?)</title>", client.get("/floor/locks/").content.decode(), re.S).group(1)
    assert "Registro de cumplimiento de Ruleta" in title
    assert "Roulette compliance logbook" not in title


def test_a_lifted_lock_is_listed_in_spanish(client, casino):
    from django.utils import timezone

    from compliance.accounts.services import lock_lift

    User.objects.filter(pk=casino.security2.pk).update(security_supervisor=True)
    casino.security2.refresh_from_db()
    lock_lift(actor=casino.security2, person_id=casino.floorperson.pk, reason="Tecleó mal", now=timezone.now())
    set_language(casino.security2, "es")
    client.force_login(casino.security2)
    text = page_text(client.get("/floor/locks/").content.decode())
    assert f"bloqueo de {casino.floorperson.display_name} levantado por {casino.security2.display_name}" in text
    assert "lock lifted by" not in text


def test_a_rules_submission_is_titled_in_spanish(client, casino):
    """Its title, heading and meta line, as the compliance manager reads them."""
    from compliance.approvals.models import RulesSubmission

    submission = RulesSubmission.objects.filter(property=casino.property).first()
    set_language(casino.compliance, "es")
    client.force_login(casino.compliance)
    text = page_text(client.get(f"/rules-submissions/{submission.pk}/").content.decode())
    assert f"Presentación de Normas de Ruleta, versión {submission.version}" in text
    assert "en vigor desde el" in text
    assert "Rules Submission, version" not in text and "effective from" not in text


def test_the_language_page_keeps_the_persons_choice(client, casino):
    client.force_login(casino.floorperson)
    page = client.get("/language/?next=/floor/").content.decode()
    assert "Español" in page and "English" in page
    response = client.post("/language/", {"language": "es", "next": "/floor/"})
    assert response.status_code == 302 and response["Location"] == "/floor/"
    assert User.objects.get(pk=casino.floorperson.pk).language == "es"
    assert "Idioma guardado." in client.get("/floor/").content.decode()
    client.post("/language/", {"language": ""})
    assert User.objects.get(pk=casino.floorperson.pk).language == ""


def test_the_language_page_goes_back_only_to_this_site(client, casino):
    client.force_login(casino.floorperson)
    response = client.post("/language/", {"language": "es", "next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


def test_the_language_page_goes_back_to_the_page_its_link_was_followed_from(client, casino):
    """The menu's link carries no address; the page keeps where it was opened from (the Referer)."""
    client.force_login(casino.floorperson)
    floor = client.get("/floor/").content.decode()
    assert 'href="/language/"' in floor
    page = client.get("/language/", HTTP_REFERER="http://testserver/tables/1/?before=5").content.decode()
    assert 'name="next" value="/tables/1/?before=5"' in page
    elsewhere = client.get("/language/", HTTP_REFERER="https://elsewhere.example/floor/").content.decode()
    assert 'name="next" value=""' in elsewhere


def test_only_the_person_or_an_administrator_chooses_their_language(casino):
    with pytest.raises(PermissionDenied):
        person_language_set(person_id=casino.floorperson.pk, actor=casino.security, language="es")
    assert User.objects.get(pk=casino.floorperson.pk).language == ""


# ---- Refusals in Spanish, their code and citation unchanged ----


def test_a_refusal_through_a_form_in_spanish_keeps_its_citation(client, casino):
    """Opening a table that was not inspected: the form shows the rule in Spanish, beside the same
    citation as in English, and nothing is written."""
    table = casino.table
    client.force_login(casino.security)
    set_language(casino.security, "es")
    # Wrong password: the signature's refusal, said in Spanish.
    response = client.post(
        f"/tables/{table.pk}/inspect/",
        {
            **{code: "pass" for code in ALL_PASS},
            "username": casino.security.username,
            "password": "wrong",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert f"El usuario o la contraseña dados para firmar como «{casino.security.username}» no son correctos." in page
    entries = table.entries.count()
    # The table is closed, not inspected: opening is refused by § 617a.2(a).
    refused = client.get(f"/tables/{table.pk}/open/").content.decode()
    assert "Lo que ahora no puede hacer" in client.get(f"/tables/{table.pk}/").content.decode()
    assert "Volver a la mesa" in refused
    assert "La mesa R-01 no tiene ninguna inspección superada desde que se cerró por última vez" in page_text(refused)
    assert "(58 Pa. Code § 617a.2(a))" in refused
    assert table.entries.count() == entries


def test_an_api_refusal_in_the_browsers_language_and_in_the_persons(casino):
    table = casino.table
    body = {"signature": {"username": casino.security.username, "password": PASSWORD}}
    client = APIClient()
    client.force_authenticate(casino.floorperson)
    english = client.post(f"/api/tables/{table.pk}/close/", body, format="json")
    spanish = client.post(f"/api/tables/{table.pk}/close/", body, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert english.status_code == spanish.status_code == 400
    (said_en,), (said_es,) = english.json()["errors"], spanish.json()["errors"]
    assert said_en["message"] == "Table R-01 is not open, so it cannot be closed."
    assert said_es["message"] == "La mesa R-01 no está abierta, así que no se puede cerrar."
    assert {k: v for k, v in said_es.items() if k != "message"} == {k: v for k, v in said_en.items() if k != "message"}
    assert said_es["code"] == "table_not_open" and said_es["citation"]

    # A token's person who chose Spanish reads Spanish without asking for it.
    set_language(casino.floorperson, "es")
    token = (
        APIClient()
        .post("/api/auth/token/", {"username": casino.floorperson.username, "password": PASSWORD}, format="json")
        .json()["token"]
    )
    by_token = APIClient()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    (said,) = by_token.post(f"/api/tables/{table.pk}/close/", body, format="json").json()["errors"]
    assert said == said_es


def test_the_service_refuses_alike_in_either_language(casino):
    """The rulebook decides in no language: a refusal raised while Spanish is in use has the same
    code, citation and English text."""
    from inspections.logbook import services
    from tests.support.people import sign

    with translation.override("es"), pytest.raises(RuleViolation) as refused:
        services.table_event_record(
            table_id=casino.table.pk, kind="close", signature=sign(casino.security), recorded_by=casino.security
        )
    (found,) = refused.value.violations
    assert (found.code, found.text) == ("table_not_open", "Table R-01 is not open, so it cannot be closed.")
    with translation.override("es"):
        assert found.message == "La mesa R-01 no está abierta, así que no se puede cerrar."


# ---- The flags' mail, in each recipient's language ----


def test_the_flag_mail_is_in_each_recipients_language(casino):
    """One mail per language: a compliance manager who chose Spanish gets hers in Spanish; a security
    officer who chose none (his address written in capitals in the property's list) and an address
    of no person get theirs in English. The citation is the same in both."""
    at = datetime(2026, 11, 24, 4, 30, tzinfo=ZoneInfo("UTC"))
    User.objects.filter(pk=casino.compliance.pk).update(email="compliance@keystone.example")
    User.objects.filter(pk=casino.security.pk).update(email="Security@Keystone.example")
    set_language(casino.compliance, "es")
    Property.objects.filter(pk=casino.property.pk).update(
        notify_emails=["compliance@keystone.example", "security@keystone.example", "desk@keystone.example"]
    )
    flag_raised(casino.table, due_at=at)
    assert flag_services.notify_new_flags() == 1
    by_recipients = {tuple(message.to): message for message in mail.outbox}
    assert set(by_recipients) == {
        ("compliance@keystone.example",),
        ("security@keystone.example", "desk@keystone.example"),
    }
    spanish = by_recipients[("compliance@keystone.example",)]
    english = by_recipients[("security@keystone.example", "desk@keystone.example")]
    assert spanish.subject == (
        "[Keystone Casino] Mesa R-01: Rueda no cubierta y bajo llave dentro del plazo de gracia mientras la mesa "
        "no estaba abierta"
    )
    assert "(58 Pa. Code § 617a.2(f))" in spanish.body and "Plazo incumplido:" in spanish.body
    assert english.subject.startswith("[Keystone Casino] Table R-01: Wheel not covered and locked")
    assert "(58 Pa. Code § 617a.2(f))" in english.body and "Deadline missed:" in english.body


def test_a_compliance_managers_forms_in_spanish(client, casino):
    set_language(casino.compliance, "es")
    client.force_login(casino.compliance)
    layout = client.get("/manage/layouts/new/").content.decode()
    for words in (
        "Enviar un tapete de Ruleta",
        "Nombre del tapete",
        "Lo que muestra el tapete",
        "Enviar para aprobación",
    ):
        assert words in layout, words
    rules = client.get("/manage/rules/new/").content.decode()
    for words in ("Nuevo borrador de Presentación de Normas de Ruleta", "Apuestas y pagos", "Guardar borrador"):
        assert words in rules, words


def test_a_compliance_managers_pages_in_spanish(client, casino, regulator):
    """The layout's page, the reports' rows and the table's amended entries, as the manager reads
    them; the record itself (an entry's description, the API's label) keeps English."""
    from tests.compliance.test_layouts import BASIC, submit
    from tests.inspections.test_amendments import amend, unlocked
    from tests.support.api import client_for
    from tests.support.logbook import inspect

    set_language(casino.compliance, "es")
    client.force_login(casino.compliance)
    layout = submit(client_for(casino.compliance), casino, BASIC).json()
    page = client.get(f"/layouts/{layout['id']}/").content.decode()
    for words in ("Tapete “Keystone 2026”", "Lo que muestra", "Diseño gráfico", "enviado el"):
        assert words in page, words
    assert "What it shows" not in page and "submitted " not in page

    unlocked(casino)
    first, second = inspect(casino), inspect(casino)
    amend(casino, first, correction={"notes": "Compass used"})
    duplicate = amend(casino, second, kind="duplicate", duplicate_of=first.seq)
    table = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert f"duplicado de la n.º {first.seq}" in table and "corrección" in table
    assert duplicate.description.startswith(f"Entry #{second.seq} marked duplicate of #{first.seq}")

    Report.objects.create(
        property=casino.property,
        kind="inspection_register",
        period_from=first.occurred_at.date(),
        period_to=first.occurred_at.date(),
        requested_by=casino.compliance,
        status="done",
        finished_at=first.occurred_at,
        rows=1,
        pages=3,
        chain_intact=True,
        sha256="a" * 64,
    )
    reports = client.get("/reports/").content.decode()
    for words in ("Listo", "1 fila ", "3 páginas", "cadena verificada íntegra", "Descargar"):
        assert words in reports, words
    assert "chain verified intact" not in reports and "Download" not in reports


def test_a_password_too_long_is_refused_in_the_browsers_language(client, db):
    too_long = "x" * 1025
    spanish = client.post("/login/", {"username": "someone", "password": too_long}, HTTP_ACCEPT_LANGUAGE="es")
    assert "Una contraseña tiene como máximo 1024 caracteres." in spanish.content.decode()
    english = client.post("/login/", {"username": "someone", "password": too_long}, HTTP_ACCEPT_LANGUAGE="en")
    assert "A password is at most 1024 characters." in english.content.decode()


def test_an_administrator_sets_a_persons_language_in_the_admin(client, casino):
    from tests.compliance.test_records_stay import person_form

    client.force_login(User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase"))
    admin_client = client
    person = User.objects.get(pk=casino.floorperson.pk)
    response = admin_client.post(f"/admin/accounts/user/{person.pk}/change/", person_form(person, language="es"))
    assert response.status_code == 302, response.content.decode()
    assert User.objects.get(pk=person.pk).language == "es"
    refused = admin_client.post(f"/admin/accounts/user/{person.pk}/change/", person_form(person, language="fr"))
    assert refused.status_code == 200
    assert User.objects.get(pk=person.pk).language == "es"
