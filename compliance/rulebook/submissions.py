"""What a Rules Submission's content says under its jurisdiction's law, saving nothing: its
violations (§ 601a.2), its house edges and the words of its wagers (the drafting page, the API,
the reports and the approvals' services ask here)."""

from __future__ import annotations

from compliance.rulebook import game_rules_for, rulebook_for
from compliance.rulebook.games.big_six import big_six_house_edges
from compliance.rulebook.games.roulette import house_edge_notes, house_edges
from compliance.rulebook.violations import Violation
from compliance.rulebook.vocabulary import Game


def rules_submission_check(
    *, jurisdiction: str, game: str, wheel_types, payout_odds, options, configurations=None
) -> list[Violation]:
    """Every violation of a Rules Submission's content (the draft page's live check, and each save)."""
    return rulebook_for(jurisdiction).check_rules_submission(
        game_rules=game_rules_for(jurisdiction),
        game=game,
        wheel_types=wheel_types,
        payout_odds=payout_odds,
        options=options,
        configurations=configurations,
    )


def submission_house_edges(*, jurisdiction: str, game: str, wheel_types, payout_odds, options) -> dict:
    """Wager code → wheel type (or the wheel, for Big Six) → the house edge in percent."""
    if game == Game.BIG_SIX:
        return big_six_house_edges(game_rules=game_rules_for(jurisdiction), payout_odds=payout_odds)
    return house_edges(
        game_rules=game_rules_for(jurisdiction), wheel_types=wheel_types, payout_odds=payout_odds, options=options
    )


def submission_house_edge_notes(*, jurisdiction: str, game: str, payout_odds, options) -> dict[str, str]:
    """Wager code → why its house edge is not determinable from the text (its edges are None)."""
    if game != Game.ROULETTE:
        return {}
    return house_edge_notes(game_rules=game_rules_for(jurisdiction), payout_odds=payout_odds, options=options)


def wager_labels(jurisdiction: str) -> dict[str, str]:
    """Wager code → the words a person reads ("1 to 18" for `low`), the jurisdiction's."""
    rules = game_rules_for(jurisdiction)
    return {code: wager.label for code, wager in {**rules.WAGERS, **rules.BIG_SIX_WAGERS}.items()}
