"""The casinos' only write paths: properties and their tables, with their equipment (the API, the
admin and the web pages all call these), and the tables' QR label sheets (asked for, rendered).

Each write locks the row it changes, asks the rulebook, and saves only the fields it changes, so a
logbook entry that moves the same row meanwhile (inspections.logbook.services) is never written back over.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from compliance.casinos.labels import labels_pdf
from compliance.casinos.models import Ball, Game, GamingTable, LabelSheet, LabelSheetStatus, Property, Wheel
from compliance.casinos.selectors import properties_managed_by
from compliance.casinos.signals import property_policy_changed, table_configured
from compliance.rulebook import Violation, raise_if_any, rulebook_for
from compliance.rulebook import labels as policy
from compliance.rulebook.configurations import STANDARD
from compliance.rulebook.violations import LimitReached, RuleViolation

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # for the type checker only: casinos sits below the people's app
    from compliance.accounts.models import User

# ---- Properties ----

# What a compliance manager may change of their own property; the rest is the administrator's.
PROPERTY_POLICY = ("time_zone", "cover_grace_minutes", "max_inspection_interval_hours", "notify_emails", "procedure")
PROPERTY_EDITABLE = ("name", "licence_number", "jurisdiction", *PROPERTY_POLICY)
# The overdue policy: its tables' deadlines move with it (inspections.logbook.deadlines); the time zone
# moves the local midnight from which a later approved version is in effect (configuration_due).
PROPERTY_DEADLINE_POLICY = frozenset({"cover_grace_minutes", "max_inspection_interval_hours", "time_zone", "procedure"})


def _property_has_records(prop: Property) -> bool:
    """What was kept under the property's jurisdiction: its logbook, flags and submissions."""
    return prop.entries.exists() or prop.flags.exists() or prop.rules_submissions.exists() or prop.layouts.exists()


@transaction.atomic
def property_create(*, actor: User, **fields) -> Property:
    """A new property (an administrator's): it has no tables, people or records yet."""
    only_editable(fields, PROPERTY_EDITABLE)
    if not actor.is_administrator:
        raise PermissionDenied("Only an administrator adds a property.")
    prop = Property(**fields)
    prop.full_clean()
    raise_if_any([rulebook_for(prop.jurisdiction).property_procedure_allowed(procedure=prop.procedure)])
    prop.save()
    return prop


@transaction.atomic
def property_update(*, property_id: int, actor: User, changes: dict) -> Property:
    """Change a property; a change of its overdue policy moves its tables' deadlines at once."""
    only_editable(changes, PROPERTY_EDITABLE)
    if not properties_managed_by(actor).filter(pk=property_id).exists():
        raise PermissionDenied("Only an administrator or this property's compliance manager changes it.")
    if not actor.is_administrator and set(changes) - set(PROPERTY_POLICY):
        raise PermissionDenied("A compliance manager changes the time zone and the overdue policy only.")
    tables = []
    if PROPERTY_DEADLINE_POLICY & set(changes):
        # Lock the tables before the property, in the logbook's order (a table, then its property's
        # chain head and entry: inspections.logbook.services), so an entry at the same moment waits
        # instead of deadlocking.
        tables = list(
            GamingTable.objects.select_for_update(of=("self",)).filter(property_id=property_id).order_by("pk")
        )
    # The row is read again under its lock and only the changed columns are written: nothing another
    # writer moved meanwhile is put back.
    prop = Property.objects.select_for_update().get(pk=property_id)
    changed = {name: value for name, value in changes.items() if getattr(prop, name) != value}
    if not changed:
        return prop
    if {"jurisdiction", "licence_number"} & set(changed):
        # No entry is added between this check and the write: an entry's row refers to its property,
        # and inserting it takes a key-share lock on the property's row, which waits for the lock
        # held here (and this lock for an entry not yet committed).
        rules = rulebook_for(prop.jurisdiction)
        has_records = _property_has_records(prop)
        raise_if_any(
            [
                rules.property_may_change_jurisdiction(prop=prop, has_records=has_records)
                if "jurisdiction" in changed
                else None,
                rules.property_may_change_licence(prop=prop, has_records=has_records)
                if "licence_number" in changed
                else None,
            ]
        )
    for name, value in changed.items():
        setattr(prop, name, value)
    prop.full_clean(exclude=[name for name in PROPERTY_EDITABLE if name not in changed], validate_unique=True)
    if {"procedure", "jurisdiction"} & set(changed):
        raise_if_any([rulebook_for(prop.jurisdiction).property_procedure_allowed(procedure=prop.procedure)])
    prop.save(update_fields=list(changed))
    # The tables' deadlines move with the policy, and what is in effect with the local midnight (the logbook's).
    property_policy_changed.send(sender=Property, prop=prop, changed=set(changed), tables=tables, actor=actor)
    return prop


