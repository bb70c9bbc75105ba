"""Each jurisdiction's rulebook, assembled: its facts (jurisdictions/) with the shared rules that
apply them, as one object of the type jurisdiction.Jurisdiction (what rulebook_for answers).

Only Pennsylvania's texts set a wheel inspection procedure, equipment standards and the opening
gate. New Jersey and Section 4 borrow them (`Borrowing`): the same rules, answering with each
jurisdiction's own paragraph where its text has one (`OWN`: its irregularities, the wheel replica)
and otherwise with Pennsylvania's, saying it is applied by policy (`borrowed`). Product policy
stays product policy everywhere. docs/readings.md lists the readings.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, ClassVar

from compliance.rulebook import amendments, approvals, equipment, flags, procedure, records, signatures
from compliance.rulebook.catalogue import violation
from compliance.rulebook.facts import ChecklistItem, FlagKind
from compliance.rulebook.games import casino_war
from compliance.rulebook.jurisdictions import new_jersey, section_4
from compliance.rulebook.jurisdictions import pennsylvania as facts
from compliance.rulebook.subjects import Layout, RulesSubmission, Table
from compliance.rulebook.violations import Violation
from compliance.rulebook.vocabulary import Game, WheelType
from compliance.rulebook.words import feature_label


class Pennsylvania:
    """58 Pa. Code: Chapters 617a, 617c, 619a, 651a and § 601a.2."""

    # Facts: the game rules (jurisdiction.GameRules).
    NAME = facts.NAME
    WAGERS_CITATION = facts.WAGERS_CITATION
    PAYOUT_ODDS = facts.PAYOUT_ODDS
    WAGERS = facts.WAGERS
    OPTIONS = facts.OPTIONS
    BIG_SIX_CITATION = facts.BIG_SIX_CITATION
    BIG_SIX_WAGERS = facts.BIG_SIX_WAGERS
    BIG_SIX_CLAPPER = facts.BIG_SIX_CLAPPER
    BIG_SIX_ORDER: tuple[str, ...] = facts.BIG_SIX_ORDER
    BIG_SIX_ODDS_WORDING = facts.BIG_SIX_ODDS_WORDING
    CASINO_WAR_PAYOUTS = facts.CASINO_WAR_PAYOUTS
    NO_CASINO_WAR = facts.NO_CASINO_WAR
    OPTIONS_REFUSED = facts.OPTIONS_REFUSED
    exclusivity = staticmethod(facts.exclusivity)
    required_options = staticmethod(facts.required_options)

    # Facts: the procedure's.
    INSPECTION_LOG = facts.INSPECTION_LOG
    IRREGULARITIES = facts.IRREGULARITIES
    # A ball change: what the product applies to it, on every Roulette table (product policy).
    BALL_CHANGE = facts.BALL_CHANGE_POLICY
    LAYOUT_APPROVAL = facts.LAYOUT_APPROVAL
    RULES_SUBMISSION = facts.RULES_SUBMISSION
    CHECKLIST: tuple[ChecklistItem, ...] = facts.CHECKLIST
    CHECKLIST_BY_CODE = facts.CHECKLIST_BY_CODE
    IRREGULARITY_KINDS: tuple[tuple[str, str], ...] = facts.IRREGULARITY_KINDS
    SINGLE_ZERO_ORDER: tuple[str, ...] = facts.SINGLE_ZERO_ORDER
    DOUBLE_ZERO_ORDER: tuple[str, ...] = facts.DOUBLE_ZERO_ORDER
    RED_NUMBERS = facts.RED_NUMBERS
    LAYOUT_FEATURES = facts.LAYOUT_FEATURES
    CASINO_WAR_DECK_CHANGE_HOURS = facts.CASINO_WAR_DECK_CHANGE_HOURS
    AMENDMENT_KINDS: tuple[tuple[str, str], ...] = amendments.AMENDMENT_KINDS
    VOIDING_AMENDMENTS = amendments.VOIDING_AMENDMENTS
    TABLE_CONFIGURATION: tuple[str, ...] = equipment.TABLE_CONFIGURATION
    FLAG_KINDS: tuple[FlagKind, ...] = flags.FLAG_KINDS
    FLAG_KINDS_BY_CODE = flags.FLAG_KINDS_BY_CODE

    # § 617a.1: equipment and the table's configuration.
    wheel_order_for = staticmethod(equipment.wheel_order_for)
    check_wheel = staticmethod(equipment.check_wheel)
    ring_colours = staticmethod(equipment.ring_colours)
    check_ball = staticmethod(equipment.check_ball)
    equipment_change = staticmethod(equipment.equipment_change)
    table_equipment = staticmethod(equipment.table_equipment)
    ball_free = staticmethod(equipment.ball_free)
    table_configuration = staticmethod(equipment.table_configuration)
    configuration_change = staticmethod(equipment.configuration_change)

    # Records stay where they were signed (product policy from § 617a.2(e)).
    table_may_move = staticmethod(records.table_may_move)
    table_may_renumber = staticmethod(records.table_may_renumber)
    property_may_change_jurisdiction = staticmethod(records.property_may_change_jurisdiction)
    property_may_change_licence = staticmethod(records.property_may_change_licence)
    person_may_change = staticmethod(records.person_may_change)
    # Whether the property may keep no procedure: not in Pennsylvania, whose law it is.
    property_procedure_allowed = staticmethod(procedure.property_procedure_allowed)
    # Whether this rulebook applies § 617a.2 (a property that keeps no procedure has one that does not).
    KEEPS_PROCEDURE: bool = True

    # § 617a.2: the procedure.
    checklist_for = staticmethod(procedure.checklist_for)
    check_inspection = staticmethod(procedure.check_inspection)
    inspection_passed = staticmethod(procedure.inspection_passed)
    check_adjustment = staticmethod(procedure.check_adjustment)
    signer_may_record = staticmethod(procedure.signer_may_record)
    inspection_offered = staticmethod(procedure.inspection_offered)
    adjustment_offered = staticmethod(procedure.adjustment_offered)
    adjustment_in_play = staticmethod(procedure.adjustment_in_play)
    ball_change_offered = staticmethod(procedure.ball_change_offered)
    ball_change_in_play = staticmethod(procedure.ball_change_in_play)
    is_ball_change = staticmethod(procedure.is_ball_change)
    entry_outcome = staticmethod(procedure.entry_outcome)
    ball_replacement_named = staticmethod(procedure.ball_replacement_named)
    adjustment_ball = staticmethod(procedure.adjustment_ball)
    may_open = staticmethod(procedure.may_open)
    may_close = staticmethod(procedure.may_close)
    may_cover = staticmethod(procedure.may_cover)
    may_unlock = staticmethod(procedure.may_unlock)
    may_record_irregularity = staticmethod(procedure.may_record_irregularity)
    may_change_decks = staticmethod(procedure.may_change_decks)
    time_in_order = staticmethod(procedure.time_in_order)
    entry_time_plausible = staticmethod(procedure.entry_time_plausible)

    # § 617a.2(e): amendments.
    may_amend = staticmethod(amendments.may_amend)
    check_correction = staticmethod(amendments.check_correction)
    check_amendment = staticmethod(amendments.check_amendment)

    # Signatures.
    signature_invalid = staticmethod(signatures.signature_invalid)
    signature_locked_out = staticmethod(signatures.signature_locked_out)

    # § 601a.2 and the layouts.
    check_rules_submission = staticmethod(approvals.check_rules_submission)
    may_edit_submission = staticmethod(approvals.may_edit_submission)
    may_file = staticmethod(approvals.may_file)
    may_decide = staticmethod(approvals.may_decide)

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

    may_decide_layout = staticmethod(approvals.may_decide_layout)

    def configuration_ready(
        self, *, table: Table, layout: Layout | None, rules_submission: RulesSubmission | None
    ) -> list[Violation]:
        """The opening gate: what the Board approved, in effect today, allows the table as it is now."""
        return approvals.configuration_ready(table=table, layout=layout, rules_submission=rules_submission)

    # Chapter 651a: Casino War.
    casino_war_decks_allowed = staticmethod(casino_war.casino_war_decks_allowed)
    deck_change_allowed = staticmethod(casino_war.deck_change_allowed)
    deck_composition = staticmethod(casino_war.deck_composition)
    cards_at_opening = staticmethod(casino_war.cards_at_opening)
    irregularity_kind_for_game = staticmethod(casino_war.irregularity_kind_for_game)
    check_casino_war_submission = staticmethod(casino_war.check_casino_war_submission)

    # The overdue scan's flags.
    may_resolve_flag = staticmethod(flags.may_resolve_flag)

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

    def borrowed(self, citation: str) -> str:
        """Pennsylvania's own paragraphs are its law: cited as they are."""
        return citation

    def __repr__(self) -> str:
        return f"<rulebook of {self.NAME}>"


