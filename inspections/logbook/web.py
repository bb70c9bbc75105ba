"""The floor logbook in the browser: thin views over the same selectors and services as the API."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from compliance.accounts.idempotency import AlreadyRecorded, already_recorded_redirect, form_write_once
from compliance.accounts.models import Role
from compliance.approvals.selectors import layout_approved_for, rules_submission_in_effect
from compliance.casinos.clock import property_today
from compliance.casinos.models import Game, TableState, WheelType
from compliance.casinos.selectors import balls_visible_to, properties_visible_to, tables_visible_to
from compliance.rulebook import RuleViolation, Violation, table_states
from compliance.rulebook.configurations import configuration_of
from compliance.rulebook.games import casino_war as casino_war_rules
from compliance.rulebook.games.casino_war import CARD_CHECKS
from compliance.rulebook.games.roulette import NOT_CHOSEN
from compliance.rulebook.roles import MAY
from compliance.rulebook.table_states import actions_from
from compliance.rulebook.violations import cited
from compliance.rulebook.words import option_label
from inspections.logbook import services
from inspections.logbook.forms import (
    AdjustmentForm,
    AmendmentForm,
    BallChangeForm,
    InspectionForm,
    IrregularityForm,
    TableEventForm,
    photo_fields,
)
from inspections.logbook.models import Entry, EntryKind, EntryPhoto, amendment_label
from inspections.logbook.photos import photo_response
from inspections.logbook.selectors import entries_visible_to, floor_summary, floor_tables

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

PAGE = 25  # timeline entries on a table's page
SUMMARY_PAGE = 25  # properties on a page of a regulator's floor summary

# The actions each state allows a Roulette table, in the order a floor person does them: the
# rulebook's transitions (table_states.actions_from; in play it also offers a "no spin", and another
# game's table no cover, § 617a.2(f) being the Roulette wheel's).
ACTIONS = {
    state: tuple(kind for kind in actions_from(state, game=Game.ROULETTE) if kind != EntryKind.IRREGULARITY)
    for state in TableState
}
# What a table needs next, in words, by state: its first action (docs/architecture.md: The table's state machine).
NEXT_STEP_WORDS: dict[str, StrPromise] = {
    EntryKind.UNLOCK: pgettext_lazy("next step", "Unlock the wheel"),
    EntryKind.INSPECTION: pgettext_lazy("next step", "Inspect (§ 617a.2(a))"),
    EntryKind.COVER: pgettext_lazy("next step", "Cover and lock the wheel (§ 617a.2(f))"),
    EntryKind.OPEN: pgettext_lazy("next step", "Open for play"),
    EntryKind.CLOSE: pgettext_lazy("next step", "In play"),
}
NEXT_STEP = {state: NEXT_STEP_WORDS[ACTIONS[state][0]] for state in TableState}
# An open table whose inspection no longer counts (failed, or a part adjusted or replaced since):
# play stops until an inspection passes (§ 617a.2(a), (c), (d)); the state is still "open".
STOP_PLAY = pgettext_lazy("next step", "Stop play and inspect again (§ 617a.2(a))")


def next_step(table) -> str | StrPromise:
    """What the table needs next, in words: a Big Six or Casino War table (no § 617a.2 procedure)
    opens from any state but open."""
    if table.game != Game.ROULETTE and table.status.state != TableState.OPEN:
        return NEXT_STEP_WORDS[EntryKind.OPEN]
    if table.status.state == TableState.OPEN and table.status.inspection_void_reason:
        return STOP_PLAY
    return NEXT_STEP.get(table.status.state, "")


ACTION_LABELS = {
    EntryKind.UNLOCK: gettext_lazy("Unlock"),
    EntryKind.INSPECTION: gettext_lazy("Inspect"),
    EntryKind.ADJUSTMENT: gettext_lazy("Adjust or replace"),
    table_states.BALL_CHANGE: gettext_lazy("Change the ball"),
    EntryKind.OPEN: pgettext_lazy("action", "Open"),
    EntryKind.CLOSE: gettext_lazy("Close"),
    EntryKind.COVER: gettext_lazy("Cover and lock"),
    EntryKind.IRREGULARITY: gettext_lazy("No spin (irregularity)"),
}
ADJUSTMENT_KIND_CHOICES = (("adjustment", gettext_lazy("adjustment")), ("replacement", gettext_lazy("replacement")))
# The entries the amendment form amends (every kind: any may be marked entered in error).
AMENDABLE = frozenset(kind for kind, names in services.CORRECTABLE.items() if AmendmentForm.offered_for(names))


def _table(request, pk: int):
    return get_object_or_404(tables_visible_to(request.user).select_related("wheel", "ball"), pk=pk)


def _roles(roles) -> str:
    return ", ".join(sorted(str(Role(role).label).lower() for role in roles))


def require_may(user, action: str, what: str) -> None:
    """Refuse unless the person may do `action` (User.may); the 403 page says which roles may do
    this, and which one the person has."""
    if not user.may(action):
        raise PermissionDenied(
            _("%(what)s needs one of these roles: %(roles)s. You are signed in as: %(role)s.")
            % {"what": what, "roles": _roles(MAY[action]), "role": user.get_role_display().lower()}
        )


def _require_writer(user) -> None:
    require_may(user, "logbook.write", _("Recording in the logbook"))


@login_required
def home(request):
    """Each role's home: the regulator's properties, the compliance manager's configuration, the floor."""
    if request.user.may("approvals.decide"):
        # A page at a time, by name: a jurisdiction may have hundreds (no COUNT of them).
        number = page_number(request)
        start = (number - 1) * SUMMARY_PAGE
        visible = properties_visible_to(request.user).order_by("name", "pk")
        properties = list(visible.values("pk", "name", "licence_number", "time_zone")[start : start + SUMMARY_PAGE + 1])
        return render(
            request,
            "floor/regulator_home.html",
            {
                "properties": properties[:SUMMARY_PAGE],
                "previous_page": number - 1 if number > 1 else None,
                "next_page": number + 1 if len(properties) > SUMMARY_PAGE else None,
            },
        )
    if request.user.may("approvals.file"):
        return redirect("manage")
    return redirect("floor")


