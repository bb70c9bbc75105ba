"""The § 617a.2 rules as the logbook services apply them: each accepted and refused."""

from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import timezone

from compliance.accounts.models import Role
from compliance.casinos.models import Ball, GamingTable, TableState, WheelType
from inspections.logbook import services
from inspections.logbook.models import Entry
from tests.factories import ROULETTE_LAYOUT, GamingTableFactory, UserFactory, configure_for_opening
from tests.support.logbook import ALL_PASS, a_day, adjust, event, inspect, refused, state  # noqa: F401 (also imported from here by older branches; import from tests.support)
from tests.support.people import bare_casino_staff, sign


def test_full_opening_follows_the_states(casino):
    assert state(casino) == TableState.CLOSED
    event(casino, "cover")
    assert state(casino) == TableState.LOCKED
    event(casino, "unlock")
    adjust(casino)
    assert state(casino) == TableState.UNLOCKED
    inspect(casino)
    assert state(casino) == TableState.INSPECTED
    event(casino, "open")
    assert state(casino) == TableState.OPEN
    event(casino, "close")
    assert state(casino) == TableState.CLOSED
    event(casino, "cover")
    assert state(casino) == TableState.LOCKED
    assert Entry.objects.filter(property=casino.property).count() == 7


def test_opening_without_an_inspection_is_refused(casino):
    event(casino, "cover")
    event(casino, "unlock")
    refused(lambda: event(casino, "open"), "no_inspection", "58 Pa. Code § 617a.2(a)")


def test_opening_a_locked_wheel_is_refused(casino):
    event(casino, "cover")
    refused(lambda: event(casino, "open"), "wheel_covered_and_locked", "58 Pa. Code § 617a.2(a)")


@pytest.mark.parametrize("role", [Role.MAINTENANCE, Role.COMPLIANCE])
def test_only_a_floorperson_or_security_inspects(casino, role):
    who = UserFactory(property=casino.property, role=role)
    refused(lambda: inspect(casino, who=who), "inspector_role", "58 Pa. Code § 617a.2(a)")


@pytest.mark.parametrize("role", [Role.FLOORPERSON, Role.SECURITY])
def test_a_floorperson_or_security_member_inspects(casino, role):
    who = UserFactory(property=casino.property, role=role)
    entry = inspect(casino, who=who)
    assert entry.passed is True
    assert entry.signatures.get().signer == who


def test_an_inspector_of_another_property_is_refused(casino, other_casino):
    refused(lambda: inspect(casino, who=other_casino.floorperson), "signer_not_at_property", "58 Pa. Code § 617a.2(a)")


def test_a_failed_item_never_lets_the_table_open(casino):
    inspect(casino, items={**ALL_PASS, "parts_secure": False})
    assert state(casino) == TableState.CLOSED
    refused(lambda: event(casino, "open"), "inspection_failed", "58 Pa. Code § 617a.2(a)")


def test_a_failed_inspection_after_a_passing_one_blocks_opening(casino):
    inspect(casino)
    inspect(casino, items={**ALL_PASS, "wheel_level_and_rotating": False})
    assert state(casino) == TableState.UNLOCKED
    refused(lambda: event(casino, "open"), "inspection_failed", "58 Pa. Code § 617a.2(a)")


def test_missing_checklist_items_are_refused(casino):
    violations = refused(
        lambda: inspect(casino, items={"ball_non_magnetic": True}),
        "checklist_item_missing",
        "58 Pa. Code § 617a.2(a)(2)",
    )
    assert {v.field for v in violations} == {
        "items.no_magnet_or_contrivance",
        "items.wheel_level_and_rotating",
        "items.parts_secure",
    }


def test_item_5_is_required_for_a_double_zero_wheel_used_as_single_zero(casino):
    casino.table.wheel_type = WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO
    casino.table.save()
    refused(lambda: inspect(casino), "checklist_item_missing", "58 Pa. Code § 617a.2(a)(5)")
    entry = inspect(casino, items={**ALL_PASS, "layout_and_signage_00": True})
    assert entry.details["items"]["layout_and_signage_00"] is True


