"""A table's deadlines: when each kind of flag of the overdue scan falls due (docs/architecture.md: The flag kinds).

The law is the rulebook's (compliance.rulebook.deadlines); this module reads what it runs from. The
deadlines are derived from the table's state and kept with it (inspections.logbook.models.TableStatus)
— by the logbook's services with every entry, and when a table's configuration, its property's
policy or what is approved changes (services/status.py) — so the scan (inspections.flags.services)
compares columns with the clock and nothing else.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from compliance.approvals.models import RulesSubmission, SubmissionStatus
from compliance.approvals.selectors import layout_approved_for, rules_submission_in_effect
from compliance.casinos.clock import local_date, local_midnight
from compliance.casinos.models import Game, GamingTable, TableState
from compliance.rulebook import deadlines as law
from compliance.rulebook import rulebook_for
from compliance.rulebook.flags import DEADLINE_COLUMNS
from inspections.logbook.models import Entry, EntryKind

# The columns deadlines_set writes (the registry of flag kinds names the deadlines): what a caller
# saves after it (and nothing else of the row).
DEADLINE_FIELDS = [*DEADLINE_COLUMNS, "next_due"]


def _uncovered_since(table: GamingTable, unlocking: datetime | None = None) -> datetime | None:
    """When the wheel of a Roulette table that is not open was last uncovered: its last closing, or
    its last unlocking if later (an unlocked or inspected table's wheel is off its cover since then).
    `unlocking`: the time of an unlocking being recorded with these deadlines, not yet in the logbook;
    it is the table's last (an entry is never before the table's last, § 617a.2(e))."""
    unlocked = unlocking
    if unlocked is None and table.status.state in (TableState.UNLOCKED, TableState.INSPECTED) and table.pk:
        unlocked = (
            Entry.objects.filter(table_id=table.pk, kind=EntryKind.UNLOCK)
            .order_by("-occurred_at", "-seq")
            .values_list("occurred_at", flat=True)
            .first()
        )
    return max((moment for moment in (table.status.last_closed_at, unlocked) if moment), default=None)


def deadlines_set(table: GamingTable, *, unlocking: datetime | None = None) -> None:
    """Set the deadlines of the table's status from its state, by the rulebook's law of deadlines
    (called with the table locked, before saving its status). `unlocking`: the time of the unlocking entry being recorded, when
    the deadlines are set before it is written (the logbook's services write both in one statement).

    `approval_due_at` is set where the configuration is checked: at opening, and when an
    approval changes what is in effect (compliance.casinos.services).
    """
    policy = table.property
    rules = policy.rulebook()
    # § 617a.2 is the Roulette wheel's, at a property that keeps the procedure (compliance.rulebook.rulebook_for).
    roulette = table.game == Game.ROULETTE and rules.KEEPS_PROCEDURE
    due = law.deadlines(
        table.status,
        roulette=roulette,
        casino_war=table.game == Game.CASINO_WAR,
        uncovered_since=_uncovered_since(table, unlocking) if roulette else None,
        grace=timedelta(minutes=policy.cover_grace_minutes),
        inspection_interval=timedelta(hours=policy.max_inspection_interval_hours),
        deck_change_hours=rulebook_for(policy.jurisdiction).CASINO_WAR_DECK_CHANGE_HOURS,
        now=timezone.now(),
    )
    for name, value in due.columns().items():
        setattr(table.status, name, value)


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
