"""One definition of each word: the models' choices, the table's deadline columns and the floor
pages' actions are the rulebook's."""

from __future__ import annotations

import pytest

from compliance.accounts import models as accounts
from compliance.casinos import models as casinos
from compliance.rulebook import flags, table_states, vocabulary
from compliance.rulebook.vocabulary import Game, TableState

PAIRS = [
    (casinos.Jurisdiction, vocabulary.Jurisdiction),
    (casinos.Game, vocabulary.Game),
    (casinos.WheelType, vocabulary.WheelType),
    (casinos.TableState, vocabulary.TableState),
    (accounts.Role, vocabulary.Role),
]


@pytest.mark.parametrize(("model_choices", "words"), PAIRS, ids=[words.__name__ for _, words in PAIRS])
def test_the_models_choices_are_the_rulebooks_words(model_choices, words):
    assert model_choices.choices == [(word.value, word.label) for word in words]
    assert [member.name for member in model_choices] == [word.name for word in words]


def test_the_tables_deadline_columns_are_the_flag_kinds():
    from inspections.logbook import models as logbook

    assert tuple(kind.deadline for kind in flags.FLAG_KINDS) == logbook.TABLE_DEADLINES
    assert {field.name for field in logbook.TableStatus._meta.get_fields()} >= set(logbook.TABLE_DEADLINES)


def test_the_floor_pages_offer_the_transitions_of_each_state():
    from inspections.logbook import web

    for state in TableState:
        offered = [str(kind) for kind in web.ACTIONS[state]]
        # § 617a.2(f)'s cover and lock is the Roulette wheel's.
        assert list(table_states.actions_from(state, Game.BIG_SIX)) == [kind for kind in offered if kind != "cover"]
        irregularity = ["irregularity"] if state == TableState.OPEN else []
        assert list(table_states.actions_from(state, Game.ROULETTE)) == offered + irregularity


def test_an_adjustment_or_a_failed_inspection_sends_an_inspected_table_back_to_unlocked():
    assert table_states.next_state(TableState.INSPECTED, "adjustment") == TableState.UNLOCKED
    assert table_states.next_state(TableState.INSPECTED, "inspection", passed=False) == TableState.UNLOCKED
    assert table_states.next_state(TableState.OPEN, "adjustment") == TableState.OPEN
    assert table_states.next_state(TableState.CLOSED, "cover") == TableState.LOCKED