def test_item_5_is_refused_for_other_wheels(casino):
    refused(
        lambda: inspect(casino, items={**ALL_PASS, "layout_and_signage_00": True}),
        "checklist_item_not_applicable",
        "58 Pa. Code § 617a.2(a)(5)",
    )


def test_an_inspection_of_a_locked_wheel_is_refused(casino):
    event(casino, "cover")
    refused(lambda: inspect(casino), "wheel_covered_and_locked", UNLOCK_FIRST)


def test_an_adjustment_of_a_locked_wheel_is_refused(casino):
    event(casino, "cover")
    refused(lambda: adjust(casino), "wheel_covered_and_locked", UNLOCK_FIRST)


@pytest.mark.parametrize("role", [Role.FLOORPERSON, Role.MAINTENANCE])
def test_a_floorperson_or_maintenance_member_adjusts(casino, role):
    performer = UserFactory(property=casino.property, role=role)
    entry = adjust(casino, performer=performer)
    assert [(s.signer, s.meaning) for s in entry.signatures.all()] == [
        (performer, "performed"),
        (casino.security, "witnessed"),
    ]


@pytest.mark.parametrize("role", [Role.SECURITY, Role.COMPLIANCE])
def test_others_may_not_adjust(casino, role):
    performer = UserFactory(property=casino.property, role=role)
    refused(
        lambda: adjust(casino, performer=performer, witness=casino.security2),
        "performer_role",
        "58 Pa. Code § 617a.2(b)",
    )


def test_the_witness_must_be_from_security(casino):
    refused(lambda: adjust(casino, witness=casino.floorperson), "witness_not_security", "58 Pa. Code § 617a.2(b)")


def test_the_witness_is_not_the_performer(casino):
    refused(
        lambda: adjust(casino, performer=casino.floorperson, witness=casino.floorperson),
        "witness_is_performer",
        "58 Pa. Code § 617a.2(b)",
    )


def test_a_witness_of_another_property_is_refused(casino, other_casino):
    refused(lambda: adjust(casino, witness=other_casino.security), "signer_not_at_property", "58 Pa. Code § 617a.2(b)")


def test_a_wheel_without_external_movable_parts_has_nothing_to_adjust(casino):
    casino.table.has_external_movable_parts = False
    casino.table.save()
    refused(lambda: adjust(casino), "no_external_movable_parts", "58 Pa. Code § 617a.2(b)")


def test_adjustment_after_inspection_invalidates_it(casino):
    inspect(casino)
    adjust(casino)
    assert state(casino) == TableState.UNLOCKED
    refused(lambda: event(casino, "open"), "adjustment_after_inspection", "58 Pa. Code § 617a.2(c)")
    inspect(casino)
    event(casino, "open")
    assert state(casino) == TableState.OPEN


def test_replacement_needs_an_inspection_before_reopening(casino):
    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    adjust(casino, kind="replacement")
    refused(lambda: event(casino, "open"), "replacement_without_inspection", "58 Pa. Code § 617a.2(d)")


def test_an_adjustment_while_open_is_recorded_and_voids_the_inspection(casino):
    inspect(casino)
    event(casino, "open")
    adjust(casino)
    casino.table.refresh_from_db()
    assert casino.table.state == TableState.OPEN
    assert casino.table.status.inspection_void_reason == "adjustment"


def test_closing_requires_a_new_inspection_before_reopening(casino):
    inspect(casino)
    event(casino, "open")
    event(casino, "close")
    refused(lambda: event(casino, "open"), "no_inspection", "58 Pa. Code § 617a.2(a)")


UNLOCK_FIRST = (
    "Product policy: a covered and locked wheel (58 Pa. Code § 617a.2(f)) is unlocked, with its "
    "logbook entry, before it is inspected or adjusted"
)
# No paragraph governs closing a table that is not open (§ 617a.2(f) is about securing the wheel
# of a table not open): the table's states are product policy, and say so.
TABLE_STATES = "Product policy: the table's states (no paragraph governs opening an open table or closing one not open)"