# ---- Tables ----

TABLE_EQUIPMENT = ("wheel", "ball")
# Every column of a table a person may set; its state, times and deadlines are its logbook's.
TABLE_EDITABLE = (
    "property",
    "number",
    "game",
    "wheel_type",
    "has_external_movable_parts",
    "electronic",
    "configuration",
    *TABLE_EQUIPMENT,
)
TABLE_DEFAULTS = {
    "game": "roulette",
    "wheel_type": None,
    "has_external_movable_parts": False,
    "electronic": False,
    "configuration": STANDARD,
}


def only_editable(changes: dict, editable: tuple[str, ...]) -> None:
    """Refuse a change of a column that no person sets (the people's services ask it too)."""
    derived = sorted(set(changes) - set(editable))
    if derived:
        raise ValueError(f"Not editable here (they follow the logbook or are set once): {', '.join(derived)}.")


def _value(table: GamingTable, name: str):
    """The field's value to compare: the id for a foreign key (without loading the row)."""
    return getattr(table, f"{name}_id") if name in ("property", *TABLE_EQUIPMENT) else getattr(table, name)


def _changed(table: GamingTable, changes: dict) -> dict:
    def comparable(name, value):
        return value.pk if name in ("property", *TABLE_EQUIPMENT) and value is not None else value

    return {name: value for name, value in changes.items() if _value(table, name) != comparable(name, value)}


def _has_history(table: GamingTable) -> bool:
    return table.entries.exists() or table.flags.exists() or table.layouts.exists()


def table_violations(*, table: GamingTable | None, changes: dict) -> list[Violation]:
    """Every rule a new table (table None) or a change of a table breaks, saving nothing.

    table_create and table_update ask it under their locks; the admin's form asks it to show the
    refusal beside its field.
    """
    changed = _changed(table, changes) if table is not None else dict(changes)
    if table is None:
        candidate = GamingTable(**{**TABLE_DEFAULTS, **changes})
    else:
        candidate = GamingTable(**{f.attname: getattr(table, f.attname) for f in GamingTable._meta.concrete_fields})
        for name, value in changed.items():
            setattr(candidate, name, value)
    rules = rulebook_for(candidate.property.jurisdiction)
    return [
        v
        for v in [
            rules.table_may_move(table=table, has_history=_has_history(table))
            if table is not None and "property" in changed
            else None,
            rules.table_may_renumber(table=table, has_entries=table.entries.exists())
            if table is not None and "number" in changed
            else None,
            *rules.table_configuration(
                game=candidate.game,
                wheel_type=candidate.wheel_type,
                has_external_movable_parts=candidate.has_external_movable_parts,
            ),
            *rules.table_equipment(table=candidate, wheel=candidate.wheel, ball=candidate.ball),
            *rules.equipment_change(
                table=table if table is not None else candidate,
                wheel_changed="wheel" in changed,
                ball_changed="ball" in changed,
                wheel=candidate.wheel,
                ball=candidate.ball,
            ),
            rules.configuration_change(table=table, changed=set(changed)) if table is not None else None,
        ]
        if v is not None
    ]


def equipment_lock(changes: dict) -> None:
    # Lock the wheel and ball being put on: two tables taking the same one at once wait in turn,
    # so the second sees it in use (equipment_change).
    for model, name in ((Wheel, "wheel"), (Ball, "ball")):
        if changes.get(name) is not None:
            model.objects.select_for_update().filter(pk=changes[name].pk).first()


@transaction.atomic
def table_create(*, actor: User, **fields) -> GamingTable:
    """A new table, checked like a change (its configuration and equipment); it starts closed."""
    only_editable(fields, TABLE_EDITABLE)
    if not properties_managed_by(actor).filter(pk=fields["property"].pk).exists():
        raise PermissionDenied("Only an administrator or this property's compliance manager adds its tables.")
    equipment_lock(fields)
    raise_if_any(table_violations(table=None, changes=fields))
    table = GamingTable(**{**TABLE_DEFAULTS, **fields})
    table.full_clean(validate_unique=True)
    table.save(force_insert=True)
    # The logbook's status of the table: its deadlines, from the game and the property's policy.
    table_configured.send(sender=GamingTable, table=table, changed=None, actor=actor)
    return table