# A rule's field, as the corrected field of an amendment names it (check_corrected_entry).
CORRECTED_FIELD = {"irregularity": "kind", "kind": "kind", "ball_replaced": "ball_replaced", "decks": "decks"} | {
    name: name for name in casino_war.DECK_COMPOSITION
}

# The rules a borrowing rulebook takes from Pennsylvania's, their answers' citations translated.
RULES = (
    "wheel_order_for",
    "check_wheel",
    "check_ball",
    "equipment_change",
    "table_equipment",
    "ball_free",
    "table_configuration",
    "configuration_change",
    "table_may_move",
    "table_may_renumber",
    "property_may_change_jurisdiction",
    "property_may_change_licence",
    "person_may_change",
    "checklist_for",
    "check_inspection",
    "check_adjustment",
    "signer_may_record",
    "inspection_offered",
    "adjustment_offered",
    "adjustment_in_play",
    "ball_change_offered",
    "ball_change_in_play",
    "entry_outcome",
    "ball_replacement_named",
    "adjustment_ball",
    "may_open",
    "may_close",
    "may_cover",
    "may_unlock",
    "may_record_irregularity",
    "may_change_decks",
    "time_in_order",
    "entry_time_plausible",
    "may_amend",
    "check_correction",
    "check_amendment",
    "signature_invalid",
    "signature_locked_out",
    "check_rules_submission",
    "may_edit_submission",
    "may_file",
    "may_decide",
    "may_decide_layout",
    "casino_war_decks_allowed",
    "deck_change_allowed",
    "deck_composition",
    "cards_at_opening",
    "irregularity_kind_for_game",
    "check_casino_war_submission",
    "may_resolve_flag",
)

