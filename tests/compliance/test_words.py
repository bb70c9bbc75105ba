"""Every code shown to a person goes through its words (issue 20, item 5): layout features, options
and their values, wagers, and a draft's broken rules, on pages, in refusals and in reports."""

from datetime import date

from compliance.rulebook import rulebook_for, words
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.vocabulary import Jurisdiction


def test_every_layout_feature_and_known_option_has_words():
    assert set(pa.LAYOUT_FEATURES) <= set(words.LAYOUT_FEATURE_LABELS)
    for code, label in {**words.LAYOUT_FEATURE_LABELS, **words.OPTION_LABELS}.items():
        assert "_" not in label and code != label


def test_an_option_reads_as_words():
    assert words.options_text({"five_adjacent": True, "double_zero_loss": "half"}) == (
        "Five adjacent numbers wager: yes; Even-money wagers on 0 and 00: half lost"
    )
    assert words.option_value([1000, 500]) == "1000, 500"


def test_a_missing_layout_area_is_named_in_words():
    rules = rulebook_for(Jurisdiction.PA)
    found = rules.check_layout(features=["name_or_logo"], tables=[], options=None)
    messages = " ".join(v.message for v in found)
    assert "the table's minimum and maximum wager signs" in messages
    assert "min_max_signage" not in messages


def test_a_draft_that_breaks_rules_lists_them_in_words_not_codes():
    from types import SimpleNamespace

    from compliance.rulebook.approvals import may_file

    draft = SimpleNamespace(
        status="draft",
        property_id=1,
        property=SimpleNamespace(name="Keystone"),
        violations=[
            {"code": "odds_below_minimum", "message": "Straight pays at least 35 to 1; 30 to 1 was given."},
            {"code": "wager_wheel_type", "message": "Five numbers is not offered on a single-zero wheel."},
        ],
    )
    signer = SimpleNamespace(role="compliance", property_id=1)
    (found,) = [v for v in may_file(submission=draft, signer=signer) if v and v.code == "submission_has_violations"]
    assert "odds_below_minimum" not in found.message and "wager_wheel_type" not in found.message
    assert "Straight pays at least 35 to 1" in found.message


def test_the_rules_submission_page_shows_options_in_words(client, casino):
    from compliance.approvals.models import RulesSubmission

    submission = RulesSubmission.objects.create(
        property=casino.property,
        game="roulette",
        version=7,
        effective_from=date(2020, 1, 1),
        wheel_types=["double_zero"],
        payout_odds={"straight": [35, 1]},
        options={"five_adjacent": True},
        status="approved",
        created_by=casino.compliance,
    )
    client.force_login(casino.compliance)
    page = client.get(f"/rules-submissions/{submission.pk}/").content.decode()
    assert "<dt>five_adjacent</dt>" not in page
    assert "<dt>Five adjacent numbers wager</dt><dd>yes</dd>" in page
