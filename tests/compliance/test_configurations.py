"""What a table offers is the table's (issue 19, item 1): a Rules Submission approves table
configurations, each judged alone, and each table uses one of them by its key. A version that leaves
a table without a configuration is allowed, with a warning naming those tables, shown at drafting,
at filing and to the regulator before the decision, beside a comparison with the version in effect."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, transaction
from django.test import Client

from compliance.approvals.models import RulesSubmission
from compliance.approvals.selectors import submission_content
from compliance.casinos.clock import property_today
from tests.compliance.test_rules_submissions import STANDARD, draft
from tests.factories import GamingTableFactory, PropertyFactory, RegulatorFactory, configure_for_opening
from tests.support.api import assert_refused, client_for, signature
from tests.support.logbook import event, inspect, refused
from tests.support.people import staff_of

RED_BLACK = {k: v for k, v in STANDARD.items() if k != "first_five"}
LIGHTNING = [499, 399, 349, 299, 249, 199, 149, 99, 49]


def configuration(key: str, **content) -> dict:
    return {"key": key, "name": content.pop("name", key.title()), **content}


@pytest.fixture
def configured(casino):
    """The property's table R-01 (double zero) ready to open: version 1 approved (the standard
    configuration, every wheel type, the straight only), an approved layout, registered equipment."""
    configure_for_opening(casino.table, created_by=casino.compliance)
    return casino


def signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def beside(staff, other: dict, *, wheel_types=("single_zero",), payout_odds=RED_BLACK) -> dict:
    """A draft whose standard configuration is plain red/black on `wheel_types`, with `other` beside it."""
    return draft(
        client_for(staff.compliance),
        staff.property,
        wheel_types=list(wheel_types),
        payout_odds=payout_odds,
        options={},
        configurations=[other],
    ).json()


def approve_version(staff, *configurations: dict, wheel_types=None) -> RulesSubmission:
    """Version 2, approved, in effect since version 1's date: version 1's standard configuration
    (or one on `wheel_types`) with `configurations` beside it. Made directly, as the factories do."""
    first = RulesSubmission.objects.get(property=staff.property, game="roulette", version=1)
    return RulesSubmission.objects.create(
        property=staff.property,
        game="roulette",
        version=2,
        effective_from=first.effective_from,
        wheel_types=wheel_types or first.wheel_types,
        payout_odds=first.payout_odds,
        configurations=list(configurations),
        status="approved",
        created_by=staff.compliance,
    )


def codes(body: dict) -> set[tuple[str, str | None, str | None]]:
    return {(v["code"], v["citation"], v["field"]) for v in body["violations"]}


# ---- Each rule judged within one configuration, accepted and refused ----


def test_first_five_is_offered_on_the_double_zero_tables_of_a_property_with_single_zero_ones(casino):
    """§ 617a.3(e)(5): First Five is a double-zero wager; a single-zero table elsewhere does not stop it."""
    body = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["single_zero"],
        payout_odds=RED_BLACK,
        options={},
        configurations=[
            configuration(
                "first-five", wheel_types=["double_zero"], payout_odds=STANDARD, options={"five_adjacent": True}
            )
        ],
    ).json()
    assert body["violations"] == []
    # In one configuration with a single-zero wheel, it is refused, and the refusal names it.
    body = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["single_zero"],
        payout_odds=RED_BLACK,
        options={},
        configurations=[configuration("first-five", wheel_types=["double_zero", "single_zero"], payout_odds=STANDARD)],
    ).json()
    assert codes(body) == {
        ("wager_wheel_type", "58 Pa. Code § 617a.3(e)(5)", "configurations.0.payout_odds.first_five"),
    }
    assert body["violations"][0]["message"].startswith("Configuration “First-Five”: ")


def test_lightning_fixes_the_straight_only_on_its_own_tables(casino):
    """§ 617c.3(f): 29 to 1 under Lightning; § 617a.4(a): 35 to 1 on every other table."""
    client = client_for(casino.compliance)
    lightning = configuration(
        "lightning",
        wheel_types=["single_zero"],
        payout_odds={**RED_BLACK, "straight": [29, 1]},
        options={"lightning_payouts": LIGHTNING},
    )
    body = draft(
        client,
        casino.property,
        wheel_types=["double_zero"],
        payout_odds=RED_BLACK,
        options={},
        configurations=[lightning],
    ).json()
    assert body["violations"] == []
    assert body["house_edge"]["straight"] == {"double_zero": 5.2632}
    assert body["house_edge"]["configurations"]["lightning"]["straight"] == {"single_zero": None}
    assert "Not determinable from the text" in body["house_edge_notes"]["configurations"]["lightning"]["straight"]
    # The standard configuration's straight at 29 to 1 breaks § 617a.4(a): Lightning is not offered there.
    body = draft(
        client,
        casino.property,
        wheel_types=["double_zero"],
        payout_odds={**RED_BLACK, "straight": [29, 1]},
        options={},
        configurations=[lightning],
    ).json()
    assert codes(body) == {("odds_below_minimum", "58 Pa. Code § 617a.4(a)", "payout_odds.straight")}
    # § 617c.3(a): Lightning on a double-zero wheel, within its configuration, is refused.
    body = draft(
        client,
        casino.property,
        wheel_types=["double_zero"],
        payout_odds=RED_BLACK,
        options={},
        configurations=[{**lightning, "wheel_types": ["double_zero"]}],
    ).json()
    assert ("option_wheel_type", "58 Pa. Code § 617c.3(a)", "configurations.0.options.lightning_payouts") in codes(body)


def test_touchdown_needs_a_double_zero_wheel_only_in_its_own_configuration(casino):
    """§ 617a.1(f)(5): Touchdown is double zero; single-zero tables of the property keep their own."""
    touchdown = configuration(
        "touchdown", wheel_types=["double_zero"], payout_odds=RED_BLACK, options={"touchdown_paytable": "A"}
    )
    assert beside(casino, touchdown)["violations"] == []
    body = beside(casino, {**touchdown, "wheel_types": ["single_zero"]})
    assert codes(body) == {
        ("option_wheel_type", "58 Pa. Code § 617a.1(f)(5)", "configurations.0.options.touchdown_paytable")
    }


@pytest.fixture
def jersey(db):
    staff = staff_of(PropertyFactory(name="Boardwalk", jurisdiction="NJ"))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01"), created_by=staff.compliance
    )
    return staff


def test_new_jerseys_colour_wagers_exclude_red_and_black_at_the_same_table_only(jersey):
    """N.J.A.C. 19:47-5.1(g): "at the same roulette table": a colour-wager table beside red/black ones."""
    colours = configuration(
        "colours",
        wheel_types=["single_zero"],
        payout_odds={"straight": [35, 1], "seven_numbers_color": [4, 1]},
        options={},
    )
    assert beside(jersey, colours)["violations"] == []
    body = beside(jersey, {**colours, "payout_odds": {**colours["payout_odds"], "red": [1, 1]}})
    assert codes(body) == {("color_wager_with_red_black", "N.J.A.C. 19:47-5.1(g)", "configurations.0.payout_odds.red")}


@pytest.mark.parametrize(
    "configurations, code, field",
    [
        ({"key": "x"}, "configurations_format", "configurations"),
        ([{"key": "Lightning Room"}], "configuration_key", "configurations.0.key"),
        ([{"key": "standard"}], "configuration_key_taken", "configurations.0.key"),
        ([{"key": "a"}, {"key": "a"}], "configuration_key_taken", "configurations.1.key"),
        ([{"key": "a", "name": "x\u0007"}], "configuration_name", "configurations.0.name"),
        ([{"key": "a", "wagers": {}}], "configuration_field_unknown", "configurations.0"),
        ([{"key": "a", "payout_odds": [35, 1]}], "configurations_format", "configurations.0.payout_odds"),
        ([{"key": f"k{i}"} for i in range(21)], "configurations_too_many", "configurations"),
    ],
)
def test_a_malformed_configuration_is_refused_and_nothing_is_saved(casino, configurations, code, field):
    response = draft(client_for(casino.compliance), casino.property, configurations=configurations)
    assert_refused(response, code, None, field)
    assert not RulesSubmission.objects.filter(version__gt=1).exists()


# ---- Each table uses one configuration: the opening gate reads the table's ----


def test_a_table_opens_only_under_a_configuration_the_submission_in_effect_approves(configured):
    casino = configured
    """58 Pa. Code § 601a.2: what a table offers is what an approved Rules Submission approves."""
    type(casino.table).objects.filter(pk=casino.table.pk).update(configuration="lightning")
    inspect(casino)
    violations = refused(lambda: event(casino, "open"), "table_configuration_not_approved", "58 Pa. Code § 601a.2")
    assert "“lightning”" in violations[0].message and "(standard)" in violations[0].message


def test_a_configuration_that_does_not_cover_the_tables_wheel_keeps_it_closed(configured):
    casino = configured
    approve_version(
        casino,
        configuration("single", wheel_types=["single_zero"], payout_odds={"straight": [35, 1]}),
        wheel_types=["double_zero"],
    )
    type(casino.table).objects.filter(pk=casino.table.pk).update(configuration="single")
    inspect(casino)
    violations = refused(lambda: event(casino, "open"), "rules_submission_wheel_type", "58 Pa. Code § 601a.2")
    assert "configuration “Single”" in violations[0].message
    type(casino.table).objects.filter(pk=casino.table.pk).update(configuration="standard")
    assert event(casino, "open").kind == "open"


def test_a_layout_needs_what_the_configuration_of_its_tables_offers(configured):
    casino = configured
    """§ 617c.3(b): a Lightning table's layout shows the random number generator; a layout of the
    property's standard tables does not need it."""
    from compliance.approvals.selectors import layout_violations

    approve_version(
        casino,
        configuration(
            "lightning",
            wheel_types=["single_zero"],
            payout_odds={"straight": [29, 1]},
            options={"lightning_payouts": LIGHTNING},
        ),
    )
    features = ["name_or_logo", "betting_areas", "min_max_signage", "drop_box", "tip_box"]
    lightning_table = GamingTableFactory(
        property=casino.property, number="R-09", wheel_type="single_zero", configuration="lightning"
    )
    assert layout_violations(prop=casino.property, game="roulette", features=features, tables=[casino.table]) == []
    found = layout_violations(prop=casino.property, game="roulette", features=features, tables=[lightning_table])
    assert [(v.code, v.citation) for v in found] == [("layout_feature_missing", "58 Pa. Code § 617c.3(b)")]


