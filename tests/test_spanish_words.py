"""What the product writes is in the reader's language (issue 30, items 3 and 7): a number as the
language writes it (Spanish: a decimal comma) wherever a person reads it, ISO inside an input's value;
odds as "35 a 1" in Spanish (and "35 to 1" still read); a product policy's explanation, a Rules
Submission's warnings and an amendment's words translated, the law's paragraph and what was typed
kept as written."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from django import forms
from django.conf import settings
from django.utils import translation

from compliance.approvals.forms import OddsField, RulesSubmissionForm
from compliance.rulebook import game_rules_for, words
from compliance.rulebook.catalogue import violation
from compliance.rulebook.configurations import tables_left_without
from compliance.rulebook.violations import Odds, cited
from inspections.logbook.forms import NewBallField
from tests.test_i18n import set_language

POLICY = "Product policy: the table's states (no paragraph governs opening an open table or closing one not open)"


def test_a_balls_size_is_written_as_the_table_page_writes_it(casino):
    ball = casino.table.ball
    field = NewBallField()
    with translation.override("es"):
        assert field.label_from_instance(ball).endswith("0,8125 in)")
    with translation.override("en"):
        assert field.label_from_instance(ball).endswith("0.8125 in)")


def test_a_rule_says_a_decimal_in_the_readers_way():
    found = violation("ball_diameter", field="diameter_inches", diameter=Decimal("0.9"))
    with translation.override("es"):
        assert "0,9" in found.message and "0.9" not in found.message.replace("0.75", "").replace("0.875", "")
    with translation.override("en"):
        assert "0.9" in found.message


def test_an_inputs_number_stays_a_dot_in_spanish():
    field = forms.DecimalField()
    with translation.override("es"):
        assert 'value="0.8125"' in field.widget.render("x", field.prepare_value(Decimal("0.8125")))


@pytest.mark.parametrize(("language", "shown"), [("en", "35 to 1"), ("es", "35 a 1")])
def test_odds_are_shown_in_the_readers_words_and_read_in_either(language, shown):
    field = OddsField(required=False)
    with translation.override(language):
        assert field.prepare_value([35, 1]) == shown
        assert Odds(35, 1).said == shown
        for typed in ("35 to 1", "35 a 1", "35:1", "35"):
            assert field.clean(typed) == [35, 1]
        with pytest.raises(forms.ValidationError) as refused:
            field.clean("thirty-five")
        assert shown in refused.value.messages[0]


def test_a_rules_odds_refusal_in_spanish():
    found = violation(
        "odds_below_minimum",
        field="payout_odds.straight",
        citation="58 Pa. Code § 617a.4(a)",
        wager="Straight",
        minimum=Odds(35, 1),
        given=Odds(34, 1),
    )
    with translation.override("es"):
        assert "35 a 1" in found.message and "34 a 1" in found.message and "to" not in found.message.split()
    assert "35 to 1" in found.text  # the record's and the API's English


def test_the_rules_submission_form_in_spanish_has_no_english_hint():
    with translation.override("es"):
        form = RulesSubmissionForm(game_rules=game_rules_for("PA"))
        html = str(form["odds_straight"]) + str(form["odds_straight"].help_text)
    assert "al menos 35 a 1" in html and "at least" not in html and "not offered" not in html


def test_a_product_policy_is_said_in_the_readers_language_and_the_laws_paragraph_as_written():
    with translation.override("es"):
        assert cited(POLICY).startswith("Política del producto")
        assert cited("58 Pa. Code § 617a.2(b)") == "58 Pa. Code § 617a.2(b)"
        inside = cited(
            "Product policy: a covered and locked wheel (58 Pa. Code § 617a.2(f)) is unlocked, with its "
            "logbook entry, before it is inspected or adjusted"
        )
        assert "58 Pa. Code § 617a.2(f)" in inside and "unlocked" not in inside
    with translation.override("en"):
        assert cited(POLICY) == POLICY


def test_the_table_page_says_each_refusal_and_its_policy_in_spanish(client, casino):
    set_language(casino.security, "es")
    client.force_login(casino.security)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert "Product policy" not in page
    assert "Política del producto" in page


class _Table:
    def __init__(self, number, configuration, wheel_type="single_zero", game="roulette"):
        self.number, self.configuration, self.wheel_type, self.game = number, configuration, wheel_type, game

    def get_wheel_type_display(self):
        return "Single zero"


def test_a_warnings_reason_in_spanish_keeps_the_configurations_key_as_typed():
    submission = SimpleNamespace(
        game="roulette", wheel_types=["single_zero"], payout_odds={}, options={}, configurations=[]
    )
    (left,) = tables_left_without(submission=submission, tables=[_Table("R-02", "lightning")])
    assert left.reason == "it uses the configuration “lightning”, which this version does not have"
    with translation.override("es"):
        assert left.said == "usa la configuración «lightning», que esta versión no tiene"


def test_the_layouts_areas_in_spanish(client, casino):
    set_language(casino.compliance, "es")
    client.force_login(casino.compliance)
    page = client.get("/manage/layouts/new/").content.decode()
    with translation.override("es"):
        spanish = translation.gettext(words.feature_label("wheel_replica"))
    assert spanish != words.feature_label("wheel_replica")
    assert spanish[0].upper() + spanish[1:] in page
    assert "replica of the Roulette wheel" not in page


def test_a_product_policy_with_a_number_of_the_settings_is_said_with_that_number():
    from compliance.rulebook.artwork import artwork_policy
    from compliance.rulebook.reports import pending_policy, period_policy

    with translation.override("es"):
        assert cited(period_policy(max_days=92)) == "Política del producto: un informe abarca como máximo 92 días"
        assert "3 informes" in cited(pending_policy(max_mine=3, max_of_property=20))
        assert cited(artwork_policy(max_bytes=10 * 1024 * 1024)).endswith("de como máximo 10 MB")
    with translation.override("en"):
        assert cited(period_policy(max_days=92)) == period_policy(max_days=92)


# A citation a person reads goes through `cited` (Python: `violation.cited`, `cited(...)`; templates:
# `|cited`): what still writes a bare `.citation` where a person reads it is listed here.
BARE_CITATION = re.compile(r"\{\{ *[\w.]+\.citation *\}\}|\(\{violation\.citation\}\)|\"citation\": flag\.citation")


def test_every_citation_a_person_reads_is_said_through_cited():
    root = Path(settings.BASE_DIR)
    places = [*root.glob("templates/**/*.html"), *root.glob("compliance/**/*.py"), *root.glob("inspections/**/*.py")]
    bare = [
        f"{path.relative_to(root)}: {match.group(0)}"
        for path in places
        # Not the API's data, the law itself, nor the PDF reports' rows (the reports stay in English).
        if "/api/" not in str(path) and "/rulebook/" not in str(path) and not str(path).endswith("reports/kinds.py")
        for match in BARE_CITATION.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not bare, "\n".join(bare)


def test_an_amendment_and_a_table_event_are_said_in_spanish_the_reason_as_typed(client, casino):
    from tests.inspections.test_amendments import amend, unlocked
    from tests.support.logbook import inspect

    unlocked(casino)
    first = inspect(casino)
    second = inspect(casino)
    amendment = amend(casino, second, kind="duplicate", duplicate_of=first.seq, reason="Tapped twice by mistake")
    # The record keeps English.
    assert amendment.description.startswith(f"Entry #{second.seq} marked duplicate of #{first.seq}")
    set_language(casino.floorperson, "es")
    client.force_login(casino.floorperson)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert f"Anotación n.º {second.seq} marcada como «duplicado de la n.º {first.seq}»: Tapped twice by mistake" in page
    assert "marked duplicate" not in page
    amend_page = client.get(f"/entries/{amendment.pk}/amend/").content.decode()
    assert "Anotación n.º" in amend_page and "marked duplicate" not in amend_page
    unlock = casino.table.entries.get(kind="unlock")
    unlock_page = client.get(f"/entries/{unlock.pk}/amend/").content.decode()
    assert "Cubierta de la rueda desbloqueada y retirada" in unlock_page
    assert "Wheel cover unlocked" not in unlock_page


def test_the_live_check_says_the_odds_in_spanish(client, casino):
    set_language(casino.compliance, "es")
    client.force_login(casino.compliance)
    page = client.post(
        f"/manage/properties/{casino.property.pk}/rules/check/",
        {"effective_from": "2026-11-27", "wheel_types": ["double_zero"], "odds_straight": "34 a 1"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "35 a 1" in page and "34 a 1" in page, page[:3000]
    assert " to 1" not in page


def test_a_wheel_left_without_its_configuration_is_named_in_spanish():
    configuration = {"key": "lightning", "name": "Lightning", "wheel_types": ["single_zero"], "payout_odds": {}}
    submission = SimpleNamespace(
        game="roulette", wheel_types=["single_zero"], payout_odds={}, options={}, configurations=[configuration]
    )
    table = _Table("R-02", "lightning", wheel_type="double_zero")
    (left,) = tables_left_without(submission=submission, tables=[table])
    assert left.reason == "it has a double zero wheel, which the configuration “Lightning” does not allow"
    with translation.override("es"):
        assert left.said == "tiene una rueda de doble cero, que la configuración «Lightning» no admite"


@pytest.mark.parametrize(
    ("action", "spanish"), [("filed", "Presentación"), ("approved", "Aprobación"), ("rejected", "Rechazo")]
)
def test_a_rules_submissions_signatures_are_listed_in_the_readers_language(action, spanish):
    """The walk of the demo in Chromium found "Filed by Priya Raman (PGCB-CMP-52019) el 2026-11-26
    14:37 EST" under "Firmas" on a Spanish Rules Submission page: the signed step's choices were
    not marked for translation. The signer's name and credential stay as signed."""
    from datetime import UTC, datetime

    from django.template.loader import render_to_string

    from compliance.approvals.models import ApprovalSignature

    signed = ApprovalSignature(
        action=action,
        signer_name="Priya Raman",
        credential_number="PGCB-CMP-52019",
        signed_at=datetime(2026, 11, 26, 19, 37, tzinfo=UTC),
    )
    where = SimpleNamespace(zone="America/New_York")
    with translation.override("es"):
        said = render_to_string("manage/_signatures.html", {"signatures": [signed], "where": where})
    assert f"{spanish} por Priya Raman (PGCB-" in said, said
    with translation.override("en"):
        said = render_to_string("manage/_signatures.html", {"signatures": [signed], "where": where})
    assert f"{action.capitalize()} by Priya Raman" in said, said


