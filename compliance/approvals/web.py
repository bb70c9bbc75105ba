"""The compliance manager's and the regulator's pages: thin views over the approval services.

A compliance manager keeps the property's Rules Submissions and layouts (drafted, checked live,
filed signed); a regulator decides them, signed, from the approvals queue.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from compliance.accounts.idempotency import (
    AlreadyRecorded,
    already_recorded_redirect,
    form_already_recorded,
    form_write_once,
)
from compliance.accounts.models import Role
from compliance.approvals import services
from compliance.approvals.artwork import artwork_response
from compliance.approvals.forms import DecisionForm, FileForm, LayoutForm, RulesSubmissionForm
from compliance.approvals.models import LayoutStatus, SubmissionStatus
from compliance.approvals.selectors import layouts_visible_to, rules_submissions_visible_to
from compliance.casinos.clock import property_today
from compliance.casinos.models import Game, WheelType
from compliance.casinos.selectors import properties_managed_by, tables_visible_to
from compliance.rulebook import RuleViolation, game_rules_for, malformed, rulebook_for, words
from compliance.rulebook.roles import MAY


def _roles(roles) -> str:
    return " or ".join(sorted(Role(role).label.lower() for role in roles))


def _managed_property(request, pk: int | None = None):
    """The property whose configuration this person keeps (a compliance manager: their own)."""
    managed = properties_managed_by(request.user)
    prop = managed.filter(pk=pk).first() if pk else managed.order_by("name").first()
    if prop is None:
        raise PermissionDenied(
            f"Tables, Rules Submissions and layouts are kept by the property's {_roles(MAY['approvals.file'])}. "
            f"You are signed in as a {request.user.get_role_display().lower()}."
        )
    return prop


def _require_approver(user) -> None:
    if not user.may("approvals.decide"):
        raise PermissionDenied(
            f"The approvals queue is the {_roles(MAY['approvals.decide'])}'s. "
            f"You are signed in as a {user.get_role_display().lower()}."
        )


@login_required
def manage(request):
    prop = _managed_property(
        request, int(request.GET["property"]) if request.GET.get("property", "").isdigit() else None
    )
    tables = tables_visible_to(request.user).filter(property=prop).select_related("wheel", "ball").order_by("number")
    return render(
        request,
        "manage/home.html",
        {
            "property": prop,
            "tables": tables,
            "submissions": rules_submissions_visible_to(request.user).filter(property=prop),
            "layouts": layouts_visible_to(request.user).filter(property=prop),
        },
    )


def _rules_form(prop, data=None, *, initial=None):
    return RulesSubmissionForm(data, game_rules=game_rules_for(prop.jurisdiction), initial=initial)


@login_required
def rules_new(request):
    prop = _managed_property(request)
    form = _rules_form(prop, request.POST or None, initial={"effective_from": property_today(prop)})
    if request.method == "POST" and form.is_valid():
        try:
            submission = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: services.rules_submission_draft(
                    prop=prop,
                    game=Game.ROULETTE,
                    effective_from=form.cleaned_data["effective_from"],
                    created_by=request.user,
                    **form.content(),
                ),
                recorded=lambda submission: (
                    f"draft version {submission.version}",
                    reverse("rules-submission", args=[submission.pk]),
                ),
            )
        except RuleViolation as refusal:
            _show(form, refusal.violations)
        else:
            if isinstance(submission, AlreadyRecorded):
                return already_recorded_redirect(request, submission)
            return _saved(request, submission)
    return render(request, "manage/rules_form.html", {"property": prop, "form": form, "live": _live(form, prop)})


def _saved(request, submission):
    count = len(submission.violations)
    messages.success(
        request,
        (
            _("Draft version %(version)s saved; it still breaks %(count)s rule(s), listed below.")
            if count
            else _("Draft version %(version)s saved; it breaks no rule and may be filed.")
        )
        % {"version": submission.version, "count": count},
    )
    return redirect("rules-submission", pk=submission.pk)


def _show(form, violations) -> None:
    for violation in violations:
        citation = f" ({violation.cited})" if violation.citation else ""
        form.add_error(form.field_for(violation.field), f"{violation.message}{citation}")


def _live(form, prop) -> dict:
    """The violations and house edges of what the form holds now, checked without saving."""
    if not form.is_bound:
        return {}
    if not form.is_valid():
        return {"errors": form.errors}
    content = form.content()
    violations = services.rules_submission_check(prop=prop, game=Game.ROULETTE, **content)
    edges: dict = {}
    notes: dict[str, str] = {}
    if not malformed(violations):
        edges = services.submission_house_edges(jurisdiction=prop.jurisdiction, game=Game.ROULETTE, **content)
        notes = services.submission_house_edge_notes(
            jurisdiction=prop.jurisdiction,
            game=Game.ROULETTE,
            payout_odds=content["payout_odds"],
            options=content["options"],
        )
    return {"checked": True, "violations": _labelled(form, violations), "edges": _edge_rows(form, edges, notes)}


def _labelled(form, violations) -> list[dict]:
    """Each violation with the label of the field it concerns, as the form shows it."""
    rows = []
    for violation in violations:
        v = violation if isinstance(violation, dict) else violation.as_dict()
        name = form.field_for(v.get("field"))
        rows.append({**v, "label": form.fields[name].label if name else ""})
    return rows


def _edge_rows(form, edges: dict, notes: dict[str, str]) -> list[dict]:
    """One row per wager: its edge by wheel type, or why the text does not determine it."""
    labels = {name.removeprefix("odds_"): field.label for name, field in form.fields.items()}
    wheels = dict(WheelType.choices)
    return [
        {
            "wager": labels.get(code, code),
            "edges": {wheels.get(w, w): edge for w, edge in by_wheel.items()},
            "note": notes.get(code, ""),
        }
        for code, by_wheel in edges.items()
    ]


@require_POST
@login_required
def rules_check(request, property_pk: int):
    """htmx: the live list of violations as the draft form changes; nothing is saved."""
    prop = _managed_property(request, property_pk)
    form = _rules_form(prop, request.POST)
    return render(request, "manage/_live_check.html", {"live": _live(form, prop)})


@login_required
def rules_submission(request, pk: int):
    # Sent twice: the first one filed or decided it, so this form no longer applies; say it was recorded.
    if repeat := form_already_recorded(request):
        return already_recorded_redirect(request, repeat)
    submission = get_object_or_404(rules_submissions_visible_to(request.user), pk=pk)
    prop = submission.property
    manages = properties_managed_by(request.user).filter(pk=prop.pk).exists()
    editable = manages and submission.status == SubmissionStatus.DRAFT and submission.game == Game.ROULETTE
    form = file_form = decision_form = None
    action = request.POST.get("action") if request.method == "POST" else None
    if editable:
        data = request.POST if action == "save" else None
        form = _rules_form(prop, data, initial=RulesSubmissionForm.initial_from(submission))
        if action == "save" and form.is_valid():
            try:
                submission = services.rules_submission_update(
                    submission_id=submission.pk, effective_from=form.cleaned_data["effective_from"], **form.content()
                )
            except RuleViolation as refusal:
                _show(form, refusal.violations)
            else:
                return _saved(request, submission)
    if manages and submission.status == SubmissionStatus.DRAFT:
        file_form = FileForm(request.POST if action == "file" else None, request=request)
        if action == "file" and file_form.is_valid():
            try:
                filed = form_write_once(
                    request=request,
                    token=file_form.token(),
                    write=lambda: services.rules_submission_file(
                        submission_id=submission.pk, signature=file_form.signature()
                    ),
                    recorded=lambda filed: (
                        f"the filing of Rules Submission version {submission.version}",
                        reverse("rules-submission", args=[submission.pk]),
                    ),
                )
            except RuleViolation as refusal:
                file_form.show(refusal)
            else:
                if isinstance(filed, AlreadyRecorded):
                    return already_recorded_redirect(request, filed)
                messages.success(
                    request,
                    _("Version %(version)s filed with the regulator, signed.") % {"version": submission.version},
                )
                return redirect("rules-submission", pk=submission.pk)
    if request.user.may("approvals.decide") and submission.status == SubmissionStatus.FILED:
        decision_form, done = _decision_step(
            request,
            action,
            decide=lambda **decision: services.rules_submission_decide(submission_id=submission.pk, **decision),
            what=f"Rules Submission version {submission.version}",
        )
        if done:
            return done
    if action and {"save": form, "file": file_form, "decide": decision_form}.get(action) is None:
        raise PermissionDenied("This Rules Submission takes no change from you in its present state.")
    edges = services.submission_house_edges(
        jurisdiction=prop.jurisdiction,
        game=submission.game,
        wheel_types=submission.wheel_types,
        payout_odds=submission.payout_odds,
        options=submission.options,
    )
    labels = RulesSubmissionForm(game_rules=game_rules_for(prop.jurisdiction))
    return render(
        request,
        "manage/rules_submission.html",
        {
            "submission": submission,
            # Each option in words, never its code.
            "options": [
                (_(words.option_label(name)), _(words.option_value(value)))
                for name, value in submission.options.items()
            ],
            "property": prop,
            "form": form,
            "file_form": file_form,
            "decision_form": decision_form,
            "live": {
                "checked": True,
                "violations": _labelled(labels, submission.violations),
                "edges": _edge_rows(
                    labels,
                    edges,
                    services.submission_house_edge_notes(
                        jurisdiction=prop.jurisdiction,
                        game=submission.game,
                        payout_odds=submission.payout_odds,
                        options=submission.options,
                    ),
                ),
            },
            # In the form's order of the wagers (a JSON object's keys come back in another order from PostgreSQL).
            "odds": sorted(
                ((labels.fields.get(f"odds_{c}"), c, o) for c, o in submission.payout_odds.items()),
                key=lambda row: (list(labels.fields).index(f"odds_{row[1]}") if row[0] else len(labels.fields), row[1]),
            ),
            "wheel_types": [dict(WheelType.choices).get(w, w) for w in submission.wheel_types],
            "other_configurations": _other_configurations(submission, labels),
            # Before a decision: the tables this version leaves without a configuration, and the changes.
            "warnings": services.submission_warnings(submission)
            if submission.status in (SubmissionStatus.DRAFT, SubmissionStatus.FILED)
            else None,
            "rules_submission_citation": rulebook_for(prop.jurisdiction).RULES_SUBMISSION,
        },
    )


def _other_configurations(submission, labels) -> list[dict]:
    """The configurations besides the standard one, in words and in the form's order of the wagers."""
    wheels = dict(WheelType.choices)
    order = list(labels.fields)
    rows = []
    for configuration in submission.all_configurations()[1:]:
        odds = sorted(
            configuration.payout_odds.items(),
            key=lambda item: (order.index(f"odds_{item[0]}") if f"odds_{item[0]}" in order else len(order), item[0]),
        )
        rows.append(
            {
                "key": configuration.key,
                "name": configuration.name,
                "wheels": ", ".join(str(wheels.get(w, w)) for w in configuration.wheel_types),
                "odds": [
                    (labels.fields[f"odds_{code}"].label if f"odds_{code}" in labels.fields else code, value)
                    for code, value in odds
                ],
                "options": [
                    (_(words.option_label(name)), _(words.option_value(value)))
                    for name, value in configuration.options.items()
                ],
            }
        )
    return rows


