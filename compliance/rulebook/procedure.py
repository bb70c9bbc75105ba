"""58 Pa. Code § 617a.2: the inspection and security procedures, and the table's events.

Every rule is a small function answering a Violation (from the catalogue, with its citation) or
None. The logbook (inspections.logbook.services) calls them under the table's row lock and writes
nothing when any of them answers. The facts they apply (the checklist, the roles, the citations)
are Pennsylvania's (jurisdictions/pennsylvania.py); the state each event leads to is table_states.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from compliance.rulebook.amendments import AMENDED_VOID_REASONS
from compliance.rulebook.catalogue import violation
from compliance.rulebook.facts import ChecklistItem
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.subjects import Person, Table
from compliance.rulebook.violations import Violation, gettext_noop
from compliance.rulebook.vocabulary import Game, Procedure, Role, TableState, WheelType
from compliance.rulebook.words import moment_words


def role_phrase(person: Person) -> str:
    """ "a floorperson", "an administrator": the person's role with its article."""
    # The rulebook's own word (not the model's display, which is in the language in use): the
    # message is translated whole when it is said (violations.said).
    label = Role.label_of(person.role).lower()
    return f"{'an' if label[0] in 'aeiou' else 'a'} {label}"


def role_names(roles: Iterable[str]) -> str:
    return " or ".join(sorted(Role.label_of(role).lower() for role in roles))


# The roles as the rules' sentences name them (role_phrase, and role_names of the roles each rule
# allows), marked for the translators: each is said whole in the language in use. A rule that allows
# a new set of roles adds its words here (tests/test_i18n.py fails until it does).
ROLE_WORDS = (
    gettext_noop("a security officer"),
    gettext_noop("a floorperson"),
    gettext_noop("a table game maintenance member"),
    gettext_noop("a compliance manager"),
    gettext_noop("a regulator (board agent)"),
    gettext_noop("an administrator"),
    gettext_noop("administrator"),
    gettext_noop("compliance manager"),
    gettext_noop("regulator (board agent)"),
    gettext_noop("security officer"),
    gettext_noop("floorperson or security officer"),
    gettext_noop("floorperson or table game maintenance member"),
    gettext_noop("compliance manager or floorperson or security officer or table game maintenance member"),
    gettext_noop("compliance manager or regulator (board agent)"),
    gettext_noop("administrator or compliance manager"),
)


def checklist_for(table: Table) -> tuple[ChecklistItem, ...]:
    """§ 617a.2(a): items (1)–(4) always; item (5) only for a double-zero wheel used as single-zero."""
    if table.wheel_type == WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO:
        return pa.CHECKLIST
    return pa.CHECKLIST[:4]


def signer_belongs_to_property(*, signer: Person, table: Table, field: str, citation: str) -> Violation | None:
    """The rules speak of the certificate holder's own floorpersons and departments."""
    if signer.property_id != table.property_id:
        return violation(
            "signer_not_at_property",
            field=field,
            citation=citation,
            signer=signer.display_name,
            property=table.property.name,
        )
    return None


def table_is_roulette(*, table: Table, citation: str) -> Violation | None:
    if table.game != Game.ROULETTE:
        return violation(
            "not_a_roulette_table", field="table", citation=citation, table=table.number, game=table.get_game_display()
        )
    return None


def wheel_not_locked(*, table: Table, action: str) -> Violation | None:
    """§ 617a.2(f): while the wheel is covered and locked nobody inspects or adjusts it."""
    if table.state == TableState.LOCKED:
        return violation("wheel_covered_and_locked", field="table", table=table.number, action=action)
    return None


# ---- § 617a.2(a): the inspection ----


def inspector_may_inspect(*, inspector: Person, table: Table) -> Violation | None:
    """§ 617a.2(a): only a floorperson or a member of the security department inspects."""
    if inspector.role not in pa.INSPECTOR_ROLES:
        return violation(
            "inspector_role",
            field="signature",
            roles=role_names(pa.INSPECTOR_ROLES),
            inspector=inspector.display_name,
            role=role_phrase(inspector),
        )
    return signer_belongs_to_property(signer=inspector, table=table, field="signature", citation=pa.INSPECTION)