# What a Casino War table may do, asked where the text has no Casino War: the game's refusal instead
# (Borrowing._casino_war_gated). Each answers one Violation or None.
CASINO_WAR_GATES = ("may_open", "may_record_irregularity", "may_change_decks")

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
    citing the jurisdiction's own paragraph where it has one (`OWN`), else Pennsylvania's marked
    "applied by policy" (`borrowed`). Subclasses give their text (`TEXT`), `OWN` and their facts."""

    # What a borrowing jurisdiction's facts module gives, under the names Pennsylvania's rulebook uses
    # (attribute names, copied by __init_subclass__): its data, then its own rules of wagers and options.
    FACTS: ClassVar[tuple[str, ...]] = (
        "NAME",
        "WAGERS_CITATION",
        "PAYOUT_ODDS",
        "WAGERS",
        "OPTIONS",
        "BIG_SIX_CITATION",
        "BIG_SIX_WAGERS",
        "BIG_SIX_CLAPPER",
        "BIG_SIX_ODDS_WORDING",
        "CASINO_WAR_PAYOUTS",
        "NO_CASINO_WAR",
        "OPTIONS_REFUSED",
        "IRREGULARITIES",
        "IRREGULARITY_KINDS",
        "OWN",
        "LAYOUT_FOR_WAGER",
        "LAYOUT_FOR_DOUBLE_ZERO",
        "LAYOUT_FOR_BIG_SIX",
    )
    FACT_RULES: ClassVar[tuple[str, ...]] = ("exclusivity", "required_options")

    TEXT: ClassVar[str]
    OWN: ClassVar[dict[str, str]]
    # The layout areas its own text asks for: (feature, citation) when a wager is offered, when a
    # double-zero wheel is used, and for a Big Six table.
    LAYOUT_FOR_WAGER: ClassVar[dict[str, tuple[tuple[str, str], ...]]]
    LAYOUT_FOR_DOUBLE_ZERO: ClassVar[tuple[tuple[str, str], ...]]
    LAYOUT_FOR_BIG_SIX: ClassVar[tuple[tuple[str, str], ...]]

    def __init_subclass__(cls, *, module: ModuleType | None = None, text: str = "", **kwargs: Any) -> None:
        """A borrowing jurisdiction: its text's name, and its facts module's FACTS and FACT_RULES under
        the names Pennsylvania's rulebook gives them (a module missing one fails at import). A
        variant of one (WithoutProcedure) names neither and inherits them."""
        super().__init_subclass__(**kwargs)
        if module is None:
            return
        cls.TEXT = text
        for name in cls.FACTS:
            setattr(cls, name, getattr(module, name))
        for name in cls.FACT_RULES:
            setattr(cls, name, staticmethod(getattr(module, name)))

    def borrowed(self, citation: str) -> str:
        """`citation`, a Pennsylvania paragraph, as this jurisdiction's rulebook cites it."""
        silent = next(what for prefix, what in SILENT_ON if citation.startswith(prefix))
        return f"{citation} (applied by policy: {self.TEXT} {silent})"

    def cite(self, citation: str | None) -> str | None:
        """The citation of an answer of Pennsylvania's rules at this jurisdiction's table."""
        if citation is None or not citation.startswith("58 Pa. Code"):
            return citation  # product policy, or already this jurisdiction's own paragraph
        if citation in self.OWN:
            return self.OWN[citation]
        return self.borrowed(citation)

    def translate(self, answer: Any) -> Any:
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
            return [self.translate(a) for a in answer]
        if isinstance(answer, tuple) and all(isinstance(a, ChecklistItem) for a in answer):
            return tuple(self.translate(a) for a in answer)
        return answer

    def __init__(self) -> None:
        for name in RULES:
            setattr(self, name, self._translating(getattr(Pennsylvania, name)))
        for name in CASINO_WAR_GATES:
            setattr(self, name, self._casino_war_gated(getattr(self, name)))
        # The decks and cards are not judged where the game is refused (the gates above say so once).
        for name in ("deck_change_allowed", "cards_at_opening"):
            setattr(self, name, self._casino_war_gated(getattr(self, name), refuse=False))
        self.deck_composition = self._casino_war_gated(self.deck_composition, refuse=False, nothing=[])
        self.INSPECTION_LOG = self.borrowed(facts.INSPECTION_LOG)
        self.LAYOUT_APPROVAL = self.borrowed(facts.LAYOUT_APPROVAL)
        self.RULES_SUBMISSION = self.borrowed(facts.RULES_SUBMISSION)
        self.CHECKLIST = tuple(self.translate(item) for item in facts.CHECKLIST)
        self.CHECKLIST_BY_CODE = {item.code: item for item in self.CHECKLIST}
        self.FLAG_KINDS = tuple(self._flag_kind(kind) for kind in flags.FLAG_KINDS)
        self.FLAG_KINDS_BY_CODE = {kind.code: kind for kind in self.FLAG_KINDS}

    def _cite_for_game(self, game: str, citation: str) -> str:
        """A citation of one game's rule as this text cites it; a game the text does not have is
        refused by the product's policy, which is the citation (no paragraph of Chapter 651a is borrowed)."""
        if game == Game.CASINO_WAR and self.CASINO_WAR_PAYOUTS is None:
            assert self.NO_CASINO_WAR is not None
            return self.NO_CASINO_WAR
        return self.cite(citation) or citation

    def _flag_kind(self, kind: FlagKind) -> FlagKind:
        """A flag kind as this text cites it. An open table is flagged as not approved when what takes
        effect no longer allows it: the layout approval and Rules Submission (borrowed), or a wager now
        offered whose area this text asks the layout for (its own paragraphs, which the opening gate
        applies: configuration_ready). Its wheel and game do not change while it is open, so the
        notices those ask for are refused at its opening, not flagged."""
        translated = self.translate(kind)
        if kind.code != "not_approved":
            return translated
        own = dict.fromkeys(citation for areas in self.LAYOUT_FOR_WAGER.values() for _, citation in areas)
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

    def _translating(self, rule: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(rule)
        def translated(*args: Any, **kwargs: Any) -> Any:
            return self.translate(rule(*args, **kwargs))

        return translated

    def _casino_war_gated(
        self, rule: Callable[..., Any], *, refuse: bool = True, nothing: Any = None
    ) -> Callable[..., Any]:
        """`rule`, except at a Casino War table where this text has no Casino War: there it answers that
        the game is not kept here (`refuse`), or `nothing`; Chapter 651a's rules are not borrowed for a
        game the text does not have."""

        @functools.wraps(rule)
        def gated(*, table: Table, **kwargs: Any) -> Any:
            if table.game == Game.CASINO_WAR and self.CASINO_WAR_PAYOUTS is None:
                if self.NO_CASINO_WAR is None:  # a text without the game says why it is refused
                    raise TypeError(f"{self.NAME} has no Casino War and no citation saying so")
                if not refuse:
                    return nothing
                return violation(
                    "game_not_in_jurisdiction", field="table", citation=self.NO_CASINO_WAR, jurisdiction=self.NAME
                )
            return rule(table=table, **kwargs)

        return gated

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
        found: list[Violation] = self.translate(
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
                needed.extend(self.LAYOUT_FOR_WAGER.get(wager, ()))
            if any(table.wheel_type == WheelType.DOUBLE_ZERO for table in tables):
                needed.extend(self.LAYOUT_FOR_DOUBLE_ZERO)
        elif game == Game.BIG_SIX:
            needed.extend(self.LAYOUT_FOR_BIG_SIX)
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
        return self.translate(
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

    def __init__(self) -> None:
        super().__init__()
        self.may_open = self._casino_war_gated(self._translating(procedure.may_open_without_procedure))


class NewJersey(Borrowing, module=new_jersey, text="N.J.A.C. 19:47-5"):
    """N.J.A.C. 19:47-5: its wagers, odds, irregularities and layout areas; Pennsylvania's
    procedure, equipment standards and opening gate, applied by policy."""


class Section4(Borrowing, module=section_4, text="Section 4"):
    """The Section 4 rules: its wagers, odds, irregularities and layout areas; Pennsylvania's
    procedure, equipment standards and opening gate, applied by policy."""


class NewJerseyWithoutProcedure(WithoutProcedure, NewJersey):
    """N.J.A.C. 19:47-5 at a property that keeps no inspection procedure."""


class Section4WithoutProcedure(WithoutProcedure, Section4):
    """The Section 4 rules at a property that keeps no inspection procedure."""