@login_required
def floor(request):
    tables = tables_visible_to(request.user).order_by("property__name", "number")
    if request.GET.get("property", "").isdigit():
        tables = tables.filter(property_id=int(request.GET["property"]))
    elif request.user.property_id is None:
        # A regulator's jurisdiction (an administrator's whole site) has many properties: its floor is
        # a summary, a tile per property linking to that property's floor, a page at a time.
        return floor_properties(request)
    tables = floor_tables(tables)
    rows: list[dict[str, Any]] = [
        {"table": table, "next": next_step(table), "zone": table.property.zone} for table in tables
    ]
    # Overdue tables first (flagged, or past their next deadline), the rest in their order: at 3 a.m.
    # the floor's top row is what is late.
    now = timezone.now()
    rows.sort(
        key=lambda row: (
            not (
                getattr(row["table"], "open_flags", ())
                or (row["table"].status.next_due and row["table"].status.next_due <= now)
            )
        )
    )
    return render(request, "floor/dashboard.html", {"rows": rows})


def page_number(request) -> int:
    """The `page` asked for (1 when absent or not a positive number)."""
    text = request.GET.get("page", "")
    return int(text) if text.isdigit() and 0 < int(text) < 10**6 else 1


def _property_tile(prop: dict, say: Callable[..., str], licence: str) -> dict:
    """A property's tile on a regulator's floor (floor_summary's values), its words translated: `say`
    is ngettext, `licence` the translated "Licence %(licence)s"; the template writes the markup."""
    tables, opened, overdue = prop["table_count"], prop["open_count"], prop["overdue_count"]
    flags = prop.get("open_flag_count", 0)
    return {
        "pk": prop["pk"],
        "name": prop["name"],
        "licence": licence % {"licence": prop["licence_number"]},
        "counts": say("%(tables)d table, %(open)d open", "%(tables)d tables, %(open)d open", tables)
        % {"tables": tables, "open": opened},
        "late": overdue
        and say("%(overdue)d table overdue", "%(overdue)d tables overdue", overdue) % {"overdue": overdue},
        "flagged": flags and say("%(flags)d open flag", "%(flags)d open flags", flags) % {"flags": flags},
    }


