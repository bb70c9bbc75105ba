"""What a jurisdiction's rulebook provides, as types an editor and mypy follow.

`GameRules` is what the wagers of a Rules Submission are checked against (game_rules_for): each
jurisdiction's facts module meets it (jurisdictions/). `Jurisdiction` adds the § 617a.2 procedure
and the rules around it that the logbook, the approvals and the pages call (rulebook_for);
rulebooks.py assembles it from a jurisdiction's facts and the shared rules.
tests/rulebook/test_jurisdictions.py holds every jurisdiction to these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Protocol, runtime_checkable

from compliance.rulebook.facts import ChecklistItem, FlagKind
from compliance.rulebook.subjects import Entry, Equipment, Flag, Layout, Person, Property, RulesSubmission, Table, Wheel
from compliance.rulebook.violations import Violation
from compliance.rulebook.wagers import Choice, Option, Wager


@runtime_checkable
class GameRules(Protocol):
    """A jurisdiction's wagers, their minimum odds and the options of its Rules Submissions."""

    NAME: str
    WAGERS_CITATION: str
    PAYOUT_ODDS: str
    WAGERS: dict[str, Wager]
    OPTIONS: dict[str, Option]
    BIG_SIX_CITATION: str
    BIG_SIX_WAGERS: dict[str, Wager]
    BIG_SIX_CLAPPER: Choice
    # The words Big Six odds may be stated with, and the paragraph; None: the text says nothing.
    BIG_SIX_ODDS_WORDING: Choice | None
    # None: the jurisdiction's texts have no Casino War.
    CASINO_WAR_PAYOUTS: dict[str, tuple[tuple[int, int], str]] | None
    # Why the game is refused where the texts have no Casino War (a product policy); None where they have it.
    NO_CASINO_WAR: str | None
    # An option another text has, refused here by a paragraph of this text's own (else WAGERS_CITATION).
    OPTIONS_REFUSED: dict[str, str]

    def exclusivity(self, *, offered: set[str]) -> list[Violation]: ...

    def required_options(self, *, wheel_types: list[str], options: dict[str, object]) -> list[Violation]: ...