def checklist_complete(*, table: Table, items: Mapping[str, object]) -> list[Violation]:
    """§ 617a.2(a)(1)–(5): every applicable item answered, and no item that does not apply."""
    expected = {item.code for item in checklist_for(table)}
    violations = []
    for item in checklist_for(table):
        if item.code not in items:
            violations.append(
                violation(
                    "checklist_item_missing", field=f"items.{item.code}", citation=item.citation, label=item.label
                )
            )
    for code in items:
        if code in expected:
            continue
        if code in pa.CHECKLIST_BY_CODE:
            violations.append(
                violation(
                    "checklist_item_not_applicable",
                    field=f"items.{code}",
                    item=code,
                    table=table.number,
                    wheel=(table.get_wheel_type_display() or gettext_noop("no")).lower(),
                )
            )
        else:
            violations.append(violation("checklist_item_unknown", field=f"items.{code}", item=code))
    return violations


def check_inspection(*, table: Table, inspector: Person, items: Mapping[str, object]) -> list[Violation | None]:
    return [
        table_is_roulette(table=table, citation=pa.INSPECTION),
        inspector_may_inspect(inspector=inspector, table=table),
        wheel_not_locked(table=table, action=gettext_noop("inspection")),
        *checklist_complete(table=table, items=items),
    ]


def inspection_passed(*, items: Mapping[str, object]) -> bool:
    """An inspection with any failed item never lets the table open (§ 617a.2(a))."""
    return all(items.values())


# ---- § 617a.2(b)–(d): adjustments and replacements ----


def check_adjustment(
    *, table: Table, kind: str, performer: Person, witness: Person | None, ball_change: bool = False
) -> list[Violation | None]:
    """§ 617a.2(b): by a floorperson or maintenance member, in the presence of another person from security
    (no witness named: none was present).

    A ball change (`ball_change`: a replacement of the ball) is held to the same people and witness
    on every Roulette table, whatever its wheel: the ball is not a part of the wheel, so § 617a.2(b)
    and (d) are applied to it by policy (BALL_CHANGE_POLICY), and their refusals cite that."""
    citation = pa.BALL_CHANGE_POLICY if ball_change else pa.ADJUSTMENT if kind == "adjustment" else pa.REPLACEMENT
    violations = [
        table_is_roulette(table=table, citation=citation),
        wheel_not_locked(table=table, action=gettext_noop("ball change") if ball_change else kind),
    ]
    if not table.has_external_movable_parts and not ball_change:
        violations.append(violation("no_external_movable_parts", field="table", table=table.number))
    signers = performer_and_witness(table=table, performer=performer, witness=witness)
    if ball_change:
        signers = [_as_ball_change(found) for found in signers]
    return [*violations, *signers]


def performer_and_witness(*, table: Table, performer: Person, witness: Person | None) -> list[Violation | None]:
    """§ 617a.2(b): the performer a floorperson or maintenance member of the property, the witness
    another person, from its security department."""
    violations: list[Violation | None] = []
    if performer.role not in pa.ADJUSTER_ROLES:
        violations.append(
            violation(
                "performer_role",
                field="performer",
                roles=role_names(pa.ADJUSTER_ROLES),
                performer=performer.display_name,
                role=role_phrase(performer),
            )
        )
    violations.append(
        signer_belongs_to_property(signer=performer, table=table, field="performer", citation=pa.ADJUSTMENT)
    )
    if witness is None:
        violations.append(violation("witness_required", field="witness"))
        return violations
    if witness.pk == performer.pk:
        violations.append(violation("witness_is_performer", field="witness"))
    elif witness.role not in pa.WITNESS_ROLES:
        violations.append(
            violation("witness_not_security", field="witness", witness=witness.display_name, role=role_phrase(witness))
        )
    violations.append(signer_belongs_to_property(signer=witness, table=table, field="witness", citation=pa.ADJUSTMENT))
    return violations