def floor_properties(request):
    number = page_number(request)
    properties, more = floor_summary(request.user, now=timezone.now(), page=number, size=SUMMARY_PAGE)
    # The words of a count looked up once a page for each count (a jurisdiction's tiles share most).
    say, licence = functools.cache(ngettext), _("Licence %(licence)s")
    tiles = [_property_tile(prop, say, licence) for prop in properties]
    return render(
        request,
        "floor/properties.html",
        {
            "tiles": tiles,
            "previous_page": number - 1 if number > 1 else None,
            "next_page": number + 1 if more else None,
        },
    )


@login_required
def table_page(request, pk: int):
    # With what the other apps show of it (its open flags: `table.open_flags`).
    table = get_object_or_404(floor_tables(tables_visible_to(request.user).select_related("wheel", "ball")), pk=pk)
    # Newest first, 25 at a time, by position in the chain rather than by page number: a table's
    # entries follow each other in time (§ 617a.2(e)), and "older than #n" costs the same on the
    # first page as on the last, however long the history (no COUNT, no OFFSET).
    entries = Entry.objects.filter(table=table).for_register().order_by("-seq")
    before = request.GET.get("before", "")
    if before.isdigit():
        entries = entries.filter(seq__lt=int(before))
    rows = list(entries[: PAGE + 1])
    page: dict[str, Any] = {
        "entries": rows[:PAGE],
        "older": rows[PAGE - 1].seq if len(rows) > PAGE else None,
        "first": not before,
    }
    # What the timeline shows after each entry's kind, in the reader's language where the record's
    # description is words the logbook wrote itself (an inspection's result, a "no spin"'s reason).
    rulebook = table.property.rulebook()
    checklist = rulebook.checklist_for(table)
    reasons = {**dict(rulebook.IRREGULARITY_KINDS), **dict(casino_war_rules.IRREGULARITY_KINDS)}
    named = {
        (entry.details or {}).get("new_ball")
        for entry in page["entries"]
        if entry.kind in (EntryKind.IRREGULARITY, EntryKind.REPLACEMENT)
    }
    named.discard(None)
    serials = dict(balls_visible_to(request.user).filter(pk__in=named).values_list("pk", "serial")) if named else {}
    amended = {entry.amends_id for entry in page["entries"] if entry.kind == EntryKind.AMENDMENT}
    amended_seq = dict(Entry.objects.filter(pk__in=amended).values_list("pk", "seq")) if amended else {}
    for entry in page["entries"]:
        if entry.kind == EntryKind.INSPECTION:
            entry.said = inspection_said(entry, checklist)
        elif entry.kind == EntryKind.IRREGULARITY:
            entry.said = irregularity_said(entry, reasons, serials)
        elif outcome_kind(entry) == table_states.BALL_CHANGE:
            entry.said = ball_change_said(entry, serials)
        elif entry.kind == EntryKind.AMENDMENT:
            entry.said = amendment_said(entry, amended_seq)
    layout = layout_approved_for(table_id=table.pk)
    rules_in_effect = rules_submission_in_effect(
        property_id=table.property_id, game=table.game, on=property_today(table.property)
    )
    configuration = configuration_of(rules_in_effect, table.configuration)
    actions, not_offered = [], []
    # In the order a floor person does them from this state (the next step first), then the rest.
    order = list(actions_from(table.status.state, table.game))
    writer = request.user.may("logbook.write")
    if writer:
        answers = floor_actions(request.user, table, layout=layout, rules_submission=rules_in_effect)
        # A ball change goes with the adjustments (it moves the table as a replacement does).
        order = [
            kind
            for event in order
            for kind in ((event, table_states.BALL_CHANGE) if event == "adjustment" else (event,))
        ]
        answers.sort(key=lambda answer: order.index(answer[0]) if answer[0] in order else len(order))
        for kind, reason in answers:
            label = action_label(table, kind)
            if reason is None:
                actions.append((label, action_url(table, kind)))
            else:
                not_offered.append((label, reason))
    return render(
        request,
        "floor/table.html",
        {
            "table": table,
            "page": page,
            "zone": table.property.zone,
            "actions": actions,
            "not_offered": not_offered,
            "amendable": AMENDABLE,
            "writer": writer,  # asked once, not on every row
            "next": next_step(table),
            # What the regulator approved for it, as the gate at opening sees it.
            "layout": layout,
            "rules": rules_in_effect,
            # The configuration of that submission the table uses: what it offers.
            "configuration": configuration,
            "configuration_wheels": _wheels_said(configuration.wheel_types) if configuration else "",
            "configuration_wagers": _offer_said(configuration) if configuration else "",
        },
    )