def test_impossible_orders_are_refused(casino):
    refused(lambda: event(casino, "close"), "table_not_open", TABLE_STATES)
    refused(lambda: event(casino, "unlock"), "wheel_not_locked", TABLE_STATES)
    inspect(casino)
    event(casino, "open")
    refused(lambda: event(casino, "open"), "table_already_open", TABLE_STATES)
    refused(lambda: event(casino, "cover"), "table_open", TABLE_STATES)
    event(casino, "close")
    event(casino, "cover")
    refused(lambda: event(casino, "cover"), "wheel_already_locked", TABLE_STATES)


def test_a_wrong_signature_password_writes_nothing(casino):
    def call():
        services.inspection_record(
            table_id=casino.table.pk,
            items=ALL_PASS,
            signature=sign(casino.floorperson, "wrong"),
            recorded_by=casino.floorperson,
        )

    violations = refused(call, "signature_invalid", "58 Pa. Code § 617a.2(e)")
    assert violations[0].field == "signature"


def test_a_wrong_witness_password_names_the_witness(casino):
    def call():
        services.adjustment_record(
            table_id=casino.table.pk,
            kind="adjustment",
            part="rotor",
            description="",
            performer=sign(casino.maintenance),
            witness=sign(casino.security, "wrong"),
            recorded_by=casino.maintenance,
        )

    assert refused(call, "signature_invalid", "58 Pa. Code § 617a.2(e)")[0].field == "witness"


def test_times_in_the_future_are_refused(casino):
    refused(
        lambda: inspect(casino, at=timezone.now() + timedelta(minutes=10)), "time_in_future", "58 Pa. Code § 617a.2(e)"
    )


def test_times_before_the_last_entry_are_refused(casino):
    inspect(casino)
    refused(
        lambda: event(casino, "open", at=timezone.now() - timedelta(hours=1)),
        "time_before_last_entry",
        "Product policy: a table's entries follow each other in time (58 Pa. Code § 617a.2(e) requires "
        "their date and time)",
    )


