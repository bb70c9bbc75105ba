"""Each jurisdiction's rulebook: a plain class whose methods are the shared rules, and whose facts
(a frozen facts.Facts, one per text in jurisdictions/) say what the jurisdiction's own text sets.
It is what rulebook_for answers.

Only Pennsylvania's texts set a wheel inspection procedure, equipment standards and the opening
gate. New Jersey and Section 4 borrow them (`Borrowing`): the same rules, answering with each
jurisdiction's own paragraph where its text has one (`Facts.own`: its irregularities, the wheel
replica) and otherwise with Pennsylvania's, saying it is applied by policy (`borrowed`). Product
policy stays product policy everywhere. docs/readings.md lists the readings.

Adding a rule: write it in its module (procedure.py, equipment.py, …) with its violations in
catalogue.py, and add the method that asks it to `Pennsylvania` below (`self.cited(...)` around
its answer where a borrowing text cites it otherwise).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from typing import TypeVar, cast

from compliance.rulebook import amendments, approvals, equipment, flags, procedure, records, signatures
from compliance.rulebook.catalogue import violation
from compliance.rulebook.facts import ChecklistItem, Facts, FlagKind
from compliance.rulebook.games import casino_war
from compliance.rulebook.jurisdiction import GameRules
from compliance.rulebook.jurisdictions import new_jersey, section_4
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.procedure import property_procedure_allowed as procedure_allowed
from compliance.rulebook.subjects import Entry, Equipment, Flag, Layout, Person, Property, RulesSubmission, Table, Wheel
from compliance.rulebook.violations import Violation
from compliance.rulebook.vocabulary import Game, WheelType
from compliance.rulebook.words import feature_label

# What a rule answers: a violation or none, a list of them, a checklist, a flag kind, a value.
Answer = TypeVar("Answer")


class Pennsylvania:
    """58 Pa. Code: Chapters 617a, 617c, 619a, 651a and § 601a.2: the rulebook a logbook is kept by.

    Its methods are the shared rules (procedure.py, equipment.py, approvals.py, games/), each
    answering as its rule does, the citations said as this rulebook cites them (`cited`: here as
    they are). `facts`: what the jurisdiction's own text sets (its wagers, odds, options, Big Six,
    Casino War and irregularities), which New Jersey's and Section 4's rulebooks replace."""

    def __init__(self, facts: Facts = pa.FACTS) -> None:
        self.facts = facts
        # The game rules (jurisdiction.GameRules), under the names the callers read.
        self.NAME = facts.name
        self.WAGERS_CITATION = facts.wagers_citation
        self.PAYOUT_ODDS = facts.payout_odds
        self.WAGERS = facts.wagers
        self.OPTIONS = facts.options
        self.OPTIONS_REFUSED = facts.options_refused
        self.BIG_SIX_CITATION = facts.big_six_citation
        self.BIG_SIX_WAGERS = facts.big_six_wagers
        self.BIG_SIX_CLAPPER = facts.big_six_clapper
        self.BIG_SIX_ODDS_WORDING = facts.big_six_odds_wording
        self.CASINO_WAR_PAYOUTS = facts.casino_war_payouts
        self.NO_CASINO_WAR = facts.no_casino_war
        self.IRREGULARITIES = facts.irregularities
        self.IRREGULARITY_KINDS = facts.irregularity_kinds
        # The procedure's paragraphs, checklist and flags, as this rulebook cites them.
        self.INSPECTION_LOG = self.borrowed(pa.INSPECTION_LOG)
        self.LAYOUT_APPROVAL = self.borrowed(pa.LAYOUT_APPROVAL)
        self.RULES_SUBMISSION = self.borrowed(pa.RULES_SUBMISSION)
        self.CHECKLIST = self.cited(pa.CHECKLIST)
        self.CHECKLIST_BY_CODE = {item.code: item for item in self.CHECKLIST}
        self.FLAG_KINDS = tuple(self.flag_kind(kind) for kind in flags.FLAG_KINDS)
        self.FLAG_KINDS_BY_CODE = {kind.code: kind for kind in self.FLAG_KINDS}

    def exclusivity(self, *, offered: set[str]) -> list[Violation]:
        return self.facts.exclusivity(offered=offered)

    def required_options(self, *, wheel_types: list[str], options: dict[str, object]) -> list[Violation]:
        return self.facts.required_options(wheel_types=wheel_types, options=options)

    def cite(self, citation: str | None) -> str | None:
        """A citation of Pennsylvania's rules as this rulebook cites it: Pennsylvania's own paragraphs
        are its law, cited as they are."""
        return citation

    def borrowed(self, citation: str) -> str:
        """A paragraph of Pennsylvania's procedure as this rulebook cites it: here, its own law."""
        return citation

    def cited(self, answer: Answer) -> Answer:
        """A rule's answer, its citations as this rulebook cites them (`cite`): here, as it is."""
        return answer

    def flag_kind(self, kind: FlagKind) -> FlagKind:
        """A kind of flag of the overdue scan, as this rulebook cites it."""
        return kind

    # Pennsylvania's procedure's facts, the same in every rulebook (each borrows its procedure).
    # A ball change: what the product applies to it, on every Roulette table (product policy).
    BALL_CHANGE = pa.BALL_CHANGE_POLICY
    BIG_SIX_ORDER: tuple[str, ...] = pa.BIG_SIX_ORDER
    SINGLE_ZERO_ORDER: tuple[str, ...] = pa.SINGLE_ZERO_ORDER
    DOUBLE_ZERO_ORDER: tuple[str, ...] = pa.DOUBLE_ZERO_ORDER
    RED_NUMBERS = pa.RED_NUMBERS
    LAYOUT_FEATURES = pa.LAYOUT_FEATURES
    CASINO_WAR_DECK_CHANGE_HOURS = pa.CASINO_WAR_DECK_CHANGE_HOURS
    AMENDMENT_KINDS: tuple[tuple[str, str], ...] = amendments.AMENDMENT_KINDS
    VOIDING_AMENDMENTS = amendments.VOIDING_AMENDMENTS
    TABLE_CONFIGURATION: tuple[str, ...] = equipment.TABLE_CONFIGURATION

    # § 617a.1: equipment and the table's configuration.
    def wheel_order_for(self, wheel_type: str) -> tuple[str, ...]:
        return self.cited(equipment.wheel_order_for(wheel_type))

    def check_wheel(
        self,
        *,
        wheel_type: str,
        diameter_inches: Decimal,
        number_order: list[str],
        colours: list[str] | None = None,
        game: str = Game.ROULETTE,
        compartments: str = "",
        compartment_colour: str = "",
        compartment_approval: str = "",
        parts: Mapping[str, bool | None] | None = None,
    ) -> list[Violation]:
        return self.cited(
            equipment.check_wheel(
                wheel_type=wheel_type,
                diameter_inches=diameter_inches,
                number_order=number_order,
                colours=colours,
                game=game,
                compartments=compartments,
                compartment_colour=compartment_colour,
                compartment_approval=compartment_approval,
                parts=parts,
            )
        )

    def ring_colours(self, numbers: tuple[str, ...] | list[str]) -> list[str]:
        return equipment.ring_colours(numbers)

    def check_ball(self, *, material: str, diameter_inches: Decimal) -> list[Violation]:
        return self.cited(equipment.check_ball(material=material, diameter_inches=diameter_inches))

    def equipment_change(
        self, *, table: Table, wheel_changed: bool, ball_changed: bool, wheel: Wheel | None, ball: Equipment | None
    ) -> list[Violation]:
        return self.cited(
            equipment.equipment_change(
                table=table, wheel_changed=wheel_changed, ball_changed=ball_changed, wheel=wheel, ball=ball
            )
        )

    def table_equipment(self, *, table: Table, wheel: Wheel | None, ball: Equipment | None) -> list[Violation]:
        return self.cited(equipment.table_equipment(table=table, wheel=wheel, ball=ball))

    def ball_free(
        self, *, ball: Equipment | None, in_use_on: list[str], table: Table | None = None
    ) -> Violation | None:
        return self.cited(equipment.ball_free(ball=ball, in_use_on=in_use_on, table=table))

    def table_configuration(
        self, *, game: str, wheel_type: str | None, has_external_movable_parts: bool
    ) -> list[Violation | None]:
        return self.cited(
            equipment.table_configuration(
                game=game, wheel_type=wheel_type, has_external_movable_parts=has_external_movable_parts
            )
        )

    def configuration_change(self, *, table: Table, changed: set[str]) -> Violation | None:
        return self.cited(equipment.configuration_change(table=table, changed=changed))

    # Records stay where they were signed (product policy from § 617a.2(e)).
    def table_may_move(self, *, table: Table, has_history: bool) -> Violation | None:
        return self.cited(records.table_may_move(table=table, has_history=has_history))

    def table_may_renumber(self, *, table: Table, has_entries: bool) -> Violation | None:
        return self.cited(records.table_may_renumber(table=table, has_entries=has_entries))

    def property_may_change_jurisdiction(self, *, prop: Property, has_records: bool) -> Violation | None:
        return self.cited(records.property_may_change_jurisdiction(prop=prop, has_records=has_records))

    def property_may_change_licence(self, *, prop: Property, has_records: bool) -> Violation | None:
        return self.cited(records.property_may_change_licence(prop=prop, has_records=has_records))

    def person_may_change(self, *, person: Person, changed: set[str], has_signed: bool) -> list[Violation]:
        return self.cited(records.person_may_change(person=person, changed=changed, has_signed=has_signed))

    # Whether the property may keep no procedure: not in Pennsylvania, whose law it is.
    def property_procedure_allowed(self, *, procedure: str) -> Violation | None:
        return procedure_allowed(procedure=procedure)

    # Whether this rulebook applies § 617a.2 (a property that keeps no procedure has one that does not).
    KEEPS_PROCEDURE: bool = True

    # § 617a.2: the procedure.
    def checklist_for(self, table: Table) -> tuple[ChecklistItem, ...]:
        return self.cited(procedure.checklist_for(table))

    def check_inspection(
        self, *, table: Table, inspector: Person, items: Mapping[str, object]
    ) -> list[Violation | None]:
        return self.cited(procedure.check_inspection(table=table, inspector=inspector, items=items))

    def inspection_passed(self, *, items: Mapping[str, object]) -> bool:
        return procedure.inspection_passed(items=items)

    def check_adjustment(
        self, *, table: Table, kind: str, performer: Person, witness: Person | None, ball_change: bool = False
    ) -> list[Violation | None]:
        return self.cited(
            procedure.check_adjustment(
                table=table, kind=kind, performer=performer, witness=witness, ball_change=ball_change
            )
        )

    def signer_may_record(self, *, event: str, signer: Person, table: Table) -> list[Violation | None]:
        return self.cited(procedure.signer_may_record(event=event, signer=signer, table=table))

    def inspection_offered(self, *, table: Table, person: Person) -> Violation | None:
        return self.cited(procedure.inspection_offered(table=table, person=person))

    def adjustment_offered(self, *, table: Table, person: Person) -> Violation | None:
        return self.cited(procedure.adjustment_offered(table=table, person=person))

    def adjustment_in_play(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.adjustment_in_play(table=table))

    def ball_change_offered(self, *, table: Table, person: Person) -> Violation | None:
        return self.cited(procedure.ball_change_offered(table=table, person=person))

    def ball_change_in_play(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.ball_change_in_play(table=table))

    def is_ball_change(self, *, kind: str, part: str, new_ball_named: bool) -> bool:
        return procedure.is_ball_change(kind=kind, part=part, new_ball_named=new_ball_named)

    def entry_outcome(
        self, *, table: Table, kind: str, state_before: str, passed: bool | None = None
    ) -> Violation | None:
        return self.cited(procedure.entry_outcome(table=table, kind=kind, state_before=state_before, passed=passed))

    def ball_replacement_named(self, *, table: Table, ball_replaced: bool, new_ball_named: bool) -> Violation | None:
        return self.cited(
            procedure.ball_replacement_named(table=table, ball_replaced=ball_replaced, new_ball_named=new_ball_named)
        )

    def adjustment_ball(self, *, table: Table, kind: str, part: str, new_ball_named: bool) -> Violation | None:
        return self.cited(procedure.adjustment_ball(table=table, kind=kind, part=part, new_ball_named=new_ball_named))

    def may_open(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.may_open(table=table))

    def may_close(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.may_close(table=table))

    def may_cover(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.may_cover(table=table))

    def may_unlock(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.may_unlock(table=table))

    def may_record_irregularity(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.may_record_irregularity(table=table))

    def may_change_decks(self, *, table: Table) -> Violation | None:
        return self.cited(procedure.may_change_decks(table=table))

    def time_in_order(
        self, *, table: Table, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
    ) -> Violation | None:
        return self.cited(
            procedure.time_in_order(table=table, at=at, now=now, skew=skew, max_backdate=max_backdate, field=field)
        )

    def entry_time_plausible(
        self, *, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
    ) -> Violation | None:
        return self.cited(
            procedure.entry_time_plausible(at=at, now=now, skew=skew, max_backdate=max_backdate, field=field)
        )

    # § 617a.2(e): amendments.
    def may_amend(self, *, entry: Entry, signer: Person, original_signer_ids: set[int]) -> Violation | None:
        return self.cited(amendments.may_amend(entry=entry, signer=signer, original_signer_ids=original_signer_ids))

    def check_correction(
        self,
        *,
        kind: str,
        allowed: frozenset[str],
        correction: dict[str, object],
        now: datetime,
        skew: timedelta,
        checklist: tuple[str, ...] = (),
        ball_known: bool = False,
        required: bool = True,
        recorded_at: datetime,
        max_backdate: timedelta,
    ) -> list[Violation]:
        return self.cited(
            amendments.check_correction(
                kind=kind,
                allowed=allowed,
                correction=correction,
                now=now,
                skew=skew,
                checklist=checklist,
                ball_known=ball_known,
                required=required,
                recorded_at=recorded_at,
                max_backdate=max_backdate,
            )
        )

    def check_amendment(
        self,
        *,
        amendment_kind: str,
        entry: Entry,
        correction: dict[str, object],
        duplicate_of: int | None,
        duplicate: Entry | None,
        voided_by: int | None,
    ) -> list[Violation | None]:
        return self.cited(
            amendments.check_amendment(
                amendment_kind=amendment_kind,
                entry=entry,
                correction=correction,
                duplicate_of=duplicate_of,
                duplicate=duplicate,
                voided_by=voided_by,
            )
        )

    # Signatures.
    def signature_invalid(
        self, *, field: str, username: str, in_logbook: bool, remaining: int | None = None, minutes: int | None = None
    ) -> Violation:
        return self.cited(
            signatures.signature_invalid(
                field=field, username=username, in_logbook=in_logbook, remaining=remaining, minutes=minutes
            )
        )

    def signature_locked_out(self, *, field: str, username: str, minutes: int, in_logbook: bool) -> Violation:
        return self.cited(
            signatures.signature_locked_out(field=field, username=username, minutes=minutes, in_logbook=in_logbook)
        )

    # § 601a.2 and the layouts.
    def check_rules_submission(
        self,
        *,
        game_rules: GameRules,
        game: str,
        wheel_types: list[str],
        payout_odds: dict[str, object],
        options: dict[str, object],
        configurations: object = None,
    ) -> list[Violation]:
        return self.cited(
            approvals.check_rules_submission(
                game_rules=game_rules,
                game=game,
                wheel_types=wheel_types,
                payout_odds=payout_odds,
                options=options,
                configurations=configurations,
            )
        )

    def may_edit_submission(self, *, submission: RulesSubmission) -> Violation | None:
        return self.cited(approvals.may_edit_submission(submission=submission))

    def may_file(self, *, submission: RulesSubmission, signer: Person) -> list[Violation | None]:
        return self.cited(approvals.may_file(submission=submission, signer=signer))

    def may_decide(self, submission: RulesSubmission, *, signer: Person) -> list[Violation | None]:
        return self.cited(approvals.may_decide(submission, signer=signer))

    def check_layout(
        self,
        *,
        features: list[str],
        tables: Iterable[Table],
        options: dict[str, object] | None,
        game: str = Game.ROULETTE,
        offered: Iterable[str] = (),
    ) -> list[Violation]:
        """§ 617a.1(f), § 619a.1(g), § 651a.2(b); `offered` (the wagers in effect) adds nothing here."""
        return approvals.check_layout(features=features, tables=tables, options=options, game=game)

    def may_decide_layout(self, layout: Layout, *, signer: Person) -> list[Violation | None]:
        return self.cited(approvals.may_decide_layout(layout, signer=signer))

    def configuration_ready(
        self, *, table: Table, layout: Layout | None, rules_submission: RulesSubmission | None
    ) -> list[Violation]:
        """The opening gate: what the Board approved, in effect today, allows the table as it is now."""
        return approvals.configuration_ready(table=table, layout=layout, rules_submission=rules_submission)

    # Chapter 651a: Casino War.
    def casino_war_decks_allowed(self, *, decks: int, automated_shuffler: bool) -> Violation | None:
        return self.cited(casino_war.casino_war_decks_allowed(decks=decks, automated_shuffler=automated_shuffler))

    def deck_change_allowed(
        self, *, table: Table, decks: int, rules_submission: RulesSubmission | None
    ) -> Violation | None:
        return self.cited(casino_war.deck_change_allowed(table=table, decks=decks, rules_submission=rules_submission))

    def deck_composition(
        self,
        *,
        table: Table,
        decks: int,
        cards_per_deck: int | None,
        cover_cards_per_deck: int | None,
        back_colours: list[str] | None,
        decks_allowed: bool = True,
    ) -> list[Violation | None]:
        return self.cited(
            casino_war.deck_composition(
                table=table,
                decks=decks,
                cards_per_deck=cards_per_deck,
                cover_cards_per_deck=cover_cards_per_deck,
                back_colours=back_colours,
                decks_allowed=decks_allowed,
            )
        )

    def cards_at_opening(self, *, table: Table, cards: str | None) -> Violation | None:
        return self.cited(casino_war.cards_at_opening(table=table, cards=cards))

    def irregularity_kind_for_game(
        self, *, table: Table, kind: str, roulette_kinds: tuple[tuple[str, str], ...], ball_replaced: bool
    ) -> Violation | None:
        return self.cited(
            casino_war.irregularity_kind_for_game(
                table=table, kind=kind, roulette_kinds=roulette_kinds, ball_replaced=ball_replaced
            )
        )

    def check_casino_war_submission(
        self, *, payout_odds: dict[str, object], options: dict[str, object]
    ) -> list[Violation]:
        return self.cited(casino_war.check_casino_war_submission(payout_odds=payout_odds, options=options))

    # The overdue scan's flags.
    def may_resolve_flag(self, flag: Flag, *, signer: Person, note: str) -> list[Violation | None]:
        return self.cited(flags.may_resolve_flag(flag, signer=signer, note=note))

    # § 617a.6: the kinds of "no spin" this jurisdiction lists.
    def check_irregularity_kind(self, *, kind: str) -> Violation | None:
        """A "no spin" of a kind the jurisdiction's text does not list is refused (docs/readings.md)."""
        if kind not in dict(self.IRREGULARITY_KINDS):
            return violation(
                "irregularity_kind_not_in_jurisdiction",
                field="irregularity",
                citation=self.IRREGULARITIES,
                kind=kind,
                jurisdiction=self.NAME,
                kinds=", ".join(code for code, _ in self.IRREGULARITY_KINDS),
            )
        return None

    def check_corrected_entry(
        self,
        *,
        table: Table,
        entry_kind: str,
        details: dict[str, object],
        correction: dict[str, object],
        rules_submission: RulesSubmission | None,
    ) -> list[Violation | None]:
        """A correction passes every rule its entry passed when it was made, at this table, for its
        jurisdiction, game and configuration (docs/readings.md): a "no spin" of a kind this text lists
        (§ 617a.6; N.J.A.C. 19:47-5.4; Section 4(d)) and of the table's game (§ 651a.11, proposed); a
        deck change of the decks the table may use (§ 651a.3(a), (c), proposed, with `rules_submission`,
        the one in effect on the entry's day). `details` are the entry's values as amended so far."""
        found: list[Violation | None] = []
        if entry_kind == "irregularity" and {"kind", "ball_replaced"} & set(correction):
            kind = str(correction.get("kind", details.get("irregularity")))
            ball_replaced = correction.get("ball_replaced", details.get("ball_replaced")) is True
            # As irregularity_record asks them: the text's list of kinds for Roulette, the game's kinds.
            found += [
                self.check_irregularity_kind(kind=kind) if table.game == Game.ROULETTE else None,
                self.irregularity_kind_for_game(
                    table=table, kind=kind, roulette_kinds=self.IRREGULARITY_KINDS, ball_replaced=ball_replaced
                ),
            ]
        decks_problem = None
        if entry_kind == "deck_change" and "decks" in correction and isinstance(correction["decks"], int):
            decks_problem = self.deck_change_allowed(
                table=table, decks=correction["decks"], rules_submission=rules_submission
            )
            found.append(decks_problem)
        # § 651a.3(a), (c)(2): the decks' cards and backs as amended, where the entry states them (a deck
        # change recorded before they were asked states none) or the correction gives one.
        composition = {"decks", *casino_war.DECK_COMPOSITION}
        stated = any(name in details or name in correction for name in casino_war.DECK_COMPOSITION)
        if entry_kind == "deck_change" and composition & set(correction) and stated:
            amended = {**details, **correction}
            decks = amended.get("decks")
            if isinstance(decks, int):
                found += self.deck_composition(
                    table=table,
                    decks=decks,
                    cards_per_deck=amended.get("cards_per_deck"),  # type: ignore[arg-type]
                    cover_cards_per_deck=amended.get("cover_cards_per_deck"),  # type: ignore[arg-type]
                    back_colours=amended.get("back_colours"),  # type: ignore[arg-type]
                    decks_allowed=decks_problem is None,
                )
        return [
            dataclasses.replace(v, field=f"correction.{CORRECTED_FIELD.get(v.field or '', v.field)}")
            if v is not None
            else None
            for v in found
        ]

    def __repr__(self) -> str:
        return f"<rulebook of {self.NAME}>"