def test_a_casino_war_shuffler_is_approved_per_configuration(casino):
    """§ 651a.3(c) (proposed): 12 to 16 decks only at a table whose configuration approves a shuffler."""
    from compliance.approvals.models import RulesSubmission as Submission
    from inspections.logbook import services
    from tests.support.people import sign

    Submission.objects.create(
        property=casino.property,
        game="casino_war",
        version=1,
        effective_from=property_today(casino.property),
        payout_odds={},
        configurations=[configuration("shuffler", options={"automated_shuffler": True})],
        status="approved",
        created_by=casino.compliance,
    )
    manual = GamingTableFactory(property=casino.property, game="casino_war", wheel_type=None)
    shuffled = GamingTableFactory(
        property=casino.property, game="casino_war", wheel_type=None, configuration="shuffler"
    )

    def change(table):
        return lambda: services.deck_change_record(
            table_id=table.pk,
            decks=12,
            signature=sign(casino.floorperson),
            recorded_by=casino.floorperson,
            cards_per_deck=52,
            cover_cards_per_deck=2,
            back_colours=["red", "blue"],
        )

    refused(change(manual), "casino_war_decks", "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)")
    assert change(shuffled)().details["decks"] == 12


# ---- A version that leaves tables without a configuration: a warning at every step ----