def test_an_irregularity_is_recorded_while_open(casino):
    refused(
        lambda: services.irregularity_record(
            table_id=casino.table.pk,
            kind="ball_left_wheel",
            signature=sign(casino.floorperson),
            recorded_by=casino.floorperson,
        ),
        "table_not_open",
        "58 Pa. Code § 617a.6",
    )
    inspect(casino)
    event(casino, "open")
    spare = Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    entry = services.irregularity_record(
        table_id=casino.table.pk,
        kind="ball_left_wheel",
        ball_replaced=True,
        new_ball=spare,
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    assert entry.details == {
        "irregularity": "ball_left_wheel",
        "ball_replaced": True,
        "new_ball": spare.pk,
        "notes": "",
    }
    assert "ball replaced by B-SPARE" in entry.description
    assert GamingTable.objects.get(pk=casino.table.pk).ball_id == spare.pk


def test_a_ball_replaced_without_naming_the_new_ball_is_refused(casino):
    inspect(casino)
    event(casino, "open")
    ball_before = GamingTable.objects.get(pk=casino.table.pk).ball_id
    refused(
        lambda: services.irregularity_record(
            table_id=casino.table.pk,
            kind="ball_left_wheel",
            ball_replaced=True,
            signature=sign(casino.floorperson),
            recorded_by=casino.floorperson,
        ),
        "new_ball_required",
        "Product policy: a replaced ball is named from the property's registered balls "
        "(58 Pa. Code § 617a.6(b), (c) call for a new Roulette ball)",
    )
    assert GamingTable.objects.get(pk=casino.table.pk).ball_id == ball_before


def test_deck_changes_are_for_casino_war_tables(casino):
    refused(
        lambda: services.deck_change_record(
            table_id=casino.table.pk, decks=6, signature=sign(casino.floorperson), recorded_by=casino.floorperson
        ),
        "not_a_casino_war_table",
        "58 Pa. Code § 651a.3(d) (proposed, 41 Pa.B. 3000)",
    )
    war = GamingTableFactory(
        property=casino.property, game="casino_war", wheel_type=None, has_external_movable_parts=False
    )
    entry = services.deck_change_record(
        table_id=war.pk,
        decks=6,
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
        cards_per_deck=52,
        cover_cards_per_deck=2,
        back_colours=["red"],
    )
    assert entry.details["decks"] == 6


def test_an_amendment_points_at_the_entry_and_leaves_it_untouched(casino):
    original = inspect(casino)
    amendment = services.amendment_record(
        entry_id=original.pk,
        reason="Wrong table noted",
        correction={"notes": "R-01"},
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    assert amendment.amends == original
    original_hash = original.entry_hash
    original.refresh_from_db()
    assert original.entry_hash == original_hash
    assert amendment.signatures.get().meaning == "amended"


def test_only_a_signer_or_compliance_amends(casino):
    original = inspect(casino)
    refused(
        lambda: services.amendment_record(
            entry_id=original.pk,
            reason="x",
            correction={"notes": "Ball checked with the compass, not the magnet"},
            signature=sign(casino.maintenance),
            recorded_by=casino.maintenance,
        ),
        "amender_role",
        "Product policy, derived from 58 Pa. Code § 617a.2(e)",
    )
    services.amendment_record(
        entry_id=original.pk,
        reason="x",
        correction={"notes": "Ball checked with the compass, not the magnet"},
        signature=sign(casino.compliance),
        recorded_by=casino.compliance,
    )


def test_deadlines_follow_the_state(casino):
    inspect(casino)
    entry = event(casino, "open")
    casino.table.refresh_from_db()
    assert casino.table.status.next_due == casino.table.status.last_inspection_at + timedelta(hours=24)
    entry = event(casino, "close")
    casino.table.refresh_from_db()
    assert casino.table.status.next_due == entry.occurred_at + timedelta(minutes=15)
    event(casino, "cover")
    casino.table.refresh_from_db()
    assert casino.table.status.next_due is None


def test_an_entry_without_a_time_follows_one_a_little_in_the_future(casino):
    ahead = timezone.now() + timedelta(seconds=30)
    inspect(casino, at=ahead)
    entry = event(casino, "open")
    assert entry.occurred_at == ahead


def test_a_time_out_of_order_is_reported_with_the_state_problem(casino):
    inspect(casino)
    violations = refused(
        lambda: event(casino, "close", at=timezone.now() - timedelta(hours=1)),
        "table_not_open",
        TABLE_STATES,
    )
    assert {v.code for v in violations} == {"table_not_open", "time_before_last_entry"}


@pytest.mark.parametrize(
    "correction, code, field",
    [
        ({}, "correction_empty", "correction"),
        ({"state": "open"}, "correction_field_unknown", "correction.state"),
        ({"performed_at": "2999-01-01T00:00:00Z"}, "time_in_future", "correction.performed_at"),
        ({"performed_at": "2026-01-01T10:00:00"}, "correction_time", "correction.performed_at"),
    ],
)
def test_a_correction_names_real_fields_and_true_times(casino, correction, code, field):
    original = inspect(casino)
    violations = refused(
        lambda: services.amendment_record(
            entry_id=original.pk,
            reason="x",
            correction=correction,
            signature=sign(casino.floorperson),
            recorded_by=casino.floorperson,
        ),
        code,
        # A time in the future is no time the log may state (§ 617a.2(e)); the rest is how an
        # amendment corrects it, the product's policy.
        "58 Pa. Code § 617a.2(e)"
        if code == "time_in_future"
        else "Product policy, derived from 58 Pa. Code § 617a.2(e)",
    )
    assert field in {v.field for v in violations}


def test_opening_needs_approved_layout_rules_and_registered_equipment(db):
    bare = bare_casino_staff("Nothing approved yet")
    inspect(bare)
    violations = refused(lambda: event(bare, "open"), "layout_not_approved", "58 Pa. Code § 617a.1(f)")
    assert {(v.code, v.citation) for v in violations} == {
        ("layout_not_approved", "58 Pa. Code § 617a.1(f)"),
        ("rules_submission_not_in_effect", "58 Pa. Code § 601a.2"),
        (
            "wheel_not_registered",
            "Product policy: a Roulette table opens with a registered wheel and ball, checked against 58 Pa. Code § 617a.1(a)–(d)",
        ),
        (
            "ball_not_registered",
            "Product policy: a Roulette table opens with a registered wheel and ball, checked against 58 Pa. Code § 617a.1(a)–(d)",
        ),
    }


def test_opening_needs_rules_covering_the_tables_wheel_type(db):
    staff = bare_casino_staff("Single-zero rules only")  # its table is double-zero
    configure_for_opening(staff.table, created_by=staff.compliance, rules_wheel_types=["single_zero"])
    inspect(staff)
    refused(lambda: event(staff, "open"), "rules_submission_wheel_type", "58 Pa. Code § 601a.2")


# 12 to 16 decks need a shuffler the Rules Submission in effect approves: this table has none
# (tests/inspections/test_casino_war_logbook.py has the table with one).
@pytest.mark.parametrize("decks, accepted", [(6, True), (8, True), (12, False), (5, False), (13, False)])
def test_a_deck_change_puts_six_or_eight_decks_or_a_shufflers_batches(casino, decks, accepted):
    war = GamingTableFactory(
        property=casino.property, game="casino_war", wheel_type=None, has_external_movable_parts=False
    )

    def call():
        return services.deck_change_record(
            table_id=war.pk,
            decks=decks,
            signature=sign(casino.floorperson),
            recorded_by=casino.floorperson,
            cards_per_deck=52,
            cover_cards_per_deck=2,
            back_colours=["red", "blue"] if decks >= 12 else ["red"],
        )

    if accepted:
        assert call().details["decks"] == decks
    else:
        refused(
            call,
            "casino_war_decks",
            "58 Pa. Code § 651a.3(c) (proposed, 41 Pa.B. 3000)"
            if decks > 8
            else "58 Pa. Code § 651a.3(a) (proposed, 41 Pa.B. 3000)",
        )


def test_a_touchdown_configuration_opens_only_on_an_electronic_double_zero_table(casino):
    """§ 617a.1(f)(5): Touchdown Roulette is played on a fully automated electronic table with a
    double-zero wheel: the table that uses the Touchdown configuration, not every table whose layout
    shows its area or every table of the property."""
    from compliance.approvals.models import LayoutSubmission
    from tests.compliance.test_configurations import approve_version

    approve_version(
        casino,
        {
            "key": "touchdown",
            "name": "Touchdown",
            "wheel_types": ["double_zero"],
            "payout_odds": {"straight": [35, 1]},
            "options": {"touchdown_paytable": "A"},
        },
    )
    touchdown = LayoutSubmission.objects.create(
        property=casino.property,
        name="Touchdown",
        features=[*ROULETTE_LAYOUT, "touchdown_electronic_area"],
        status="approved",
        created_by=casino.compliance,
        content_hash="0" * 64,
    )
    touchdown.tables.add(casino.table)
    # A Touchdown layout on a table of the standard configuration is no Touchdown table.
    inspect(casino)
    assert event(casino, "open").kind == "open"
    event(casino, "close")
    type(casino.table).objects.filter(pk=casino.table.pk).update(configuration="touchdown")
    inspect(casino)
    refused(lambda: event(casino, "open"), "touchdown_table", "58 Pa. Code § 617a.1(f)(5)")
    type(casino.table).objects.filter(pk=casino.table.pk).update(electronic=True)
    assert event(casino, "open").kind == "open"


def test_a_casino_war_table_opens_with_its_approved_layout_and_rules(casino):
    from compliance.approvals.models import LayoutSubmission, RulesSubmission

    war = GamingTableFactory(
        property=casino.property, game="casino_war", wheel_type=None, has_external_movable_parts=False
    )
    staff = SimpleNamespace(**{**vars(casino), "table": war})
    violations = refused(
        lambda: event(staff, "open"), "layout_not_approved", "58 Pa. Code § 651a.2(b) (proposed, 41 Pa.B. 3000)"
    )
    # § 651a.4: its opening also states how its cards were inspected.
    assert {v.code for v in violations} == {"layout_not_approved", "rules_submission_not_in_effect", "cards_at_opening"}
    layout = LayoutSubmission.objects.create(
        property=casino.property,
        game="casino_war",
        name="War",
        features=["name_or_logo", "betting_areas", "tie_betting_area", "payout_odds_signage", "drop_box", "tip_box"],
        status="approved",
        created_by=casino.compliance,
        content_hash="0" * 64,
    )
    layout.tables.add(war)
    RulesSubmission.objects.create(
        property=casino.property,
        game="casino_war",
        version=1,
        effective_from=date(2020, 1, 1),
        status="approved",
        created_by=casino.compliance,
    )
    opened = services.table_event_record(
        table_id=war.pk, kind="open", signature=sign(casino.security), recorded_by=casino.security, cards="inspected"
    )
    assert opened.kind == "open"


def test_opening_needs_the_layout_areas_of_the_options_now_in_effect(casino):
    from compliance.approvals.models import RulesSubmission

    RulesSubmission.objects.create(
        property=casino.property,
        game="roulette",
        version=2,
        effective_from=date(2021, 1, 1),
        wheel_types=["double_zero"],
        options={"blazing7_paytable": 2},
        status="approved",
        created_by=casino.compliance,
    )
    inspect(casino)
    violations = refused(lambda: event(casino, "open"), "layout_feature_missing", "58 Pa. Code § 617c.2(b)")
    # Named in words, never by their codes (issue 20, item 5).
    assert {v.message.split("“")[1].split("”")[0] for v in violations} == {
        "the Blazing 7's wager area",
        "the Blazing 7's wager release device",
    }


def test_a_ball_in_play_on_another_table_is_refused_as_the_new_ball(casino):
    other = configure_for_opening(
        GamingTableFactory(property=casino.property, number="R-02"), created_by=casino.compliance
    )
    inspect(casino)
    event(casino, "open")
    refused(
        lambda: services.irregularity_record(
            table_id=casino.table.pk,
            kind="ball_left_wheel",
            ball_replaced=True,
            new_ball=other.ball,
            signature=sign(casino.security),
            recorded_by=casino.security,
        ),
        "ball_in_use",
        "Product policy: a ball is on one table at a time",
    )


def test_an_entry_reads_back_as_its_append_wrote_it_in_one_statement_or_several(casino):
    """On PostgreSQL the entry, its signatures, the chain head and the table go in one statement; on
    SQLite one after the other. Either way what the service answered is what the database holds, the
    signatures in signing order, the unlocking's deadline set before it was written, and the chain
    verifies."""
    from inspections.logbook.chain import chain_verify
    from inspections.logbook.models import ChainHead

    event(casino, "cover")
    unlocked = event(casino, "unlock")
    assert GamingTable.objects.get(pk=casino.table.pk).status.cover_due_at == unlocked.occurred_at + timedelta(
        minutes=casino.property.cover_grace_minutes
    )
    entry = adjust(casino)
    stored = Entry.objects.get(pk=entry.pk)
    for field in Entry._meta.concrete_fields:
        assert getattr(stored, field.attname) == getattr(entry, field.attname), field.name
    assert [s.pk for s in entry.signature_list] == list(stored.signatures.values_list("pk", flat=True))
    assert [s.meaning for s in stored.signatures.all()] == ["performed", "witnessed"]
    head = ChainHead.objects.get(property_id=casino.property.pk)
    assert (head.length, head.head) == (entry.seq, entry.entry_hash) == (unlocked.seq + 1, entry.entry_hash)
    table = GamingTable.objects.get(pk=casino.table.pk)
    assert table.status.last_entry_at == entry.occurred_at == table.status.last_adjustment_at
    assert chain_verify(property_id=casino.property.pk).ok