# A rule's field, as the corrected field of an amendment names it (check_corrected_entry).
CORRECTED_FIELD = {"irregularity": "kind", "kind": "kind", "ball_replaced": "ball_replaced", "decks": "decks"} | {
    name: name for name in casino_war.DECK_COMPOSITION
}

# What a silent text does not set, by the borrowed paragraph's beginning (the first that matches).
SILENT_ON = (
    ("58 Pa. Code § 617a.1(f)", "sets no layout minimum"),
    ("58 Pa. Code § 617a.1(g)", "sets no layout minimum"),
    ("58 Pa. Code § 617a.1", "sets no equipment standard"),
    ("58 Pa. Code § 617a.2", "sets no procedure"),
    ("58 Pa. Code § 617a.6", "sets no such rule"),
    ("58 Pa. Code § 601a.2", "sets no Rules Submission procedure"),
    ("58 Pa. Code § 619a", "sets no such Big Six rule"),
    ("58 Pa. Code § 651a", "has no Casino War"),
    ("58 Pa. Code", "sets no such rule"),
)


class Borrowing(Pennsylvania):
    """A jurisdiction whose text sets no procedure of its own: Pennsylvania's rules, each answer
    citing the jurisdiction's own paragraph where it has one (`facts.own`), else Pennsylvania's
    marked "applied by policy" (`borrowed`); at a Casino War table where its text has no Casino War,
    the game's refusal instead of Chapter 651a's rules (`casino_war_refused`)."""

    def borrowed(self, citation: str) -> str:
        """`citation`, a Pennsylvania paragraph, as this jurisdiction's rulebook cites it."""
        silent = next(what for prefix, what in SILENT_ON if citation.startswith(prefix))
        return f"{citation} (applied by policy: {self.facts.text} {silent})"

    def cite(self, citation: str | None) -> str | None:
        """The citation of an answer of Pennsylvania's rules at this jurisdiction's table."""
        if citation is None or not citation.startswith("58 Pa. Code"):
            return citation  # product policy, or already this jurisdiction's own paragraph
        if citation in self.facts.own:
            return self.facts.own[citation]
        return self.borrowed(citation)

    def cited(self, answer: Answer) -> Answer:
        """A rule's answer (a violation, a list of them, a checklist item, a flag kind), its citations
        as this jurisdiction cites them (`cite`)."""
        if isinstance(answer, Violation):
            return dataclasses.replace(answer, citation=self.cite(answer.citation))
        if isinstance(answer, FlagKind):
            return dataclasses.replace(
                answer,
                citation=self.cite(answer.citation) or answer.citation,
                by_game=tuple((game, self._cite_for_game(game, citation)) for game, citation in answer.by_game),
            )
        if isinstance(answer, ChecklistItem):
            return dataclasses.replace(answer, citation=self.cite(answer.citation) or answer.citation)
        if isinstance(answer, list):
            return cast(Answer, [self.cited(a) for a in answer])
        if isinstance(answer, tuple) and all(isinstance(a, ChecklistItem) for a in answer):
            return cast(Answer, tuple(self.cited(a) for a in answer))
        return answer

    def _cite_for_game(self, game: str, citation: str) -> str:
        """A citation of one game's rule as this text cites it; a game the text does not have is
        refused by the product's policy, which is the citation (no paragraph of Chapter 651a is borrowed)."""
        if game == Game.CASINO_WAR and self.CASINO_WAR_PAYOUTS is None and self.NO_CASINO_WAR is not None:
            return self.NO_CASINO_WAR
        return self.cite(citation) or citation

    def flag_kind(self, kind: FlagKind) -> FlagKind:
        """A flag kind as this text cites it. An open table is flagged as not approved when what takes
        effect no longer allows it: the layout approval and Rules Submission (borrowed), or a wager now
        offered whose area this text asks the layout for (its own paragraphs, which the opening gate
        applies: configuration_ready). Its wheel and game do not change while it is open, so the
        notices those ask for are refused at its opening, not flagged."""
        translated = self.cited(kind)
        if kind.code != "not_approved":
            return translated
        own = dict.fromkeys(citation for areas in self.facts.layout_for_wager.values() for _, citation in areas)
        if not own:
            return translated
        # One text's paragraphs after its name, as the law lists them: "N.J.A.C. 19:47-5.1(f), 19:47-5.1(e)7".
        # They are Roulette wagers' areas: a Big Six or Casino War table's flag cites its own game's.
        name = next(iter(own)).split(" ")[0]
        listed = ", ".join(c.removeprefix(f"{name} ") for c in own)
        roulette = f"{translated.citation_for(Game.ROULETTE)}; {name} {listed}"
        return dataclasses.replace(
            translated,
            citation=f"{translated.citation}; {name} {listed}",
            by_game=tuple(
                (game, roulette if game == Game.ROULETTE else citation) for game, citation in translated.by_game
            ),
        )

    def casino_war_refused(self, table: Table) -> Violation | None:
        """At a Casino War table where this text has no Casino War: that the game is not kept here.
        Chapter 651a's rules are not borrowed for a game the text does not have."""
        if table.game != Game.CASINO_WAR or self.CASINO_WAR_PAYOUTS is not None:
            return None
        if self.NO_CASINO_WAR is None:  # a text without the game says why it is refused
            raise TypeError(f"{self.NAME} has no Casino War and no citation saying so")
        return violation("game_not_in_jurisdiction", field="table", citation=self.NO_CASINO_WAR, jurisdiction=self.NAME)

    # What a Casino War table may do, asked where the text has no Casino War: the game's refusal.
    def may_open(self, *, table: Table) -> Violation | None:
        return self.casino_war_refused(table) or super().may_open(table=table)

    def may_record_irregularity(self, *, table: Table) -> Violation | None:
        return self.casino_war_refused(table) or super().may_record_irregularity(table=table)

    def may_change_decks(self, *, table: Table) -> Violation | None:
        return self.casino_war_refused(table) or super().may_change_decks(table=table)

    # The decks and cards are not judged where the game is refused (the rules above say so once).
    def deck_change_allowed(
        self, *, table: Table, decks: int, rules_submission: RulesSubmission | None
    ) -> Violation | None:
        if self.casino_war_refused(table):
            return None
        return super().deck_change_allowed(table=table, decks=decks, rules_submission=rules_submission)

    def cards_at_opening(self, *, table: Table, cards: str | None) -> Violation | None:
        if self.casino_war_refused(table):
            return None
        return super().cards_at_opening(table=table, cards=cards)

    def deck_composition(
        self,
        *,
        table: Table,
        decks: int,
        cards_per_deck: int | None,
        cover_cards_per_deck: int | None,
        back_colours: list[str] | None,
        decks_allowed: bool = True,
    ) -> list[Violation | None]:
        if self.casino_war_refused(table):
            return []
        return super().deck_composition(
            table=table,
            decks=decks,
            cards_per_deck=cards_per_deck,
            cover_cards_per_deck=cover_cards_per_deck,
            back_colours=back_colours,
            decks_allowed=decks_allowed,
        )

    def check_layout(
        self,
        *,
        features: list[str],
        tables: Iterable[Table],
        options: dict[str, object] | None,
        game: str = Game.ROULETTE,
        offered: Iterable[str] = (),
    ) -> list[Violation]:
        """Pennsylvania's layout minimum (borrowed), with this text's own areas: the wheel replica,
        the seven numbers and colour wager areas, the double-zero option notice, the clapper sign."""
        tables = list(tables)
        found: list[Violation] = self.cited(
            approvals.check_layout(features=features, tables=tables, options=options, game=game)
        )
        return found + self.own_layout_areas(features=features, tables=tables, game=game, offered=offered)

    def own_layout_areas(
        self, *, features: list[str], tables: Iterable[Table], game: str, offered: Iterable[str]
    ) -> list[Violation]:
        """The areas and notices this text itself asks of a layout, each citing its own paragraph, for
        what is offered on `tables` (`offered`: the wagers in effect) and their wheels: asked when a
        layout is submitted (check_layout) and again before each opening (configuration_ready)."""
        needed: list[tuple[str, str]] = []
        if game == Game.ROULETTE:
            for wager in offered:
                needed.extend(self.facts.layout_for_wager.get(wager, ()))
            if any(table.wheel_type == WheelType.DOUBLE_ZERO for table in tables):
                needed.extend(self.facts.layout_for_double_zero)
        elif game == Game.BIG_SIX:
            needed.extend(self.facts.layout_for_big_six)
        return [
            violation("layout_feature_missing", field="features", citation=citation, feature=feature_label(feature))
            for feature, citation in dict(needed).items()
            if feature not in features
        ]

    def configuration_ready(
        self, *, table: Table, layout: Layout | None, rules_submission: RulesSubmission | None
    ) -> list[Violation]:
        """Pennsylvania's opening gate (borrowed), the table's approved layout held to this text's own
        areas too: a table whose wheel type or configuration changed since its layout was approved
        opens only if the layout still has them (N.J.A.C. 19:47-5.1(e), (f), 5.2(b); Section 4(a)(6)(ii),
        (b)(2)), and an open one is flagged when what is in effect asks for more."""
        return self.cited(
            approvals.configuration_ready(
                table=table, layout=layout, rules_submission=rules_submission, own_layout=self.own_layout_areas
            )
        )

    def property_procedure_allowed(self, *, procedure: str) -> Violation | None:
        """The text sets no procedure: the property keeps Pennsylvania's by policy, or none."""
        return None


