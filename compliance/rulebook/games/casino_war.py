"""Casino War (58 Pa. Code Chapter 651a, from the 2011 text): the payouts, the decks and the boxes
of a Rules Submission. Of the texts this product holds only Pennsylvania's has the game."""

from __future__ import annotations

import dataclasses

from compliance.rulebook.catalogue import violation
from compliance.rulebook.configurations import configuration_of
from compliance.rulebook.games.roulette import NOT_CHOSEN
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.subjects import RulesSubmission, Table
from compliance.rulebook.violations import Odds, Violation, gettext_noop
from compliance.rulebook.vocabulary import Game
from compliance.rulebook.words import in_words

OPTIONS = frozenset({"casino_war_adjacent_boxes", "casino_war_decks", "automated_shuffler"})

# § 651a.11: the irregularities of a Casino War table the logbook records (through the irregularity
# entry, its reason one of these): the automated card shuffling device's, (d) and (e). The signed log
# writes each label, so each cites its paragraph as proposed, as every citation of Chapter 651a does.
IRREGULARITIES = pa.proposed("651a.11")
IRREGULARITY_KINDS = (
    (
        "shuffler_failed",
        # Each citation as pa.proposed writes it, spelled out so that makemessages reads the sentence.
        gettext_noop(
            "automated card shuffling device jammed, stopped or did not complete its cycle: cards reshuffled "
            "(58 Pa. Code § 651a.11(d) (proposed, 41 Pa.B. 3000))"
        ),
    ),
    (
        "shuffler_out_of_order",
        gettext_noop(
            "automated card shuffling device or dealing shoe out of order: covered or signed before another "
            "method was used (58 Pa. Code § 651a.11(e) (proposed, 41 Pa.B. 3000))"
        ),
    ),
)


def casino_war_decks_allowed(*, decks: int, automated_shuffler: bool) -> Violation | None:
    """§ 651a.3(a), (c): six or eight decks from a manual shoe; 12 to 16, in two equal batches, with a shuffler."""
    if automated_shuffler:
        if decks in pa.CASINO_WAR_SHUFFLER_DECKS:
            return None
        return violation("casino_war_decks/shuffler", field="decks")
    if decks in pa.CASINO_WAR_MANUAL_DECKS:
        return None
    return violation("casino_war_decks", field="decks")


def deck_change_allowed(*, table: Table, decks: int, rules_submission: RulesSubmission | None) -> Violation | None:
    """§ 651a.3(a), (c): the decks a deck change puts on the table are what the table may use: six or
    eight from the manual dealing shoe; 12 to 16, in two equal batches, only where the Rules Submission
    in effect approves an automated card shuffling device in the table's configuration."""
    if decks in pa.CASINO_WAR_MANUAL_DECKS:
        return None
    configuration = configuration_of(rules_submission, table.configuration)
    options = configuration.options if configuration is not None else {}
    if options.get("automated_shuffler") is True:
        return casino_war_decks_allowed(decks=decks, automated_shuffler=True)
    if min(pa.CASINO_WAR_SHUFFLER_DECKS) <= decks <= max(pa.CASINO_WAR_SHUFFLER_DECKS):
        return violation("casino_war_decks/shuffler_not_approved", field="decks", table=table.number, decks=decks)
    return violation("casino_war_decks", field="decks")


# The fields of a deck change that state the decks' composition (§ 651a.3(a), (c)(2)).
DECK_COMPOSITION = ("cards_per_deck", "cover_cards_per_deck", "back_colours")


def deck_composition(
    *,
    table: Table,
    decks: int,
    cards_per_deck: int | None,
    cover_cards_per_deck: int | None,
    back_colours: list[str] | None,
    decks_allowed: bool = True,
) -> list[Violation | None]:
    """§ 651a.3(a): "Each deck of cards must consist of 52 cards and 2 cover cards", and six or eight
    decks from the manual shoe are "identical in appearance" (their backs one colour); § 651a.3(c)(2):
    with an automated card shuffling device (12 to 16 decks) the cards are in two batches, "the backs
    of the cards in one batch must be of a different color than the cards included in the other
    batch". A deck change states each; another game's table has no decks (may_change_decks says so).
    The backs are judged against a count of decks the table may use (`decks_allowed`; else that count's
    refusal says what is wrong)."""
    if table.game != Game.CASINO_WAR:
        return []
    found: list[Violation | None] = []
    if cards_per_deck is None or cover_cards_per_deck is None:
        missing = "cards_per_deck" if cards_per_deck is None else "cover_cards_per_deck"
        found.append(violation("deck_cards/missing", field=missing))
    elif (cards_per_deck, cover_cards_per_deck) != (pa.CASINO_WAR_DECK_CARDS, pa.CASINO_WAR_COVER_CARDS):
        field = "cards_per_deck" if cards_per_deck != pa.CASINO_WAR_DECK_CARDS else "cover_cards_per_deck"
        found.append(violation("deck_cards", field=field, cards=cards_per_deck, cover=cover_cards_per_deck))
    backs = [colour.strip() for colour in back_colours or []]
    if not decks_allowed:
        return found
    if decks >= min(pa.CASINO_WAR_SHUFFLER_DECKS):
        if len(backs) != 2 or not all(backs):
            found.append(violation("deck_backs", field="back_colours"))
        elif backs[0].casefold() == backs[1].casefold():
            found.append(violation("deck_backs/same", field="back_colours", colour=backs[0]))
    elif len(backs) != 1 or not backs[0]:
        found.append(violation("deck_backs/manual", field="back_colours"))
    return found


