"""The configuration's only write paths: properties and their tables (the API, the admin and the
web pages all call these), and the approvals (Rules Submissions and layouts drafted, filed, decided).

Each write locks the row it changes, asks the rulebook, and saves only the fields it changes, so a
logbook entry that moves the same row meanwhile (inspections.logbook.services) is never written back over.
"""

from __future__ import annotations

from datetime import date

from django.apps import apps
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from compliance.accounts.models import Role, User
from compliance.accounts.signatures import SignatureInput, content_digest, signer_authenticate
from compliance.approvals.models import (
    ApprovalSignature,
    LayoutStatus,
    LayoutSubmission,
    RulesSubmission,
    SubmissionStatus,
)
from compliance.casinos.clock import property_today
from compliance.casinos.models import Ball, GamingTable, Property, Wheel
from compliance.casinos.selectors import is_administrator, properties_managed_by, rules_submission_in_effect
from compliance.rulebook import Violation, game_rules_for, malformed, raise_if_any, rulebook_for
from compliance.rulebook.games.big_six import big_six_house_edges
from compliance.rulebook.games.roulette import house_edges
from compliance.rulebook.roles import STAFF_ROLES
from inspections.logbook.deadlines import DEADLINE_FIELDS, deadlines_set, open_tables_recheck


def rules_submission_check(*, prop: Property, game: str, wheel_types, payout_odds, options) -> list[Violation]:
    """Every violation of a Rules Submission's content, saving nothing (the draft page's live check)."""
    return rulebook_for(prop.jurisdiction).check_rules_submission(
        game_rules=game_rules_for(prop.jurisdiction),
        game=game,
        wheel_types=wheel_types,
        payout_odds=payout_odds,
        options=options,
    )


def submission_house_edges(*, jurisdiction: str, game: str, wheel_types, payout_odds, options) -> dict:
    """Wager code → wheel type (or the wheel, for Big Six) → the house edge in percent."""
    if game == "big_six":
        return big_six_house_edges(game_rules=game_rules_for(jurisdiction), payout_odds=payout_odds)
    return house_edges(
        game_rules=game_rules_for(jurisdiction), wheel_types=wheel_types, payout_odds=payout_odds, options=options
    )


def _violations(*, prop: Property, game: str, wheel_types, payout_odds, options) -> list[dict]:
    """The draft's violations to save with it; a malformed draft is refused (400) and not saved."""
    found = rules_submission_check(
        prop=prop, game=game, wheel_types=wheel_types, payout_odds=payout_odds, options=options
    )
    raise_if_any(malformed(found))
    return [v.as_dict() for v in found]


@transaction.atomic
def rules_submission_draft(
    *,
    prop: Property,
    game: str,
    effective_from: date,
    wheel_types: list,
    payout_odds: dict,
    options: dict,
    created_by: User,
) -> RulesSubmission:
    """A new version, saved with its violations listed (a draft may break rules; filing may not)."""
    # Lock the property: two drafts at once must not take the same version number.
    Property.objects.select_for_update().get(pk=prop.pk)
    latest = RulesSubmission.objects.filter(property=prop, game=game).aggregate(v=Max("version"))["v"] or 0
    return RulesSubmission.objects.create(
        property=prop,
        game=game,
        version=latest + 1,
        effective_from=effective_from,
        wheel_types=wheel_types,
        payout_odds=payout_odds,
        options=options,
        violations=_violations(prop=prop, game=game, wheel_types=wheel_types, payout_odds=payout_odds, options=options),
        created_by=created_by,
    )


@transaction.atomic
def rules_submission_update(*, submission_id: int, **changes) -> RulesSubmission:
    """Change a draft and check it again; a filed version is never rewritten."""
    submission = (
        RulesSubmission.objects.select_for_update(of=("self",)).select_related("property").get(pk=submission_id)
    )
    raise_if_any([rulebook_for(submission.property.jurisdiction).may_edit_submission(submission=submission)])
    changed = [name for name in ("effective_from", "wheel_types", "payout_odds", "options") if name in changes]
    for name in changed:
        setattr(submission, name, changes[name])
    submission.violations = _violations(
        prop=submission.property,
        game=submission.game,
        wheel_types=submission.wheel_types,
        payout_odds=submission.payout_odds,
        options=submission.options,
    )
    submission.save(update_fields=[*changed, "violations"])
    return submission