def _as_ball_change(found: Violation | None) -> Violation | None:
    """A refusal of § 617a.2(b)'s people, for a ball change: the rule applied by policy, cited so."""
    if found is not None and found.citation == pa.ADJUSTMENT:
        return dataclasses.replace(found, citation=pa.BALL_CHANGE_POLICY)
    return found


def is_ball_change(*, kind: str, part: str, new_ball_named: bool) -> bool:
    """A replacement of the ball: its part is the ball, or it names the ball put on."""
    return kind == "replacement" and (new_ball_named or replaces_the_ball(kind=kind, part=part))


def ball_change_offered(*, table: Table, person: Person) -> Violation | None:
    """Asked before anyone signs: whether this person may record a ball change at this table now, as
    its performer or its security witness. Every Roulette table, whatever its wheel (BALL_CHANGE_POLICY)."""
    found = [
        table_is_roulette(table=table, citation=pa.BALL_CHANGE_POLICY),
        wheel_not_locked(table=table, action=gettext_noop("ball change")),
    ]
    if person.role not in pa.ADJUSTER_ROLES | pa.WITNESS_ROLES:
        found.append(
            violation(
                "ball_change_signer_role",
                field="performer",
                adjusters=role_names(pa.ADJUSTER_ROLES),
                witnesses=role_names(pa.WITNESS_ROLES),
                person=person.display_name,
                role=role_phrase(person),
            )
        )
    return next((v for v in found if v is not None), None)


def ball_change_in_play(*, table: Table) -> Violation | None:
    """What a ball change at an open table does, said before it is signed (BALL_CHANGE_POLICY)."""
    if table.state == TableState.OPEN:
        return violation("ball_change_while_open", field="table", table=table.number)
    return None


def adjustment_offered(*, table: Table, person: Person) -> Violation | None:
    """§ 617a.2(b)–(d), asked before anyone signs: whether this person may record an adjustment or
    replacement at this table now, as its performer or as its security witness (the form asks for both)."""
    found = [
        table_is_roulette(table=table, citation=pa.ADJUSTMENT),
        wheel_not_locked(table=table, action=gettext_noop("adjustment")),
    ]
    if not table.has_external_movable_parts:
        found.append(violation("no_external_movable_parts", field="table", table=table.number))
    if person.role not in pa.ADJUSTER_ROLES | pa.WITNESS_ROLES:
        found.append(
            violation(
                "adjustment_signer_role",
                field="performer",
                adjusters=role_names(pa.ADJUSTER_ROLES),
                witnesses=role_names(pa.WITNESS_ROLES),
                person=person.display_name,
                role=role_phrase(person),
            )
        )
    return next((v for v in found if v is not None), None)


def adjustment_in_play(*, table: Table) -> Violation | None:
    """§ 617a.2(c), (d): what an adjustment or replacement at an open table does, said before it is
    signed (a replacement may happen at any time; the inspection must then be done again)."""
    if table.state == TableState.OPEN:
        return violation("adjustment_while_open", field="table", table=table.number)
    return None


def inspection_offered(*, table: Table, person: Person) -> Violation | None:
    """§ 617a.2(a), asked before anyone signs: whether this person may inspect this table now."""
    found = [
        table_is_roulette(table=table, citation=pa.INSPECTION),
        inspector_may_inspect(inspector=person, table=table),
        wheel_not_locked(table=table, action=gettext_noop("inspection")),
    ]
    return next((v for v in found if v is not None), None)


# What an adjustment or a replacement at an open table answers (entry_outcome).
VOID_IN_PLAY = {
    "adjustment": "inspection_void_in_play/adjustment",
    "replacement": "inspection_void_in_play/replacement",
    "ball_change": "inspection_void_in_play/ball_change",
}