def action_label(table, kind: str) -> str | StrPromise:
    """The action's name on the table's page: a Casino War table's irregularity is no "no spin"."""
    if kind == EntryKind.IRREGULARITY and table.game == Game.CASINO_WAR:
        return _("Irregularity")
    return ACTION_LABELS[kind]


def floor_actions(user, table, *, layout=None, rules_submission=None) -> list[tuple[str, Violation | None]]:
    """Each action the floor names for the table: None where this person may record it now, else the
    rule that refuses it (its state, its wheel, the person's role), as the service would after the
    signatures. Opening also needs what the regulator approved, in effect today."""
    rules = table.property.rulebook()
    opening = rules.configuration_ready(table=table, layout=layout, rules_submission=rules_submission)
    return table_states.actions_for(rules, table=table, person=user, opening=opening)


def _cited(violation: Violation) -> str:
    return f"{violation.message} ({violation.cited})" if violation.citation else violation.message


def _done(request, table, entry, *, state_before: str) -> object:
    """What the entry did and what the table needs next, at once: from the entry's own transaction
    (its outcome by the rulebook, the flags it raised and cured), never from a later scan."""
    table = tables_visible_to(request.user).get(pk=table.pk)  # as the entry left it, with its property: one query
    rules = table.property.rulebook()
    outcome = rules.entry_outcome(table=table, kind=outcome_kind(entry), state_before=state_before, passed=entry.passed)
    recorded = _("Recorded: %(what)s (table %(table)s, entry #%(seq)s).") % {
        "what": _("Ball change") if outcome_kind(entry) == table_states.BALL_CHANGE else entry.get_kind_display(),
        "table": table.number,
        "seq": entry.seq,
    }
    if entry.kind == EntryKind.INSPECTION and entry.passed is False:
        recorded = _("Recorded: %(what)s (table %(table)s, entry #%(seq)s).") % {
            "what": inspection_said(entry, rules.checklist_for(table)),
            "table": table.number,
            "seq": entry.seq,
        }
    if outcome is None:
        messages.success(request, recorded)
    else:
        messages.error(request, f"{recorded} {_cited(outcome)}")
    kinds = rules.FLAG_KINDS_BY_CODE
    # The flags this entry cured and raised, in its transaction (inspections.flags receives entry_recorded):
    # both the table's, read in one query through the table's index (no index leads with the curing
    # entry: by it alone, every flag of every property would be scanned).
    flags = list(table.flags.filter(Q(cured_by_entry=entry) | Q(detected_at=entry.recorded_at, status="open")))
    for flag in [flag for flag in flags if flag.cured_by_entry_id == entry.pk]:
        label = _(kinds[flag.kind].label) if flag.kind in kinds else flag.kind
        messages.success(request, _("Flag cured by this entry: %(flag)s.") % {"flag": label})
    for flag in [flag for flag in flags if flag.cured_by_entry_id != entry.pk]:
        label = _(kinds[flag.kind].label) if flag.kind in kinds else flag.kind
        messages.error(
            request,
            _("Flag raised by this entry: %(flag)s (%(citation)s).")
            % {"flag": label, "citation": cited(flag.citation)},
        )
    return redirect("table", pk=table.pk)


