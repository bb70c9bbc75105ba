"""A table's status (inspections.logbook.models.TableStatus) when something that is no entry moves it:
a new table, a changed configuration, a property's policy, an approval.

The configuration's and the approvals' services sit below the logbook and never import it: they tell
it of a change by a signal that carries nothing back (compliance.casinos.signals,
compliance.approvals.signals), sent inside their transaction with the table rows locked, so what is
written here commits or rolls back with the change. Connected in LogbookConfig.ready().
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from compliance.approvals.models import SubmissionStatus
from compliance.casinos.models import GamingTable, Property, TableState
from compliance.casinos.services import PROPERTY_DEADLINE_POLICY, TABLE_EQUIPMENT
from compliance.rulebook import rulebook_for
from inspections.logbook.deadlines import DEADLINE_FIELDS, configuration_due, deadlines_set
from inspections.logbook.models import TABLE_DEADLINES, TableStatus
from inspections.logbook.signals import deadlines_moved


def table_status_make(sender, *, instance: GamingTable, created: bool, raw: bool = False, **kwargs) -> None:
    """Every table has its status, from its first save (closed, nothing due): the configuration's
    services then set its deadlines (table_configured)."""
    if created and not raw:
        TableStatus.objects.create(table=instance)


def _deadlines(table: GamingTable) -> dict[str, datetime | None]:
    return {name: getattr(table.status, name) for name in TABLE_DEADLINES}


def _moved_without_entry(table: GamingTable, *, before: dict[str, datetime | None], cause: str, actor) -> None:
    """Tell the flags which deadlines a change that is no entry moved: an open flag's deadline moves
    with its column, and the flag stays open (inspections.flags.services.flags_follow_deadlines)."""
    moved = {name: value for name, value in before.items() if getattr(table.status, name) != value}
    if moved:
        deadlines_moved.send(sender=GamingTable, table=table, moved=moved, cause=cause, actor=actor)


def open_tables_recheck(*, property_id: int, game: str | None = None, cause: str = "approval", actor=None) -> None:
    """After an approval (or a new time zone): the open tables' approval deadline, from what is now approved."""
    now = timezone.now()
    with transaction.atomic():
        tables = GamingTable.objects.select_for_update(of=("self", "status")).select_related("property", "status")
        tables = tables.filter(property_id=property_id, status__state=TableState.OPEN)
        for table in tables.filter(game=game) if game else tables:
            before = _deadlines(table)
            table.status.approval_due_at = configuration_due(table, now=now)
            deadlines_set(table)
            table.status.save(update_fields=["approval_due_at", "next_due"])
            _moved_without_entry(table, before=before, cause=cause, actor=actor)


def table_configured(sender, *, table: GamingTable, changed: set[str] | None, **kwargs) -> None:
    """A new (`changed` None) or changed table: its deadlines from its game and property, and a changed
    configuration voids its inspection (product policy from § 617a.2(a), (d): what was inspected is no
    longer there). The table is locked by the configuration's service."""
    status = table.status
    if changed is None:
        deadlines_set(table)
        status.save(update_fields=DEADLINE_FIELDS)
        return
    derived: list[str] = []
    configuration = set(rulebook_for(table.property.jurisdiction).TABLE_CONFIGURATION)
    if changed & {*configuration, *TABLE_EQUIPMENT}:
        status.inspection_void_reason = "configuration"
        derived.append("inspection_void_reason")
    if "property" in changed or changed & configuration:
        before = _deadlines(table)
        deadlines_set(table)  # the new property's policy; the game's own deadlines
        derived.extend(DEADLINE_FIELDS)
        _moved_without_entry(table, before=before, cause="configuration", actor=kwargs.get("actor"))
    if derived:
        status.save(update_fields=derived)


def property_policy_changed(sender, *, prop: Property, changed: set[str], tables: list, **kwargs) -> None:
    """The grace period, the inspection interval or the time zone changed: the tables' deadlines move,
    and a new local midnight may change what is in effect. `tables`: the property's, locked."""
    actor = kwargs.get("actor")
    if PROPERTY_DEADLINE_POLICY & changed:
        statuses = {status.pk: status for status in TableStatus.objects.filter(table__in=tables)}
        for table in tables:
            table.property = prop
            table.status = statuses[table.pk]
            before = _deadlines(table)
            deadlines_set(table)
            table.status.save(update_fields=DEADLINE_FIELDS)
            _moved_without_entry(table, before=before, cause="policy", actor=actor)
    if "time_zone" in changed:
        open_tables_recheck(property_id=prop.pk, cause="policy", actor=actor)


def approval_decided(sender, *, submission, **kwargs) -> None:
    """An approval: the open tables' approval deadline, from what is now approved."""
    if submission.status == SubmissionStatus.APPROVED:
        open_tables_recheck(
            property_id=submission.property_id, game=submission.game, cause="approval", actor=kwargs.get("actor")
        )