def entry_outcome(*, table: Table, kind: str, state_before: str, passed: bool | None = None) -> Violation | None:
    """What an entry just recorded leaves the table needing, in the rule's words, or None: a failed
    inspection keeps it from opening (§ 617a.2(a)); an adjustment or replacement voids the inspection of
    an inspected table (§ 617a.2(c), (d)) and, at an open table, play stops until it is inspected again;
    a ball change (`kind` "ball_change", a replacement of the ball) likewise, by policy."""
    if kind == "inspection" and passed is False:
        if table.state == TableState.OPEN:
            return violation("inspection_failed/in_play", field="table", table=table.number)
        return violation("inspection_failed", field="table", table=table.number)
    if kind in VOID_IN_PLAY:
        if table.state == TableState.OPEN:
            return violation(VOID_IN_PLAY[kind], field="table", table=table.number)
        if state_before == TableState.INSPECTED:
            return violation(VOID_REASONS[kind], field="table", table=table.number)
    return None


def ball_replacement_named(*, table: Table, ball_replaced: bool, new_ball_named: bool) -> Violation | None:
    """§ 617a.6(b), (c): a damaged ball is replaced by a new one; product policy: the entry names it, from
    the property's registered balls, and it becomes the table's ball."""
    if table.game == Game.ROULETTE and ball_replaced and not new_ball_named:
        return violation("new_ball_required", field="new_ball")
    return None


def replaces_the_ball(*, kind: str, part: str) -> bool:
    """A replacement whose part is the ball ("ball", "the ball", "Roulette ball"; not "ball track")."""
    words = part.lower().replace(".", " ").split()
    return kind == "replacement" and bool(words) and words[-1] in ("ball", "balls")


def adjustment_ball(*, table: Table, kind: str, part: str, new_ball_named: bool) -> Violation | None:
    """§ 617a.2(b)–(d) with § 617a.6(b), (c): a replacement of the ball names the new one, a registered
    ball that becomes the table's (product policy, as for a no spin); a ball is named only with a
    replacement."""
    if new_ball_named and kind != "replacement":
        return violation("new_ball_without_replacement", field="new_ball")
    return ball_replacement_named(
        table=table,
        ball_replaced=new_ball_named or replaces_the_ball(kind=kind, part=part),
        new_ball_named=new_ball_named,
    )


# ---- The table's events: who records them, and when they may happen ----


def signer_may_record(*, event: str, signer: Person, table: Table) -> list[Violation | None]:
    roles, citation = pa.EVENT_ROLES[event]
    found = None
    if signer.role not in roles:
        found = violation(
            "signer_role",
            field="signature",
            citation=citation,
            roles=role_names(roles),
            signer=signer.display_name,
            role=role_phrase(signer),
        )
    return [found, signer_belongs_to_property(signer=signer, table=table, field="signature", citation=citation)]


# The table's `inspection_void_reason` and what opening then answers (§ 617a.2(a), (c), (d); product policy).
VOID_REASONS = {
    "configuration": "configuration_changed",
    "adjustment": "adjustment_after_inspection",
    "replacement": "replacement_without_inspection",
    "ball_change": "ball_changed_without_inspection",
}


def may_open(*, table: Table) -> Violation | None:
    """§ 617a.2(a), (c), (d): a passing inspection after the last closing, adjustment and replacement."""
    if table.state == TableState.OPEN:
        return violation("table_already_open", field="table", table=table.number)
    if table.game != Game.ROULETTE:
        return None
    if table.state == TableState.INSPECTED:
        return None
    if table.state == TableState.LOCKED:
        return violation("wheel_covered_and_locked/opening", field="table", table=table.number)
    reason = table.inspection_void_reason
    if reason in VOID_REASONS:
        return violation(VOID_REASONS[reason], field="table", table=table.number)
    if reason in AMENDED_VOID_REASONS:
        return violation(
            "inspection_amended_away", field="table", table=table.number, reason=AMENDED_VOID_REASONS[reason]
        )
    if reason == "failed":
        return violation("inspection_failed", field="table", table=table.number)
    return violation("no_inspection", field="table", table=table.number)


def may_close(*, table: Table) -> Violation | None:
    if table.state != TableState.OPEN:
        return violation("table_not_open", field="table", table=table.number)
    return None