def submission_content(submission: RulesSubmission) -> dict:
    """What is signed when a submission is filed and decided."""
    return {
        "property": submission.property_id,
        "game": submission.game,
        "version": submission.version,
        "effective_from": submission.effective_from.isoformat(),
        "wheel_types": submission.wheel_types,
        "payout_odds": submission.payout_odds,
        "options": submission.options,
    }


def _sign(
    *, submission: RulesSubmission | LayoutSubmission, signer: User, action: str, reference: str = "", note: str = ""
) -> None:
    ApprovalSignature.objects.create(
        rules_submission=submission if isinstance(submission, RulesSubmission) else None,
        layout=submission if isinstance(submission, LayoutSubmission) else None,
        action=action,
        reference=reference,
        note=note,
        signer=signer,
        signer_name=signer.display_name,
        credential_number=signer.credential_number,
        signed_at=timezone.now(),
        content_hash=submission.content_hash,
    )


def rules_submission_file(*, submission_id: int, signature: SignatureInput) -> RulesSubmission:
    """The compliance manager files a draft without violations; its content is frozen and hashed."""
    jurisdiction = RulesSubmission.objects.values_list("property__jurisdiction", flat=True).get(pk=submission_id)
    rules = rulebook_for(jurisdiction)
    signer = signer_authenticate(signature=signature, field="signature", jurisdiction=jurisdiction, in_logbook=False)
    with transaction.atomic():
        submission = (
            RulesSubmission.objects.select_for_update(of=("self",)).select_related("property").get(pk=submission_id)
        )
        raise_if_any(rules.may_file(submission=submission, signer=signer))
        submission.status = SubmissionStatus.FILED
        submission.content_hash = content_digest(submission_content(submission))
        submission.save(update_fields=["status", "content_hash"])
        _sign(submission=submission, signer=signer, action="filed")
    return submission


def rules_submission_decide(
    *, submission_id: int, decision: str, reference: str, signature: SignatureInput, note: str = ""
) -> RulesSubmission:
    """The regulator approves or rejects a filed submission, signed, with the Board's reference."""
    return _decide(
        model=RulesSubmission,
        pk=submission_id,
        check="may_decide",
        status=SubmissionStatus(decision),
        reference=reference,
        signature=signature,
        note=note,
    )


def _decide(*, model, pk: int, check: str, status: str, reference: str, signature: SignatureInput, note: str):
    """Authenticate the regulator, lock the submission, ask the rule, record and sign the decision."""
    jurisdiction = model.objects.values_list("property__jurisdiction", flat=True).get(pk=pk)
    rules = rulebook_for(jurisdiction)
    signer = signer_authenticate(signature=signature, field="signature", jurisdiction=jurisdiction, in_logbook=False)
    with transaction.atomic():
        submission = model.objects.select_for_update(of=("self",)).select_related("property").get(pk=pk)
        raise_if_any(getattr(rules, check)(submission, signer=signer))
        submission.status = status
        submission.decision_reference = reference
        submission.save(update_fields=["status", "decision_reference"])
        _sign(submission=submission, signer=signer, action=str(status), reference=reference, note=note)
        if status == "approved":
            # What is in effect for the open tables may change from today or a later date.
            open_tables_recheck(property_id=submission.property_id, game=submission.game)
    return submission


def layout_violations(*, prop: Property, game: str, features: list[str], tables: list[GamingTable]):
    """Checked against the Rules Submission in effect today for the property's game."""
    in_effect = rules_submission_in_effect(property_id=prop.pk, game=game, on=property_today(prop))
    return rulebook_for(prop.jurisdiction).check_layout(
        features=features, tables=tables, options=in_effect.options if in_effect else None, game=game
    )


@transaction.atomic
def layout_submit(
    *, prop: Property, game: str, name: str, features: list[str], tables: list[GamingTable], created_by: User
) -> LayoutSubmission:
    """Submit a layout for approval; refused, with every violation, unless it has what its tables offer."""
    raise_if_any(layout_violations(prop=prop, game=game, features=features, tables=tables))
    layout = LayoutSubmission.objects.create(
        property=prop,
        game=game,
        name=name,
        features=sorted(set(features)),
        created_by=created_by,
        content_hash=content_digest(
            {
                "property": prop.pk,
                "game": game,
                "name": name,
                "features": sorted(set(features)),
                "tables": sorted(t.pk for t in tables),
            }
        ),
    )
    layout.tables.set(tables)
    return layout


def layout_decide(
    *, layout_id: int, decision: str, reference: str, signature: SignatureInput, note: str = ""
) -> LayoutSubmission:
    """The regulator approves or rejects a pending layout, signed, with the Bureau's reference."""
    return _decide(
        model=LayoutSubmission,
        pk=layout_id,
        check="may_decide_layout",
        status=LayoutStatus(decision),
        reference=reference,
        signature=signature,
        note=note,
    )