def outcome_kind(entry: Entry) -> str:
    """The event an entry was, as the rulebook's outcome names it: a replacement that changed the ball is a ball change."""
    if entry.kind == EntryKind.REPLACEMENT and (entry.details or {}).get("new_ball") is not None:
        return table_states.BALL_CHANGE
    return entry.kind


def ball_change_said(entry: Entry, serials: dict[int, str]) -> str:
    """A ball change in the reader's language: the ball taken off and the ball put on, by serial (an
    entry signed before the serials were kept in it names the ball put on by its id: looked up), then
    what was typed (as written)."""
    details = entry.details or {}
    said = _("Ball %(off)s taken off, ball %(on)s put on") % {
        "off": details.get("ball_off") or (_("(none registered)") if "ball_off" in details else _("(not recorded)")),
        "on": details.get("ball_on") or serials.get(details.get("new_ball") or 0, "?"),
    }
    return f"{said}. {entry.description}" if entry.description else said


def inspection_said(entry: Entry, checklist) -> str:
    """An inspection's result in the reader's language, its failed items by their labels; the entry's
    description keeps the record's words (English), shown where its items are not the checklist's."""
    items = (entry.details or {}).get("items")
    labels = {item.code: item.label for item in checklist}
    if not isinstance(items, dict) or not items or not set(items) <= set(labels):
        return entry.description
    if entry.passed:
        return _("Inspection passed")
    failed = "; ".join(_(label) for code, label in labels.items() if items.get(code) is False)
    return _("Inspection FAILED: %(items)s") % {"items": failed}


def entry_described(request, entry: Entry, rules) -> str:
    """An entry's description in the reader's language where the logbook wrote it (an inspection's
    result, a table event, a "no spin", an amendment), as typed where a person wrote it."""
    if entry.kind == EntryKind.INSPECTION:
        return inspection_said(entry, rules.checklist_for(entry.table))
    if entry.kind == EntryKind.IRREGULARITY:
        reasons = {**dict(rules.IRREGULARITY_KINDS), **dict(casino_war_rules.IRREGULARITY_KINDS)}
        ball = (entry.details or {}).get("new_ball")
        serials = dict(balls_visible_to(request.user).filter(pk=ball).values_list("pk", "serial")) if ball else {}
        return irregularity_said(entry, reasons, serials)
    if entry.kind == EntryKind.AMENDMENT:
        amended = dict(Entry.objects.filter(pk=entry.amends_id or 0).values_list("pk", "seq"))
        return amendment_said(entry, amended)
    if entry.description and entry.description == services.EVENT_DESCRIPTIONS.get(entry.kind):
        return _(entry.description)
    return entry.description


def amendment_said(entry: Entry, amended_seq: dict[int, int]) -> str:
    """An amendment in the reader's language (the record's description keeps English): what it marks
    the entry it amends, and the reason as the person typed it."""
    details = entry.details or {}
    seq = amended_seq.get(entry.amends_id or 0)
    if seq is None or "reason" not in details:
        return entry.description
    reason = details["reason"]
    if details.get("amendment_kind", "correction") == "correction":
        return _("Amends entry #%(seq)s: %(reason)s") % {"seq": seq, "reason": reason}
    label = amendment_label(details, translate=_)
    return _("Entry #%(seq)s marked %(label)s: %(reason)s") % {"seq": seq, "label": label, "reason": reason}