@pytest.fixture
def two_tables(configured):
    casino = configured
    """The approved version 1 (standard configuration, every wheel type) and a Lightning table."""
    lightning = GamingTableFactory(
        property=casino.property, number="R-02", wheel_type="single_zero", configuration="lightning"
    )
    return casino, lightning


def test_the_warning_names_the_tables_left_at_drafting_filing_and_before_the_decision(two_tables):
    casino, _ = two_tables
    manager = client_for(casino.compliance)
    body = draft(manager, casino.property, wheel_types=["double_zero"], payout_odds=RED_BLACK, options={}).json()
    left = body["warnings"]["tables_left_without_configuration"]
    assert left == [
        {
            "table": "R-02",
            "configuration": "lightning",
            "reason": "it uses the configuration “lightning”, which this version does not have",
        }
    ]
    assert body["warnings"]["version_in_effect"] == 1
    assert {c["configuration"]: c["change"] for c in body["warnings"]["changes"]} == {"Standard": "changed"}
    standard_change = body["warnings"]["changes"][0]["details"]
    assert "wheel types: single zero, double zero, double zero used as single zero → double zero" in standard_change
    assert "First Five Numbers: no longer offered (was 6 to 1)" not in standard_change  # version 1: the straight only
    assert "1 to 18: offered at 1 to 1" in standard_change  # the wager's words, not its code
    # At drafting: the draft's page; at filing: the same page with the filing form.
    page = signed_in(casino.compliance).get(f"/rules-submissions/{body['id']}/").content.decode()
    assert "Table R-02: it uses the configuration “lightning”, which this version does not have." in page
    assert "Compared with version 1, in effect today" in page and "Sign and file" in page
    filed = manager.post(
        f"/api/rules-submissions/{body['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    assert filed.status_code == 200, filed.content
    assert filed.json()["warnings"]["tables_left_without_configuration"][0]["table"] == "R-02"
    # Before the decision: the regulator's page and API say the same, next to the comparison.
    regulator = RegulatorFactory(jurisdiction=casino.property.jurisdiction)
    page = signed_in(regulator).get(f"/rules-submissions/{body['id']}/").content.decode()
    assert "Table R-02: it uses the configuration “lightning”" in page and "Decision" in page
    # The page says each difference in its reader's language (the API's details stay as above).
    assert "Wheel types: single zero, double zero, double zero used as single zero → double zero" in page
    seen = client_for(regulator).get(f"/api/rules-submissions/{body['id']}/").json()
    assert seen["warnings"]["tables_left_without_configuration"][0]["table"] == "R-02"


def test_a_version_that_keeps_every_table_configured_warns_of_nothing(two_tables):
    casino, _ = two_tables
    body = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["double_zero"],
        payout_odds={"straight": [35, 1]},
        options={},
        configurations=[
            configuration(
                "lightning",
                wheel_types=["single_zero"],
                payout_odds={"straight": [29, 1]},
                options={"lightning_payouts": LIGHTNING},
            )
        ],
    ).json()
    assert body["violations"] == []
    assert body["warnings"]["tables_left_without_configuration"] == []
    assert {c["configuration"]: c["change"] for c in body["warnings"]["changes"]} == {
        "Standard": "changed",
        "Lightning": "added",
    }