# ---- Properties ----

# What a compliance manager may change of their own property; the rest is the administrator's.
PROPERTY_POLICY = ("time_zone", "cover_grace_minutes", "max_inspection_interval_hours", "notify_emails")
PROPERTY_EDITABLE = ("name", "licence_number", "jurisdiction", *PROPERTY_POLICY)
# The overdue policy: its tables' deadlines move with it (inspections.logbook.deadlines); the time zone
# moves the local midnight from which a later approved version is in effect (configuration_due).
PROPERTY_DEADLINE_POLICY = frozenset({"cover_grace_minutes", "max_inspection_interval_hours", "time_zone"})


def _property_has_records(prop: Property) -> bool:
    """What was kept under the property's jurisdiction: its logbook, flags and submissions."""
    return prop.entries.exists() or prop.flags.exists() or prop.rules_submissions.exists() or prop.layouts.exists()


@transaction.atomic
def property_update(*, property_id: int, actor: User, changes: dict) -> Property:
    """Change a property; a change of its overdue policy moves its tables' deadlines at once."""
    _only_editable(changes, PROPERTY_EDITABLE)
    if not properties_managed_by(actor).filter(pk=property_id).exists():
        raise PermissionDenied("Only an administrator or this property's compliance manager changes it.")
    if not is_administrator(actor) and set(changes) - set(PROPERTY_POLICY):
        raise PermissionDenied("A compliance manager changes the time zone and the overdue policy only.")
    tables = []
    if PROPERTY_DEADLINE_POLICY & set(changes):
        # Lock the tables before the property, in the logbook's order (a table, then its property's
        # chain: inspections.logbook.services), so an entry at the same moment waits instead of deadlocking.
        tables = list(
            GamingTable.objects.select_for_update(of=("self",)).filter(property_id=property_id).order_by("pk")
        )
    # The row is read again under its lock and only the changed columns are written: the chain
    # head that an entry moved meanwhile is never put back.
    prop = Property.objects.select_for_update().get(pk=property_id)
    changed = {name: value for name, value in changes.items() if getattr(prop, name) != value}
    if not changed:
        return prop
    if "jurisdiction" in changed:
        # The tables are locked too when the policy changes (above); entries are appended under the
        # property's lock held here, so none is added between this check and the write.
        rules = rulebook_for(prop.jurisdiction)
        raise_if_any([rules.property_may_change_jurisdiction(prop=prop, has_records=_property_has_records(prop))])
    for name, value in changed.items():
        setattr(prop, name, value)
    prop.full_clean(exclude=[name for name in PROPERTY_EDITABLE if name not in changed], validate_unique=True)
    prop.save(update_fields=list(changed))
    if PROPERTY_DEADLINE_POLICY & set(changed):
        for table in tables:
            table.property = prop
            deadlines_set(table)
            table.save(update_fields=DEADLINE_FIELDS)
    if "time_zone" in changed:
        open_tables_recheck(property_id=prop.pk)
    return prop


# ---- Tables ----

TABLE_EQUIPMENT = ("wheel", "ball")
# Every column of a table a person may set; the rest (state, times, deadlines) follow its logbook.
TABLE_EDITABLE = (
    "property",
    "number",
    "game",
    "wheel_type",
    "has_external_movable_parts",
    "electronic",
    *TABLE_EQUIPMENT,
)
TABLE_DEFAULTS = {"game": "roulette", "wheel_type": None, "has_external_movable_parts": False, "electronic": False}


def _only_editable(changes: dict, editable: tuple[str, ...]) -> None:
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
    _only_editable(fields, TABLE_EDITABLE)
    if not properties_managed_by(actor).filter(pk=fields["property"].pk).exists():
        raise PermissionDenied("Only an administrator or this property's compliance manager adds its tables.")
    equipment_lock(fields)
    raise_if_any(table_violations(table=None, changes=fields))
    table = GamingTable(**{**TABLE_DEFAULTS, **fields})
    table.full_clean(validate_unique=True)
    deadlines_set(table)
    table.save(force_insert=True)
    return table