def irregularity_said(entry: Entry, reasons: dict[str, str], serials: dict[int, str]) -> str:
    """A "no spin" (or a Casino War irregularity) in the reader's language: its reason by its label,
    the ball put in play; the entry's description where its reason is not one the rulebook names."""
    details = entry.details or {}
    code = details.get("irregularity")
    if code not in reasons:
        return entry.description
    if code in dict(casino_war_rules.IRREGULARITY_KINDS):
        return _("Irregularity: %(reason)s") % {"reason": _(reasons[code])}
    said = _("No spin: %(reason)s") % {"reason": _(reasons[code])}
    if details.get("new_ball") in serials:
        return said + _("; ball replaced by %(ball)s") % {"ball": serials[details["new_ball"]]}
    return said + (_("; ball replaced") if details.get("ball_replaced") else "")


def _wheels_said(codes: list[str]) -> str:
    """A configuration's wheel types by their labels, in the language in use ("single zero, double zero")."""
    known = {value: label for value, label in WheelType.choices}
    return ", ".join(str(known[code]).lower() if code in known else code.replace("_", " ") for code in codes)


def _offer_said(configuration) -> str:
    """What a configuration offers, in the language in use: its wagers' count, its options by their labels."""
    count = len(configuration.payout_odds)
    line = ngettext("%(count)s wager", "%(count)s wagers", count) % {"count": count}
    chosen = [_(option_label(name)) for name, value in configuration.options.items() if value not in NOT_CHOSEN]
    return line + (_("; options: %(options)s") % {"options": ", ".join(chosen)} if chosen else "")


def _not_offered(request, table, kind: str) -> object | None:
    """The page saying why this action is not open to this person at this table now, before any
    password is typed; None where it is (a refusal after signing stays the service's)."""
    if request.method == "POST":
        return None  # the service decides, with the table locked
    layout = layout_approved_for(table_id=table.pk)
    in_effect = rules_submission_in_effect(
        property_id=table.property_id, game=table.game, on=property_today(table.property)
    )
    reason = dict(floor_actions(request.user, table, layout=layout, rules_submission=in_effect)).get(kind)
    if reason is None:
        return None
    return render(
        request,
        "floor/not_offered.html",
        {"table": table, "title": action_label(table, kind), "reason": reason},
    )


def _signed_action(
    request, table, form, *, title: str | StrPromise, kind: str, record, template: str = "floor/action.html", extra=None
) -> object:
    """Record on a valid POST; on a refusal, the rule's words go next to their fields and what was
    typed stays. `record(form)` calls the one service that writes the entry."""
    state_before = table.status.state
    if request.method == "POST" and form.is_valid():
        try:
            entry = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: record(form),
                recorded=lambda entry: (
                    _("#%(seq)s: %(kind)s at table %(table)s")
                    % {"seq": entry.seq, "kind": entry.get_kind_display(), "table": table.number},
                    reverse("table", args=[table.pk]),
                ),
            )
        except RuleViolation as refusal:
            form.show(refusal)
        else:
            if isinstance(entry, AlreadyRecorded):
                return already_recorded_redirect(request, entry)
            return _done(request, table, entry, state_before=state_before)
    return render(request, template, {"table": table, "form": form, "title": title, "kind": kind, **(extra or {})})


@login_required
def table_event(request, pk: int, kind: str):
    table = _table(request, pk)
    if kind not in (EntryKind.UNLOCK, EntryKind.OPEN, EntryKind.CLOSE, EntryKind.COVER):
        return redirect("table", pk=pk)
    _require_writer(request.user)
    refused = _not_offered(request, table, kind)
    if refused:
        return refused
    cards = CARD_CHECKS if kind == EntryKind.OPEN and table.game == Game.CASINO_WAR else ()
    form = TableEventForm(request.POST or None, request=request, card_checks=cards)
    return _signed_action(
        request,
        table,
        form,
        title=ACTION_LABELS[kind],
        kind=kind,
        record=lambda form: services.table_event_record(
            table_id=table.pk,
            kind=kind,
            signature=form.signature(),
            recorded_by=request.user,
            cards=form.cleaned_data.get("cards") or None,
        ),
    )