# § 651a.4: at opening, the cards received at the table are inspected by the dealer and spread for the
# first player ((a)–(d)), unless they came preinspected and preshuffled ((e)). The opening entry of a
# Casino War table says which (its details' `cards`).
CARD_INSPECTION = pa.proposed("651a.4")
CARD_CHECKS = (
    (
        "inspected",
        gettext_noop(
            "cards inspected by the dealer and spread for the first player "
            "(58 Pa. Code § 651a.4(a)–(d) (proposed, 41 Pa.B. 3000))"
        ),
    ),
    (
        "preinspected",
        gettext_noop("decks received preinspected and preshuffled (58 Pa. Code § 651a.4(e) (proposed, 41 Pa.B. 3000))"),
    ),
)


def cards_at_opening(*, table: Table, cards: str | None) -> Violation | None:
    """§ 651a.4: a Casino War table opens with its cards inspected, or received preinspected; another
    game's table has no cards to state."""
    if table.game != Game.CASINO_WAR:
        if cards:
            return violation("cards_at_opening/not_casino_war", field="cards", table=table.number)
        return None
    if cards not in dict(CARD_CHECKS):
        return violation("cards_at_opening", field="cards", table=table.number, choices=in_words(CARD_CHECKS))
    return None


def irregularity_kind_for_game(
    *, table: Table, kind: str, roulette_kinds: tuple[tuple[str, str], ...], ball_replaced: bool
) -> Violation | None:
    """§ 617a.6 for a Roulette table, § 651a.11 for a Casino War table: the reason is one of its game's;
    a Casino War table has no ball to replace."""
    if table.game == Game.CASINO_WAR:
        if kind not in dict(IRREGULARITY_KINDS):
            return violation(
                "irregularity_kind_for_game",
                field="kind",
                citation=IRREGULARITIES,
                table=table.number,
                game=table.get_game_display(),
                kinds=in_words(IRREGULARITY_KINDS),
            )
        if ball_replaced:
            return violation("irregularity_kind_for_game/ball", field="ball_replaced", table=table.number)
        return None
    if kind not in dict(roulette_kinds):
        return violation(
            "irregularity_kind_for_game",
            field="kind",
            citation=pa.IRREGULARITIES,
            table=table.number,
            game=table.get_game_display(),
            kinds=in_words(roulette_kinds),
        )
    return None


def check_casino_war_submission(*, payout_odds: dict[str, object], options: dict[str, object]) -> list[Violation]:
    """§ 651a.10: each wager paid exactly its odds; § 651a.7(e): the adjacent boxes; § 651a.3: the decks."""
    payouts = pa.CASINO_WAR_PAYOUTS or {}
    violations = []
    for code, value in payout_odds.items():
        field = f"payout_odds.{code}"
        if code not in payouts:
            violations.append(violation("wager_not_in_jurisdiction/casino_war", field=field, wager=code))
            continue
        required, citation = payouts[code]
        if value != list(required):
            violations.append(
                violation(
                    "casino_war_odds",
                    field=field,
                    citation=citation,
                    wager=code.replace("_", " "),
                    odds=Odds(*required),
                )
            )
    for code, (_required, citation) in payouts.items():
        if code not in payout_odds:
            violations.append(
                violation(
                    "casino_war_odds/missing",
                    field=f"payout_odds.{code}",
                    citation=citation,
                    wager=code.replace("_", " "),
                )
            )
    boxes = options.get("casino_war_adjacent_boxes")
    if not isinstance(boxes, int) or isinstance(boxes, bool) or not 1 <= boxes <= pa.CASINO_WAR_MAX_BOXES:
        violations.append(violation("adjacent_boxes_required", field="options.casino_war_adjacent_boxes"))
    decks = options.get("casino_war_decks")
    if not isinstance(decks, int) or isinstance(decks, bool):
        violations.append(violation("casino_war_decks/missing", field="options.casino_war_decks"))
    else:
        problem = casino_war_decks_allowed(decks=decks, automated_shuffler=options.get("automated_shuffler") is True)
        if problem:
            violations.append(dataclasses.replace(problem, field="options.casino_war_decks"))
    for name in options:
        if name not in OPTIONS and options[name] not in NOT_CHOSEN:
            violations.append(violation("option_not_in_jurisdiction/casino_war", field=f"options.{name}", option=name))
    return violations