@transaction.atomic
def table_update(*, table_id: int, actor: User, changes: dict) -> GamingTable:
    """Change a table's number, configuration or equipment, under its row lock, by the rules.

    Only the changed columns are written, so an entry recorded between the caller's read and this
    write keeps the state it gave the table. A change of configuration (product policy from
    § 617a.2(a), (d): only while the table is closed) voids its inspection: it opens only after a
    new one, with the checklist of its new configuration.
    """
    _only_editable(changes, TABLE_EDITABLE)
    table = GamingTable.objects.select_for_update(of=("self",)).select_related("property").get(pk=table_id)
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
    fields = list(changed)
    rules = rulebook_for(table.property.jurisdiction)
    if set(changed) & {*rules.TABLE_CONFIGURATION, *TABLE_EQUIPMENT}:
        # What the last inspection inspected is no longer what is on the table.
        table.inspection_void_reason = "configuration"
        fields.append("inspection_void_reason")
    if "property" in changed or set(changed) & set(rules.TABLE_CONFIGURATION):
        deadlines_set(table)  # the new property's policy; the game's own deadlines
        fields.extend(DEADLINE_FIELDS)
    table.save(update_fields=sorted(set(fields)))
    return table


# ---- People ----

# What a person's row holds that a person may set; the password is set by Django's own forms
# (or at creation here), the sign-in times by Django.
PERSON_EDITABLE = (
    "username",
    "email",
    "first_name",
    "last_name",
    "full_name",
    "role",
    "credential_number",
    "property",
    "jurisdiction",
    "is_active",
    "is_staff",
    "is_superuser",
)


def _person_value(person: User, name: str):
    return person.property_id if name == "property" else getattr(person, name)


def _person_changed(person: User, changes: dict) -> dict:
    def comparable(name, value):
        return value.pk if name == "property" and value is not None else value

    return {name: value for name, value in changes.items() if _person_value(person, name) != comparable(name, value)}


def _person_has_signed(person: User) -> bool:
    """A signature in the logbook or on an approval, an entry recorded, a flag resolved (the
    logbook's models by name: its app depends on this one, not the other way)."""
    entries = apps.get_model("logbook", "Entry").objects.filter(recorded_by=person)
    flags = apps.get_model("flags", "ComplianceException").objects.filter(resolved_by=person)
    return person.signatures.exists() or person.approval_signatures.exists() or entries.exists() or flags.exists()


def _person_rules(person: User):
    return rulebook_for(person.property.jurisdiction if person.property_id else person.jurisdiction or "PA")


def person_violations(*, person: User, changes: dict) -> list[Violation]:
    """Every rule a change of a person breaks, saving nothing (person_update asks it under the
    person's lock; the admin's form asks it to show the refusal beside its field)."""
    changed = _person_changed(person, changes)
    if not {"credential_number", "property", "jurisdiction"} & set(changed):
        return []
    return _person_rules(person).person_may_change(
        person=person, changed=set(changed), has_signed=_person_has_signed(person)
    )


@transaction.atomic
def person_create(*, actor: User, password: str | None, **fields) -> User:
    """A new person. An administrator adds anyone; a compliance manager adds their own property's
    staff. Without a password (the admin's choice) the person cannot sign in until one is set."""
    _only_editable(fields, PERSON_EDITABLE)
    if not is_administrator(actor):
        if fields.get("role") not in STAFF_ROLES or fields.get("is_staff") or fields.get("is_superuser"):
            raise PermissionDenied("A compliance manager adds security, floor, maintenance and compliance staff.")
        prop = fields.get("property")
        if prop is None or not properties_managed_by(actor).filter(pk=prop.pk).exists():
            raise PermissionDenied("A compliance manager adds staff to their own property.")
    fields.setdefault("is_staff", fields.get("role") == Role.ADMIN)
    person = User(**fields)
    if password is None:
        person.set_unusable_password()
    else:
        validate_password(password, person)
        person.set_password(password)
    person.full_clean(exclude=["password"], validate_unique=True)
    person.save(force_insert=True)
    return person


@transaction.atomic
def person_update(*, person_id: int, actor: User, changes: dict) -> User:
    """Change a person, under their row lock, by the rules: once they have signed, their credential
    number (on every signature, § 617a.2(e)) and their property or jurisdiction stay as they are."""
    _only_editable(changes, PERSON_EDITABLE)
    if not is_administrator(actor):
        raise PermissionDenied("Only an administrator changes a person.")
    person = User.objects.select_for_update(of=("self",)).select_related("property").get(pk=person_id)
    changed = _person_changed(person, changes)
    if not changed:
        return person
    raise_if_any(person_violations(person=person, changes=changed))
    for name, value in changed.items():
        setattr(person, name, value)
    person.full_clean(exclude=["password"], validate_unique=True)
    person.save(update_fields=list(changed))
    return person