@transaction.atomic
def table_update(*, table_id: int, actor: User, changes: dict) -> GamingTable:
    """Change a table's number, configuration or equipment, under its row lock, by the rules.

    Only the changed columns are written, so an entry recorded between the caller's read and this
    write keeps the state it gave the table. A change of configuration (product policy from
    § 617a.2(a), (d): only while the table is closed) voids its inspection: it opens only after a
    new one, with the checklist of its new configuration.
    """
    only_editable(changes, TABLE_EDITABLE)
    # With its logbook status (`status`: the rules of a change read where the table is in its day),
    # locked with it so that it is read as the last entry left it.
    locking = GamingTable.objects.select_for_update(of=("self", "status")).select_related("property", "status")
    table = locking.filter(status__isnull=False).get(pk=table_id)
    managed = properties_managed_by(actor)
    if not managed.filter(pk=table.property_id).exists() or (
        "property" in changes and not managed.filter(pk=changes["property"].pk).exists()
    ):
        raise PermissionDenied("Only an administrator or this property's compliance manager changes its tables.")
    changed = _changed(table, changes)
    if not changed:
        return table
    equipment_lock(changed)
    raise_if_any(table_violations(table=table, changes=changed))
    for name, value in changed.items():
        setattr(table, name, value)
    table.full_clean(validate_unique=True)
    table.save(update_fields=sorted(changed))
    # The logbook's status of the table follows: a changed configuration voids its inspection.
    table_configured.send(sender=GamingTable, table=table, changed=set(changed), actor=actor)
    return table


# ---- Equipment: registered once, by the rule; never rewritten or deleted ----

WHEEL_FIELDS = (
    "property",
    "serial",
    "game",
    "wheel_type",
    "diameter_inches",
    "number_order",
    "colours",
    "compartments",
    "compartment_colour",
    "compartment_approval",
    "sections_under_glass",
    "sections_show_odds",
    "clapper",
)
# How a Roulette wheel's compartments are coloured (§ 617a.1(c), (d)); empty on a Big Six wheel.
COMPARTMENT_FIELDS = ("compartments", "compartment_colour", "compartment_approval")
# What a Big Six wheel must have (§ 619a.1(a), (d), (e), proposed); None on a Roulette wheel.
BIG_SIX_PART_FIELDS = ("sections_under_glass", "sections_show_odds", "clapper")
BALL_FIELDS = ("property", "serial", "material", "diameter_inches")


def wheel_violations(
    *,
    prop: Property,
    wheel_type: str,
    diameter_inches,
    number_order: list[str],
    colours: list[str] | None = None,
    game: str = Game.ROULETTE,
    compartments: str = "",
    compartment_colour: str = "",
    compartment_approval: str = "",
    parts: dict[str, bool | None] | None = None,
) -> list[Violation]:
    """What § 617a.1(b)–(d) (a Roulette wheel: its numbers, its ring's and compartments' colours) or
    § 619a.1(a), (b), (d), (e) (a Big Six wheel: its sections, glass, odds and clapper) say of a wheel
    registered at this property."""
    return rulebook_for(prop.jurisdiction).check_wheel(
        game=game,
        wheel_type=wheel_type,
        diameter_inches=diameter_inches,
        number_order=number_order,
        colours=colours,
        compartments=compartments,
        compartment_colour=compartment_colour,
        compartment_approval=compartment_approval,
        parts=parts,
    )


def ball_violations(*, prop: Property, material: str, diameter_inches) -> list[Violation]:
    """What § 617a.1(a) says of a ball registered at this property."""
    return rulebook_for(prop.jurisdiction).check_ball(material=material, diameter_inches=diameter_inches)


@transaction.atomic
def wheel_register(*, actor: User, **fields) -> Wheel:
    """A wheel registered at a property its registrar manages: a Roulette wheel checked against
    § 617a.1(b)–(d) (its numbers, their colours and its compartments'), a Big Six wheel against
    § 619a.1(a), (b)."""
    only_editable(fields, WHEEL_FIELDS)
    prop = fields["property"]
    if not properties_managed_by(actor).filter(pk=prop.pk).exists():
        raise PermissionDenied("Only an administrator or this property's compliance manager registers its wheels.")
    fields = {**fields, "game": fields.get("game") or Game.ROULETTE}
    fields["wheel_type"] = fields.get("wheel_type") or ""
    fields["colours"] = list(fields.get("colours") or [])
    for name in COMPARTMENT_FIELDS:
        fields[name] = (fields.get(name) or "").strip()
    for name in BIG_SIX_PART_FIELDS:
        fields[name] = fields.get(name)
    raise_if_any(
        wheel_violations(
            prop=prop,
            game=fields["game"],
            wheel_type=fields["wheel_type"],
            diameter_inches=fields["diameter_inches"],
            number_order=fields["number_order"],
            colours=fields["colours"],
            **{name: fields[name] for name in COMPARTMENT_FIELDS},
            parts={name: fields[name] for name in BIG_SIX_PART_FIELDS},
        )
    )
    return Wheel.objects.create(**fields)