class WithoutProcedure(Borrowing):
    """A New Jersey or Section 4 property that chose to keep no inspection procedure (its text sets
    none): the same rules, but opening needs no inspection, and no § 617a.2 deadline runs
    (inspections.logbook.deadlines). The log itself is still kept, signed and chained."""

    KEEPS_PROCEDURE = False

    def may_open(self, *, table: Table) -> Violation | None:
        return self.casino_war_refused(table) or self.cited(procedure.may_open_without_procedure(table=table))


class NewJersey(Borrowing):
    """N.J.A.C. 19:47-5: its wagers, odds, irregularities and layout areas; Pennsylvania's
    procedure, equipment standards and opening gate, applied by policy."""

    def __init__(self) -> None:
        super().__init__(new_jersey.FACTS)


class Section4(Borrowing):
    """The Section 4 rules: its wagers, odds, irregularities and layout areas; Pennsylvania's
    procedure, equipment standards and opening gate, applied by policy."""

    def __init__(self) -> None:
        super().__init__(section_4.FACTS)


class NewJerseyWithoutProcedure(WithoutProcedure):
    """N.J.A.C. 19:47-5 at a property that keeps no inspection procedure."""

    def __init__(self) -> None:
        super().__init__(new_jersey.FACTS)


class Section4WithoutProcedure(WithoutProcedure):
    """The Section 4 rules at a property that keeps no inspection procedure."""

    def __init__(self) -> None:
        super().__init__(section_4.FACTS)