@login_required
def inspection(request, pk: int):
    table = _table(request, pk)
    _require_writer(request.user)
    refused = _not_offered(request, table, EntryKind.INSPECTION)
    if refused:
        return refused
    checklist = table.property.rulebook().checklist_for(table)
    form = photo_fields(
        InspectionForm(request.POST or None, request.FILES or None, checklist=checklist, request=request),
        checklist=checklist,
    )
    return _signed_action(
        request,
        table,
        form,
        title=_("Inspection (§ 617a.2(a))"),
        kind="inspection",
        record=lambda form: services.inspection_record(
            table_id=table.pk,
            items=form.items(),
            notes=form.cleaned_data["notes"],
            signature=form.signature(),
            recorded_by=request.user,
            photos=form.cleaned_data["photos"],
            photo_item=form.cleaned_data["photo_item"],
        ),
    )


@login_required
def adjustment(request, pk: int):
    table = _table(request, pk)
    _require_writer(request.user)
    refused = _not_offered(request, table, EntryKind.ADJUSTMENT)
    if refused:
        return refused
    form = photo_fields(AdjustmentForm(request.POST or None, request.FILES or None, request=request))
    form.fields["username"].label = _("Made by (username)")
    return _signed_action(
        request,
        table,
        form,
        title=_("Adjustment or replacement (§ 617a.2(b))"),
        kind="adjustment",
        template="floor/adjust.html",
        # § 617a.2(c), (d): at an open table, said before anyone signs.
        extra={"warning": table.property.rulebook().adjustment_in_play(table=table)},
        record=lambda form: services.adjustment_record(
            table_id=table.pk,
            kind=form.cleaned_data["kind"],
            part=form.cleaned_data["part"],
            description=form.cleaned_data["description"],
            performer=form.signature(),
            witness=form.witness(),
            recorded_by=request.user,
            photos=form.cleaned_data["photos"],
        ),
    )


@login_required
def ball_change(request, pk: int):
    """A ball change on any Roulette table (product policy: the ball is not a part of the wheel; it is
    changed as a part is replaced, and inspected before play)."""
    table = _table(request, pk)
    _require_writer(request.user)
    refused = _not_offered(request, table, table_states.BALL_CHANGE)
    if refused:
        return refused
    # The spares: a ball on another table is never offered (the rulebook refuses it anyway).
    balls = balls_visible_to(request.user).filter(property_id=table.property_id, tables__isnull=True)
    form = photo_fields(
        BallChangeForm(request.POST or None, request.FILES or None, request=request, balls=balls.order_by("serial"))
    )
    form.fields["username"].label = _("Made by (username)")
    rules = table.property.rulebook()
    return _signed_action(
        request,
        table,
        form,
        title=_("Ball change"),
        kind=table_states.BALL_CHANGE,
        template="floor/ball_change.html",
        extra={"warning": rules.ball_change_in_play(table=table), "ball_off": table.ball, "rule": rules.BALL_CHANGE},
        record=lambda form: services.ball_change_record(
            table_id=table.pk,
            new_ball=form.cleaned_data["new_ball"],
            description=form.cleaned_data["description"],
            performer=form.signature(),
            witness=form.witness(),
            recorded_by=request.user,
            photos=form.cleaned_data["photos"],
        ),
    )