def may_cover(*, table: Table) -> Violation | None:
    """§ 617a.2(f): "When a Roulette table is not open for play, the Roulette wheel shall be secured by
    placing a cover over the entire wheel and securely locking the cover."

    A Roulette table's wheel only (a Big Six or Casino War table has no such rule: refused, and never
    flagged), and in every state but open: a new table, an unlocked one, an inspected one not yet
    open, a closed one. The property's grace period for it runs from when the wheel was last
    uncovered while the table is not open (inspections.logbook.deadlines; docs/readings.md)."""
    not_roulette = table_is_roulette(table=table, citation=pa.COVER_AND_LOCK)
    if not_roulette:
        return not_roulette
    if table.state == TableState.OPEN:
        return violation("table_open", field="table", table=table.number)
    if table.state == TableState.LOCKED:
        return violation("wheel_already_locked", field="table", table=table.number)
    return None


def may_unlock(*, table: Table) -> Violation | None:
    if table.state != TableState.LOCKED:
        return violation("wheel_not_locked", field="table", table=table.number)
    return None


def may_record_irregularity(*, table: Table) -> Violation | None:
    """§ 617a.6: a "no spin" happens during play; so do a Casino War table's irregularities (§ 651a.11,
    games/casino_war.py)."""
    if table.game == Game.CASINO_WAR:
        if table.state != TableState.OPEN:
            return violation("table_not_open/casino_war_irregularity", field="table", table=table.number)
        return None
    if table.state != TableState.OPEN:
        return violation("table_not_open/irregularity", field="table", table=table.number)
    return table_is_roulette(table=table, citation=pa.IRREGULARITIES)


def may_change_decks(*, table: Table) -> Violation | None:
    """§ 651a.3(d): the decks of a Casino War table."""
    if table.game != Game.CASINO_WAR:
        return violation("not_a_casino_war_table", field="table", table=table.number)
    return None


# ---- § 617a.2(e): the log holds the true date and time ----


def entry_time_plausible(
    *, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
) -> Violation | None:
    """§ 617a.2(e): the log holds the date and time an entry happened, so never a time still to come
    (beyond a device clock's skew) and, product policy, never one further back than `max_backdate`
    (year 0001 in a log that can never be corrected by deletion). The refusal says both times in the
    zone they are given in: the caller gives them in the property's (compliance.rulebook.words)."""
    if at > now + skew:
        return violation(
            "time_in_future",
            field=field,
            at=moment_words(at, seconds=True),
            now=moment_words(now, seconds=True),
            skew=int(skew.total_seconds()),
        )
    if at < now - max_backdate:
        return violation(
            "time_too_old",
            field=field,
            at=moment_words(at),
            hours=int(max_backdate.total_seconds() // 3600),
            now=moment_words(now),
        )
    return None


def time_in_order(
    *, table: Table, at: datetime, now: datetime, skew: timedelta, max_backdate: timedelta, field: str
) -> Violation | None:
    """§ 617a.2(e): the log states the true date and time; entries of a table follow each other in time."""
    implausible = entry_time_plausible(at=at, now=now, skew=skew, max_backdate=max_backdate, field=field)
    if implausible:
        return implausible
    if table.last_entry_at and at < table.last_entry_at:
        return violation("time_before_last_entry", field=field, table=table.number)
    return None


def property_procedure_allowed(*, procedure: str) -> Violation | None:
    """§ 617a.2 is Pennsylvania's law: a Pennsylvania property keeps the procedure. (A jurisdiction
    whose text sets none lets the property choose: rulebooks.Borrowing.)"""
    if procedure == Procedure.NONE:
        return violation("procedure_required", field="procedure")
    return None


def may_open_without_procedure(*, table: Table) -> Violation | None:
    """A property that keeps no inspection procedure (a New Jersey or Section 4 one that chose so):
    opening asks only that the table is not open already; no inspection is required before it."""
    if table.state == TableState.OPEN:
        return violation("table_already_open", field="table", table=table.number)
    return None
