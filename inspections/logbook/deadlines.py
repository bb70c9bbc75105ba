"""A table's deadlines: when each kind of flag of the overdue scan falls due (docs/architecture.md: The flag kinds).

The law is the rulebook's (compliance.rulebook.deadlines); this module reads what it runs from and
keeps its results. They are derived from the table's state and kept with it — by the logbook's services with every
entry, by the approval services when what is in effect changes, and when the property's policy
changes — so the scan (inspections.flags.overdue) compares columns with the clock and nothing else.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from compliance.approvals.models import RulesSubmission, SubmissionStatus
from compliance.approvals.selectors import layout_approved_for, rules_submission_in_effect
from compliance.casinos.clock import local_date, local_midnight
from compliance.casinos.models import Game, GamingTable, Property, TableState
from compliance.casinos.services import PROPERTY_DEADLINE_POLICY, TABLE_EQUIPMENT
from compliance.rulebook import deadlines as law
from compliance.rulebook import rulebook_for
from compliance.rulebook.flags import DEADLINE_COLUMNS
from inspections.logbook.models import Entry, EntryKind
from inspections.logbook.signals import deadlines_moved

# The columns deadlines_set writes (the registry of flag kinds names the deadlines): what a caller
# saves after it (and nothing else of the row).
DEADLINE_FIELDS = [*DEADLINE_COLUMNS, "next_due"]


def _uncovered_since(table: GamingTable, unlocking: datetime | None = None) -> datetime | None:
    """When the wheel of a Roulette table that is not open was last uncovered: its last closing, or
    its last unlocking if later (an unlocked or inspected table's wheel is off its cover since then).
    `unlocking`: the time of an unlocking being recorded with these deadlines, not yet in the logbook;
    it is the table's last (an entry is never before the table's last, § 617a.2(e))."""
    unlocked = unlocking
    if unlocked is None and table.state in (TableState.UNLOCKED, TableState.INSPECTED) and table.pk:
        unlocked = (
            Entry.objects.filter(table_id=table.pk, kind=EntryKind.UNLOCK)
            .order_by("-occurred_at", "-seq")
            .values_list("occurred_at", flat=True)
            .first()
        )
    return max((moment for moment in (table.last_closed_at, unlocked) if moment), default=None)


def deadlines_set(table: GamingTable, *, unlocking: datetime | None = None) -> None:
    """Set the table's deadlines from its state, by the rulebook's law of deadlines (called with the
    table locked, before saving it). `unlocking`: the time of the unlocking entry being recorded, when
    the deadlines are set before it is written (the logbook's services write both in one statement).

    `approval_due_at` is set where the configuration is checked: at opening, and when an
    approval changes what is in effect (compliance.casinos.services).
    """
    policy = table.property
    rules = policy.rulebook()
    # § 617a.2 is the Roulette wheel's, at a property that keeps the procedure (compliance.rulebook.rulebook_for).
    roulette = table.game == Game.ROULETTE and rules.KEEPS_PROCEDURE
    due = law.deadlines(
        table,
        roulette=roulette,
        casino_war=table.game == Game.CASINO_WAR,
        uncovered_since=_uncovered_since(table, unlocking) if roulette else None,
        grace=timedelta(minutes=policy.cover_grace_minutes),
        inspection_interval=timedelta(hours=policy.max_inspection_interval_hours),
        deck_change_hours=rulebook_for(policy.jurisdiction).CASINO_WAR_DECK_CHANGE_HOURS,
        now=timezone.now(),
    )
    for name, value in due.columns().items():
        setattr(table, name, value)


def configuration_due(table: GamingTable, *, now: datetime) -> datetime | None:
    """When the table stops having an approved layout and Rules Submission in effect that allow it
    (the opening gate's rule), from what is approved today: now, the local midnight a later
    approved version takes effect, or never (None)."""
    rules = rulebook_for(table.property.jurisdiction)
    zone = table.property.zone
    today = local_date(now, zone)
    layout = layout_approved_for(table_id=table.pk)
    in_effect = rules_submission_in_effect(property_id=table.property_id, game=table.game, on=today)
    if rules.configuration_ready(table=table, layout=layout, rules_submission=in_effect):
        return now
    later = RulesSubmission.objects.filter(
        property_id=table.property_id, game=table.game, status=SubmissionStatus.APPROVED, effective_from__gt=today
    ).order_by("effective_from", "-version")
    seen = set()
    for version in later:  # the newest version of each later date is the one in effect from then
        if version.effective_from in seen:
            continue
        seen.add(version.effective_from)
        if rules.configuration_ready(table=table, layout=layout, rules_submission=version):
            return local_midnight(version.effective_from, zone)
    return None


def _deadlines(table: GamingTable) -> dict[str, datetime | None]:
    return {name: getattr(table, name) for name in DEADLINE_COLUMNS}


def _moved_without_entry(table: GamingTable, *, before: dict[str, datetime | None], cause: str, actor) -> None:
    """Tell the flags which deadlines a change that is no entry moved: an open flag's deadline moves
    with its column, and the flag stays open (inspections.flags.overdue.flags_follow_deadlines)."""
    moved = {name: value for name, value in before.items() if getattr(table, name) != value}
    if moved:
        deadlines_moved.send(sender=GamingTable, table=table, moved=moved, cause=cause, actor=actor)


def open_tables_recheck(*, property_id: int, game: str | None = None, cause: str = "approval", actor=None) -> None:
    """After an approval (or a new time zone): the open tables' approval deadline, from what is now approved."""
    now = timezone.now()
    with transaction.atomic():
        tables = GamingTable.objects.select_for_update(of=("self",)).select_related("property")
        tables = tables.filter(property_id=property_id, state=TableState.OPEN)
        for table in tables.filter(game=game) if game else tables:
            before = _deadlines(table)
            table.approval_due_at = configuration_due(table, now=now)
            deadlines_set(table)
            table.save(update_fields=["approval_due_at", "next_due"])
            _moved_without_entry(table, before=before, cause=cause, actor=actor)


# ---- Receivers of the configuration's signals (connected in LogbookConfig.ready()) ----


def on_table_configuring(sender, *, table: GamingTable, changed: set[str] | None, **kwargs) -> list[str]:
    """A new or changed table: its deadlines from its game and property, and a changed configuration
    voids its inspection (product policy from § 617a.2(a), (d): what was inspected is no longer there)."""
    if changed is None:
        deadlines_set(table)
        return DEADLINE_FIELDS
    derived: list[str] = []
    configuration = set(rulebook_for(table.property.jurisdiction).TABLE_CONFIGURATION)
    if changed & {*configuration, *TABLE_EQUIPMENT}:
        table.inspection_void_reason = "configuration"
        derived.append("inspection_void_reason")
    if "property" in changed or changed & configuration:
        before = _deadlines(table)
        deadlines_set(table)  # the new property's policy; the game's own deadlines
        derived.extend(DEADLINE_FIELDS)
        _moved_without_entry(table, before=before, cause="configuration", actor=kwargs.get("actor"))
    return derived


def on_property_policy_changed(sender, *, prop: Property, changed: set[str], tables: list, **kwargs) -> None:
    """The grace period, the inspection interval or the time zone changed: the tables' deadlines move,
    and a new local midnight may change what is in effect."""
    actor = kwargs.get("actor")
    if PROPERTY_DEADLINE_POLICY & changed:
        for table in tables:
            table.property = prop
            before = _deadlines(table)
            deadlines_set(table)
            table.save(update_fields=DEADLINE_FIELDS)
            _moved_without_entry(table, before=before, cause="policy", actor=actor)
    if "time_zone" in changed:
        open_tables_recheck(property_id=prop.pk, cause="policy", actor=actor)


def on_approval_decided(sender, *, submission, **kwargs) -> None:
    """An approval: the open tables' approval deadline, from what is now approved."""
    if submission.status == SubmissionStatus.APPROVED:
        open_tables_recheck(
            property_id=submission.property_id, game=submission.game, cause="approval", actor=kwargs.get("actor")
        )