def _decision_step(request, action, *, decide, what: str):
    """The regulator's signed decision: its form, and the redirect once it is recorded (or None)."""
    form = DecisionForm(request.POST if action == "decide" else None, request=request)
    if action == "decide" and form.is_valid():
        data = form.cleaned_data
        try:
            decided = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: decide(
                    decision=data["decision"],
                    reference=data["reference"],
                    note=data["note"],
                    signature=form.signature(),
                ),
                recorded=lambda _: (f"the decision on {what}", reverse("approvals")),
            )
        except RuleViolation as refusal:
            form.show(refusal)
        else:
            if isinstance(decided, AlreadyRecorded):
                return form, already_recorded_redirect(request, decided)
            messages.success(request, f"{what} {data['decision']}, signed ({data['reference']}).")
            return form, redirect("approvals")
    return form, None


@login_required
def layout_new(request):
    prop = _managed_property(request)
    rules = rulebook_for(prop.jurisdiction)
    tables = tables_visible_to(request.user).filter(property=prop, game=Game.ROULETTE).order_by("number")
    form = LayoutForm(request.POST or None, request.FILES or None, features=rules.LAYOUT_FEATURES, tables=tables)
    if request.method == "POST" and form.is_valid():
        try:
            layout = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: services.layout_submit(
                    prop=prop,
                    game=Game.ROULETTE,
                    name=form.cleaned_data["name"],
                    features=form.cleaned_data["features"],
                    tables=list(form.cleaned_data["tables"]),
                    artwork=form.cleaned_data["artwork"],
                    created_by=request.user,
                ),
                recorded=lambda layout: (f"layout “{layout.name}”", reverse("layout", args=[layout.pk])),
            )
        except RuleViolation as refusal:
            form.show(refusal)
        else:
            if isinstance(layout, AlreadyRecorded):
                return already_recorded_redirect(request, layout)
            messages.success(
                request, _("Layout “%(name)s” submitted to the regulator for approval.") % {"name": layout.name}
            )
            return redirect("layout", pk=layout.pk)
    return render(request, "manage/layout_form.html", {"property": prop, "form": form})