def test_a_table_whose_wheel_the_configuration_does_not_allow_is_named_too(two_tables):
    casino, _ = two_tables
    body = draft(
        client_for(casino.compliance),
        casino.property,
        wheel_types=["single_zero"],
        payout_odds={"straight": [35, 1]},
        options={},
        configurations=[configuration("lightning", wheel_types=["single_zero"], payout_odds={"straight": [35, 1]})],
    ).json()
    assert body["warnings"]["tables_left_without_configuration"] == [
        {
            "table": "R-01",
            "configuration": "standard",
            "reason": "it has a double zero wheel, which the configuration “Standard” does not allow",
        }
    ]


# ---- The configurations are signed content, frozen once filed ----


def test_a_submission_of_one_configuration_hashes_as_it_always_did(configured):
    casino = configured
    submission = RulesSubmission.objects.get(property=casino.property)
    assert "configurations" not in submission_content(submission)
    submission.configurations = [configuration("x")]
    assert submission_content(submission)["configurations"] == [configuration("x")]


def test_the_configurations_of_a_filed_submission_never_change(two_tables):
    casino, _ = two_tables
    submission = RulesSubmission.objects.get(property=casino.property)
    with pytest.raises(DatabaseError), transaction.atomic():
        RulesSubmission.objects.filter(pk=submission.pk).update(configurations=[configuration("x")])


def test_the_approvals_report_names_each_tables_configuration(two_tables):
    from inspections.reports.kinds import KINDS_BY_CODE
    from inspections.reports.models import Report

    casino, lightning = two_tables
    report = Report(
        property=casino.property,
        kind="approvals_in_effect",
        period_from=property_today(casino.property),
        period_to=property_today(casino.property),
    )
    kind = KINDS_BY_CODE["approvals_in_effect"]
    rows = {row["table_number"]: row for row in kind.rows(report, [casino.table.pk, lightning.pk])}
    assert rows["R-01"]["rules"].endswith("; configuration Standard")
    assert rows["R-02"]["rules"].endswith("; the table's configuration “lightning” is not in it")
    assert rows["R-02"]["paytable"] == ""


def test_a_list_of_submissions_leaves_the_warnings_out(two_tables):
    """Each would read the property's tables and the version in effect: a list stays one query a page."""
    casino, _ = two_tables
    rows = client_for(casino.compliance).get("/api/rules-submissions/").json()["results"]
    assert rows and all(row["warnings"] is None for row in rows)