def test_the_live_check_names_a_wheel_and_an_option_in_words_and_in_spanish(client, casino):
    """The walk of the demo in Chromium found, on a Spanish draft, "Pagos de Lightning Roulette:
    «lightning_payouts» no se juega en una rueda de double zero" and "Cinco primeros números no se
    ofrece en una rueda de single zero": the option's code and the wheels' codes, in English."""
    set_language(casino.compliance, "es")
    client.force_login(casino.compliance)
    page = client.post(
        f"/manage/properties/{casino.property.pk}/rules/check/",
        {
            "effective_from": "2026-11-27",
            "wheel_types": ["single_zero", "double_zero"],
            "odds_straight": "29 a 1",
            "odds_first_five": "6 a 1",
            "option_lightning_payouts": "499, 399, 349, 299, 249, 199, 149, 99, 49",
        },
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "no se juega en una rueda de doble cero" in page, page[:4000]
    assert "no se ofrece en una rueda de un cero" in page, page[:4000]
    assert "lightning_payouts" not in page and "single zero" not in page and "double zero" not in page


def test_a_wheel_and_an_option_in_the_rules_english():
    from compliance.rulebook.games.roulette import check_roulette_submission

    found = {
        v.code: v.text
        for v in check_roulette_submission(
            game_rules_for("PA"),
            wheel_types=["double_zero_as_single_zero", "double_zero"],
            payout_odds={"straight": [29, 1], "first_five": [6, 1]},
            options={"lightning_payouts": [499, 399, 349, 299, 249, 199, 149, 99, 49]},
        )
    }
    assert found["option_wheel_type"].startswith(
        "“Lightning Roulette payouts” is not played on a double zero, double zero used as single zero wheel."
    ), found
    assert found["wager_wheel_type"].startswith(
        "First Five Numbers is not offered on a double zero used as single zero wheel."
    ), found


@pytest.mark.parametrize(
    ("language", "count", "said"),
    [
        ("en", 1, "still breaks 1 rule, listed"),
        ("en", 2, "still breaks 2 rules, listed"),
        ("es", 1, "aún incumple 1 norma, indicada"),
        ("es", 2, "aún incumple 2 normas, "),
    ],
)
def test_a_drafts_count_of_broken_rules_is_said_as_a_count(rf, language, count, said):
    """The walk of the demo in Chromium read "it still breaks 1 rule(s)" and "incumple 2 norma(s)"."""
    from django.contrib.messages import get_messages
    from django.contrib.messages.storage.fallback import FallbackStorage
    from django.contrib.sessions.backends.signed_cookies import SessionStore

    from compliance.approvals.web import _configuration_saved, _saved

    submission = SimpleNamespace(version=2, violations=[{}] * count, pk=1)
    request = rf.get("/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    with translation.override(language):
        _saved(request, submission)
        _configuration_saved(request, submission, "Lightning")
    shown = [str(m) for m in get_messages(request)]
    assert said in shown[0] and said in shown[1] and "(s)" not in " ".join(shown), shown