@login_required
def layout(request, pk: int):
    if repeat := form_already_recorded(request):
        return already_recorded_redirect(request, repeat)
    layout = get_object_or_404(layouts_visible_to(request.user), pk=pk)
    action = request.POST.get("action") if request.method == "POST" else None
    decision_form = None
    if request.user.may("approvals.decide") and layout.status == LayoutStatus.PENDING:
        decision_form, done = _decision_step(
            request,
            action,
            decide=lambda **decision: services.layout_decide(layout_id=layout.pk, **decision),
            what=f"Layout “{layout.name}”",
        )
        if done:
            return done
    if action and decision_form is None:
        raise PermissionDenied("This layout takes no decision from you in its present state.")
    return render(
        request,
        "manage/layout.html",
        {
            "layout": layout,
            "features": [_(words.feature_label(f)) for f in layout.features],
            "decision_form": decision_form,
        },
    )


@login_required
def layout_artwork(request, pk: int):
    """The layout's artwork, shown on its page: only to those who may see the layout."""
    return artwork_response(get_object_or_404(layouts_visible_to(request.user), pk=pk))


@login_required
def approvals(request):
    """The regulator's queue: what waits for a decision in the jurisdiction, then what was decided."""
    _require_approver(request.user)
    # When each was filed and decided, from its signatures; the page shows them in the property's zone.
    filed = Max("signatures__signed_at", filter=Q(signatures__action="filed"))
    decided = Max("signatures__signed_at", filter=Q(signatures__action__in=["approved", "rejected"]))
    submissions = (
        rules_submissions_visible_to(request.user)
        .exclude(status=SubmissionStatus.DRAFT)
        .select_related("property")
        .annotate(filed_at=filed, decided_at=decided)
    )
    layouts = layouts_visible_to(request.user).select_related("property").annotate(decided_at=decided)
    return render(
        request,
        "manage/approvals.html",
        {
            "waiting_rules": submissions.filter(status=SubmissionStatus.FILED).order_by("created_at"),
            "waiting_layouts": layouts.filter(status=LayoutStatus.PENDING).order_by("created_at"),
            "decided_rules": submissions.exclude(status=SubmissionStatus.FILED).order_by("-created_at")[:20],
            "decided_layouts": layouts.exclude(status=LayoutStatus.PENDING).order_by("-created_at")[:20],
        },
    )
