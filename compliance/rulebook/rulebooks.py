"""Each jurisdiction's rulebook, assembled: its facts (jurisdictions/) with the shared rules that
apply them, as one object of the type jurisdiction.Jurisdiction (what rulebook_for answers).

Only Pennsylvania's texts set a wheel inspection procedure; the New Jersey and Section 4 texts
bring their game rules (their facts modules meet jurisdiction.GameRules as they are).
"""

from __future__ import annotations

from compliance.rulebook import amendments, approvals, equipment, flags, procedure, records, signatures
from compliance.rulebook.facts import ChecklistItem, FlagKind
from compliance.rulebook.games import casino_war
from compliance.rulebook.jurisdictions import pennsylvania as facts


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
    CASINO_WAR_PAYOUTS = facts.CASINO_WAR_PAYOUTS
    exclusivity = staticmethod(facts.exclusivity)
    required_options = staticmethod(facts.required_options)

    # Facts: the procedure's.
    INSPECTION_LOG = facts.INSPECTION_LOG
    IRREGULARITIES = facts.IRREGULARITIES
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
    person_may_change = staticmethod(records.person_may_change)

    # § 617a.2: the procedure.
    checklist_for = staticmethod(procedure.checklist_for)
    check_inspection = staticmethod(procedure.check_inspection)
    inspection_passed = staticmethod(procedure.inspection_passed)
    check_adjustment = staticmethod(procedure.check_adjustment)
    signer_may_record = staticmethod(procedure.signer_may_record)
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
    check_layout = staticmethod(approvals.check_layout)
    may_decide_layout = staticmethod(approvals.may_decide_layout)
    configuration_ready = staticmethod(approvals.configuration_ready)

    # Chapter 651a: Casino War.
    casino_war_decks_allowed = staticmethod(casino_war.casino_war_decks_allowed)
    deck_change_allowed = staticmethod(casino_war.deck_change_allowed)
    cards_at_opening = staticmethod(casino_war.cards_at_opening)
    irregularity_kind_for_game = staticmethod(casino_war.irregularity_kind_for_game)
    check_casino_war_submission = staticmethod(casino_war.check_casino_war_submission)

    # The overdue scan's flags.
    may_resolve_flag = staticmethod(flags.may_resolve_flag)

    def __repr__(self) -> str:
        return f"<rulebook of {self.NAME}>"