@login_required
def irregularity(request, pk: int):
    table = _table(request, pk)
    _require_writer(request.user)
    refused = _not_offered(request, table, EntryKind.IRREGULARITY)
    if refused:
        return refused
    rules = table.property.rulebook()
    casino_war = table.game == Game.CASINO_WAR
    # The spares: a ball on another table is never offered (the rulebook refuses it anyway).
    balls = balls_visible_to(request.user).filter(property_id=table.property_id, tables__isnull=True)
    form = IrregularityForm(
        request.POST or None,
        request.FILES or None,
        # A Casino War table's irregularities are § 651a.11's (the shoe, the shuffler), with no ball.
        kinds=casino_war_rules.IRREGULARITY_KINDS if casino_war else rules.IRREGULARITY_KINDS,
        balls=None if casino_war else balls.order_by("serial"),
        request=request,
    )
    if casino_war:
        del form.fields["ball_replaced"], form.fields["new_ball"]
    photo_fields(form)
    return _signed_action(
        request,
        table,
        form,
        title=_("Irregularity (%(citation)s)") % {"citation": casino_war_rules.IRREGULARITIES}
        if casino_war
        else _("No spin (%(citation)s)") % {"citation": rules.IRREGULARITIES},
        kind="irregularity",
        record=lambda form: services.irregularity_record(
            table_id=table.pk,
            kind=form.cleaned_data["kind"],
            ball_replaced=form.cleaned_data.get("ball_replaced", False),
            new_ball=form.cleaned_data.get("new_ball"),
            notes=form.cleaned_data["notes"],
            signature=form.signature(),
            recorded_by=request.user,
            photos=form.cleaned_data["photos"],
        ),
    )


@login_required
def entry_photo(request, entry_pk: int, position: int):
    """A photo of an entry (its copy without metadata), only to one who may see the entry: anyone
    else, another property's people included, is told it does not exist."""
    entry = get_object_or_404(entries_visible_to(request.user), pk=entry_pk)
    return photo_response(get_object_or_404(EntryPhoto, entry=entry, position=position))


@login_required
def amendment(request, entry_pk: int):
    entry = get_object_or_404(entries_visible_to(request.user).select_related("table__property"), pk=entry_pk)
    table = entry.table
    _require_writer(request.user)
    zone = table.property.zone
    rules = table.property.rulebook()
    kinds_by_entry: dict[str, Any] = {
        EntryKind.IRREGULARITY: rules.IRREGULARITY_KINDS,
        EntryKind.ADJUSTMENT: ADJUSTMENT_KIND_CHOICES,
        EntryKind.REPLACEMENT: ADJUSTMENT_KIND_CHOICES,
    }
    kinds = kinds_by_entry.get(entry.kind, ())
    form = AmendmentForm(
        request.POST or None,
        request.FILES or None,
        correctable=services.CORRECTABLE[entry.kind],
        zone=zone,
        kinds=kinds,
        checklist=rules.checklist_for(table) if entry.kind == EntryKind.INSPECTION else (),
        request=request,
    )
    photo_fields(form)
    return _signed_action(
        request,
        table,
        form,
        title=_("Amend entry #%(seq)s (%(citation)s)")
        % {"seq": entry.seq, "citation": table.property.rulebook().INSPECTION_LOG},
        kind="amendment",
        template="floor/amend.html",
        extra={"entry": entry, "zone": zone, "described": entry_described(request, entry, rules)},
        record=lambda form: services.amendment_record(
            entry_id=entry.pk,
            reason=form.cleaned_data["reason"],
            correction=form.correction(),
            amendment_kind=form.kind_chosen(),
            duplicate_of=form.duplicate_number(),
            signature=form.signature(),
            recorded_by=request.user,
            photos=form.cleaned_data["photos"],
        ),
    )


def action_url(table, kind: str) -> str:
    if kind == EntryKind.INSPECTION:
        return reverse("inspect", args=[table.pk])
    if kind == EntryKind.ADJUSTMENT:
        return reverse("adjust", args=[table.pk])
    if kind == table_states.BALL_CHANGE:
        return reverse("ball-change", args=[table.pk])
    if kind == EntryKind.IRREGULARITY:
        return reverse("irregularity", args=[table.pk])
    return reverse("table-event", args=[table.pk, kind])