@runtime_checkable
class Jurisdiction(GameRules, Protocol):
    """A jurisdiction's whole rulebook: its game rules, and the procedure its logbook is kept by."""

    # The paragraphs cited, and the facts the callers show.
    INSPECTION_LOG: str
    IRREGULARITIES: str
    BALL_CHANGE: str
    LAYOUT_APPROVAL: str
    RULES_SUBMISSION: str
    CHECKLIST: tuple[ChecklistItem, ...]
    CHECKLIST_BY_CODE: dict[str, ChecklistItem]
    IRREGULARITY_KINDS: tuple[tuple[str, str], ...]
    AMENDMENT_KINDS: tuple[tuple[str, str], ...]
    VOIDING_AMENDMENTS: frozenset[str]
    TABLE_CONFIGURATION: tuple[str, ...]
    LAYOUT_FEATURES: frozenset[str]
    FLAG_KINDS: tuple[FlagKind, ...]
    FLAG_KINDS_BY_CODE: dict[str, FlagKind]
    CASINO_WAR_DECK_CHANGE_HOURS: int

    # § 617a.1: equipment and the table's configuration.
    def wheel_order_for(self, wheel_type: str) -> tuple[str, ...]: ...

    def check_wheel(
        self,
        *,
        wheel_type: str,
        diameter_inches: Decimal,
        number_order: list[str],
        colours: list[str] | None = None,
        game: str = ...,
        compartments: str = ...,
        compartment_colour: str = ...,
        compartment_approval: str = ...,
        parts: Mapping[str, bool | None] | None = ...,
    ) -> list[Violation]: ...

    def ring_colours(self, numbers: tuple[str, ...] | list[str]) -> list[str]: ...

    def check_ball(self, *, material: str, diameter_inches: Decimal) -> list[Violation]: ...

    def equipment_change(
        self, *, table: Table, wheel_changed: bool, ball_changed: bool, wheel: Wheel | None, ball: Equipment | None
    ) -> list[Violation]: ...

    def table_equipment(self, *, table: Table, wheel: Wheel | None, ball: Equipment | None) -> list[Violation]: ...

    def ball_free(
        self, *, ball: Equipment | None, in_use_on: list[str], table: Table | None = None
    ) -> Violation | None: ...

    def table_configuration(
        self, *, game: str, wheel_type: str | None, has_external_movable_parts: bool
    ) -> list[Violation | None]: ...

    def configuration_change(self, *, table: Table, changed: set[str]) -> Violation | None: ...

    # Records stay where they were signed.
    def table_may_move(self, *, table: Table, has_history: bool) -> Violation | None: ...

    def table_may_renumber(self, *, table: Table, has_entries: bool) -> Violation | None: ...

    def property_may_change_jurisdiction(self, *, prop: Property, has_records: bool) -> Violation | None: ...

    def property_may_change_licence(self, *, prop: Property, has_records: bool) -> Violation | None: ...

    def property_procedure_allowed(self, *, procedure: str) -> Violation | None: ...

    KEEPS_PROCEDURE: bool

    def person_may_change(self, *, person: Person, changed: set[str], has_signed: bool) -> list[Violation]: ...

    # § 617a.2: the procedure.
    def checklist_for(self, table: Table) -> tuple[ChecklistItem, ...]: ...

    def check_inspection(
        self, *, table: Table, inspector: Person, items: Mapping[str, object]
    ) -> list[Violation | None]: ...

    def inspection_passed(self, *, items: Mapping[str, object]) -> bool: ...

    def check_adjustment(
        self, *, table: Table, kind: str, performer: Person, witness: Person | None, ball_change: bool = False
    ) -> list[Violation | None]: ...

    def signer_may_record(self, *, event: str, signer: Person, table: Table) -> list[Violation | None]: ...

    def inspection_offered(self, *, table: Table, person: Person) -> Violation | None: ...

    def adjustment_offered(self, *, table: Table, person: Person) -> Violation | None: ...

    def adjustment_in_play(self, *, table: Table) -> Violation | None: ...

    def ball_change_offered(self, *, table: Table, person: Person) -> Violation | None: ...

    def ball_change_in_play(self, *, table: Table) -> Violation | None: ...

    def is_ball_change(self, *, kind: str, part: str, new_ball_named: bool) -> bool: ...

    def entry_outcome(
        self, *, table: Table, kind: str, state_before: str, passed: bool | None = None
    ) -> Violation | None: ...

    def ball_replacement_named(
        self, *, table: Table, ball_replaced: bool, new_ball_named: bool
    ) -> Violation | None: ...

    def adjustment_ball(self, *, table: Table, kind: str, part: str, new_ball_named: bool) -> Violation | None: ...

    def may_open(self, *, table: Table) -> Violation | None: ...

    def may_close(self, *, table: Table) -> Violation | None: ...

    def may_cover(self, *, table: Table) -> Violation | None: ...

    def may_unlock(self, *, table: Table) -> Violation | None: ...

    def may_record_irregularity(self, *, table: Table) -> Violation | None: ...

    def may_change_decks(self, *, table: Table) -> Violation | None: ...

    def time_in_order(
        self, *, table: Table, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
    ) -> Violation | None: ...

    def entry_time_plausible(
        self, *, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
    ) -> Violation | None: ...

    # § 617a.2(e): amendments.
    def may_amend(self, *, entry: Entry, signer: Person, original_signer_ids: set[int]) -> Violation | None: ...

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
    ) -> list[Violation]: ...

    def check_amendment(
        self,
        *,
        amendment_kind: str,
        entry: Entry,
        correction: dict[str, object],
        duplicate_of: int | None,
        duplicate: Entry | None,
        voided_by: int | None,
    ) -> list[Violation | None]: ...

    # Signatures.
    def signature_invalid(
        self, *, field: str, username: str, in_logbook: bool, remaining: int | None = None, minutes: int | None = None
    ) -> Violation: ...

    def signature_locked_out(self, *, field: str, username: str, minutes: int, in_logbook: bool) -> Violation: ...

    # § 601a.2 and the layouts: approvals.
    def check_rules_submission(
        self,
        *,
        game_rules: GameRules,
        game: str,
        wheel_types: list[str],
        payout_odds: dict[str, object],
        options: dict[str, object],
        configurations: object = ...,
    ) -> list[Violation]: ...

    def may_edit_submission(self, *, submission: RulesSubmission) -> Violation | None: ...

    def may_file(self, *, submission: RulesSubmission, signer: Person) -> list[Violation | None]: ...

    def may_decide(self, submission: RulesSubmission, *, signer: Person) -> list[Violation | None]: ...

    def check_layout(
        self,
        *,
        features: list[str],
        tables: Iterable[Table],
        options: dict[str, object] | None,
        game: str = ...,
        offered: Iterable[str] = ...,
    ) -> list[Violation]: ...

    def may_decide_layout(self, layout: Layout, *, signer: Person) -> list[Violation | None]: ...

    def configuration_ready(
        self, *, table: Table, layout: Layout | None, rules_submission: RulesSubmission | None
    ) -> list[Violation]: ...

    # Chapter 651a: Casino War.
    def casino_war_decks_allowed(self, *, decks: int, automated_shuffler: bool) -> Violation | None: ...

    def irregularity_kind_for_game(
        self, *, table: Table, kind: str, roulette_kinds: tuple[tuple[str, str], ...], ball_replaced: bool
    ) -> Violation | None: ...

    def cards_at_opening(self, *, table: Table, cards: str | None) -> Violation | None: ...

    def deck_change_allowed(
        self, *, table: Table, decks: int, rules_submission: RulesSubmission | None
    ) -> Violation | None: ...

    def deck_composition(
        self,
        *,
        table: Table,
        decks: int,
        cards_per_deck: int | None,
        cover_cards_per_deck: int | None,
        back_colours: list[str] | None,
        decks_allowed: bool = True,
    ) -> list[Violation | None]: ...

    def check_casino_war_submission(
        self, *, payout_odds: dict[str, object], options: dict[str, object]
    ) -> list[Violation]: ...

    # An amendment's correction, held to the rules its entry met when it was made.
    def check_corrected_entry(
        self,
        *,
        table: Table,
        entry_kind: str,
        details: dict[str, object],
        correction: dict[str, object],
        rules_submission: RulesSubmission | None,
    ) -> list[Violation | None]: ...

    # § 617a.6 (N.J.A.C. 19:47-5.4, Section 4(d)): the kinds of "no spin" listed.
    def check_irregularity_kind(self, *, kind: str) -> Violation | None: ...

    # A Pennsylvania paragraph as this jurisdiction cites it (itself, or "applied by policy").
    def borrowed(self, citation: str) -> str: ...

    # The overdue scan's flags.
    def may_resolve_flag(self, flag: Flag, *, signer: Person, note: str) -> list[Violation | None]: ...