@transaction.atomic
def ball_register(*, actor: User, **fields) -> Ball:
    """A ball registered at a property its registrar manages, checked against § 617a.1(a)."""
    only_editable(fields, BALL_FIELDS)
    prop = fields["property"]
    if not properties_managed_by(actor).filter(pk=prop.pk).exists():
        raise PermissionDenied("Only an administrator or this property's compliance manager registers its balls.")
    raise_if_any(ball_violations(prop=prop, material=fields["material"], diameter_inches=fields["diameter_inches"]))
    return Ball.objects.create(**fields)


# ---- QR label sheets ----

# A sheet still waiting after this long was lost (its task gone with a Redis that lost its data):
# it no longer holds its person's place. A sheet of 100 labels renders in a few seconds.
PENDING_COUNTS_FOR = timedelta(minutes=30)
# The worker's task, sent by its name (compliance.casinos.tasks calls label_sheet_render below).
LABEL_SHEET_GENERATE = "compliance.casinos.tasks.label_sheet_generate"


def label_sheet_request(*, requested_by, prop: Property, page: int | None = None) -> LabelSheet:
    """Record a sheet of the property's labels and queue its rendering once committed.

    `page` (from 0) names one sheet of LABELS_PER_SHEET tables; None asks for all the property's
    tables, refused naming the limit when they are more. Refused too when the person already has
    LABELS_MAX_PENDING_PER_PERSON sheets waiting (429)."""
    with transaction.atomic():
        # Lock the person: two requests at once cannot both take the last place.
        get_user_model().objects.select_for_update().filter(pk=requested_by.pk).exists()
        total = GamingTable.objects.filter(property=prop).count()
        size = settings.LABELS_PER_SHEET
        if page is None:
            first, count = 0, total
        else:
            first, count = page * size, max(0, min(size, total - page * size))
        too_large = policy.label_sheet_within(labels=count, max_labels=size, property_name=prop.name)
        if too_large:
            raise RuleViolation([too_large])
        pending = LabelSheet.objects.filter(
            requested_by=requested_by,
            status__in=(LabelSheetStatus.QUEUED, LabelSheetStatus.RUNNING),
            requested_at__gte=timezone.now() - PENDING_COUNTS_FOR,
        ).count()
        too_many = policy.label_sheets_pending_within(mine=pending, max_mine=settings.LABELS_MAX_PENDING_PER_PERSON)
        if too_many:
            raise LimitReached([too_many])
        sheet = LabelSheet.objects.create(property=prop, requested_by=requested_by, first=first, count=count)
        transaction.on_commit(lambda: _label_sheet_enqueue(sheet.pk))
    return sheet


def _label_sheet_enqueue(sheet_id: int) -> None:
    """Hand the sheet to the workers; with the broker down it is failed, to be asked for again."""
    try:
        current_app.send_task(LABEL_SHEET_GENERATE, args=(sheet_id,), retry=False, ignore_result=True)
    except Exception as error:  # the broker is down: the sheet says so, and may be asked for again
        log.warning("label sheet %s not queued: %s", sheet_id, error)
        LabelSheet.objects.filter(pk=sheet_id, status=LabelSheetStatus.QUEUED).update(
            status=LabelSheetStatus.FAILED, error="The workers cannot be reached: ask for the sheet again later."
        )


def label_sheet_render(sheet_id: int) -> None:
    """The worker's part: render the sheet's tables (as they are now) and publish the file."""
    with transaction.atomic():
        sheet = LabelSheet.objects.select_for_update().filter(pk=sheet_id).first()
        if sheet is None or sheet.status in (LabelSheetStatus.DONE, LabelSheetStatus.FAILED):
            return  # delivered twice: done once
        LabelSheet.objects.filter(pk=sheet_id).update(status=LabelSheetStatus.RUNNING)
    tables = GamingTable.objects.filter(property_id=sheet.property_id).order_by("number", "pk")
    try:
        content = labels_pdf(tables[sheet.first : sheet.first + sheet.count])
    except Exception as error:
        LabelSheet.objects.filter(pk=sheet_id).update(
            status=LabelSheetStatus.FAILED, error=f"{type(error).__name__}: {error}"[:500], finished_at=timezone.now()
        )
        raise
    with transaction.atomic():
        sheet = LabelSheet.objects.select_for_update().get(pk=sheet_id)
        if sheet.status != LabelSheetStatus.RUNNING:
            return
        sheet.file.save(f"table-labels-{sheet.pk}.pdf", ContentFile(content), save=False)
        sheet.status, sheet.finished_at = LabelSheetStatus.DONE, timezone.now()
        sheet.save(update_fields=["file", "status", "finished_at"])
