"""What the floor offers a person at a table (table_states.actions_for): the law alone, with plain
records in place of the models. Each refused action carries the words and citation the service would
answer after the signatures."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from compliance.rulebook import rulebook_for, table_states
from compliance.rulebook.vocabulary import Game, Jurisdiction, Role, TableState, WheelType

PA = rulebook_for(Jurisdiction.PA)
NJ = rulebook_for(Jurisdiction.NJ)


def person(role: str) -> SimpleNamespace:
    return SimpleNamespace(
        pk=1,
        role=role,
        property_id=1,
        display_name="Pat Doe",
        get_role_display=lambda: Role.label_of(role),
    )


def table(state: str, *, movable: bool = True, game: str = Game.ROULETTE) -> SimpleNamespace:
    return SimpleNamespace(
        pk=1,
        number="R-01",
        property_id=1,
        property=SimpleNamespace(name="Keystone", jurisdiction=Jurisdiction.PA),
        game=game,
        wheel_type=WheelType.DOUBLE_ZERO,
        has_external_movable_parts=movable,
        electronic=not movable,
        state=state,
        inspection_void_reason="",
        get_game_display=lambda: game.replace("_", " ").title(),
        get_wheel_type_display=lambda: "Double-zero",
    )


def offered(rules, state, role, **kwargs) -> dict[str, object]:
    return dict(table_states.actions_for(rules, table=table(state, **kwargs), person=person(role)))


def test_a_security_officer_at_an_inspected_table_may_open_cover_inspect_and_witness():
    answers = offered(PA, TableState.INSPECTED, Role.SECURITY)
    assert [event for event, reason in answers.items() if reason is None] == [
        "inspection",
        "adjustment",
        "ball_change",
        "open",
        "cover",
    ]
    assert answers["close"].code == "table_not_open"
    assert answers["unlock"].code == "wheel_not_locked"
    assert answers["irregularity"].citation == "58 Pa. Code § 617a.6"


def test_a_wheel_without_external_movable_parts_is_never_offered_an_adjustment():
    reason = offered(PA, TableState.UNLOCKED, Role.FLOORPERSON, movable=False)["adjustment"]
    assert (reason.code, reason.citation) == ("no_external_movable_parts", "58 Pa. Code § 617a.2(b)")


@pytest.mark.parametrize("rules", [PA, NJ], ids=["PA", "NJ"])
@pytest.mark.parametrize("movable", [False, True])
def test_every_roulette_table_is_offered_a_ball_change_whatever_its_wheel(rules, movable):
    for role in (Role.FLOORPERSON, Role.MAINTENANCE, Role.SECURITY):
        assert offered(rules, TableState.UNLOCKED, role, movable=movable)["ball_change"] is None
    # Product policy everywhere (the ball is not a part of the wheel), never a borrowed paragraph.
    refused = offered(rules, TableState.UNLOCKED, Role.COMPLIANCE, movable=movable)["ball_change"]
    assert (refused.code, refused.citation) == ("ball_change_signer_role", PA.BALL_CHANGE)
    locked = offered(rules, TableState.LOCKED, Role.FLOORPERSON, movable=movable)["ball_change"]
    assert locked.code == "wheel_covered_and_locked"
    assert "ball_change" not in offered(rules, TableState.CLOSED, Role.FLOORPERSON, game=Game.BIG_SIX)


@pytest.mark.parametrize(
    ("event", "code", "citation"),
    [
        ("inspection", "inspector_role", "58 Pa. Code § 617a.2(a)"),
        ("close", "signer_role", "Product policy: a security officer or floorperson of the property records"),
        ("irregularity", "signer_role", "Product policy: a security officer or floorperson of the property records"),
    ],
)
def test_a_maintenance_member_at_an_open_table_is_told_why_not(event, code, citation):
    answers = offered(PA, TableState.OPEN, Role.MAINTENANCE)
    assert answers["adjustment"] is None
    assert answers[event].code == code and answers[event].citation.startswith(citation)


def test_a_compliance_manager_signs_no_floor_entry():
    answers = offered(PA, TableState.UNLOCKED, Role.COMPLIANCE)
    assert all(reason is not None for reason in answers.values())
    assert answers["adjustment"].code == "adjustment_signer_role"


def test_a_borrowing_jurisdiction_cites_the_paragraph_as_borrowed():
    reason = offered(NJ, TableState.UNLOCKED, Role.FLOORPERSON, movable=False)["adjustment"]
    assert reason.citation == "58 Pa. Code § 617a.2(b) (applied by policy: N.J.A.C. 19:47-5 sets no procedure)"


def test_another_games_table_is_offered_opening_and_closing_only():
    assert list(offered(PA, TableState.CLOSED, Role.FLOORPERSON, game=Game.BIG_SIX)) == ["open", "close"]


def test_what_an_entry_leaves_the_table_needing():
    open_table = table(TableState.OPEN)
    void = PA.entry_outcome(table=open_table, kind="replacement", state_before=TableState.OPEN)
    assert void.message.startswith("Inspection void: stop play at table R-01") and void.citation == (
        "58 Pa. Code § 617a.2(d)"
    )
    assert PA.entry_outcome(table=open_table, kind="adjustment", state_before=TableState.OPEN).citation == (
        "58 Pa. Code § 617a.2(c)"
    )
    unlocked = table(TableState.UNLOCKED)
    assert PA.entry_outcome(table=unlocked, kind="inspection", state_before=TableState.UNLOCKED, passed=False).code == (
        "inspection_failed"
    )
    assert PA.entry_outcome(table=unlocked, kind="adjustment", state_before=TableState.INSPECTED).code == (
        "adjustment_after_inspection"
    )
    assert PA.entry_outcome(table=unlocked, kind="adjustment", state_before=TableState.UNLOCKED) is None
