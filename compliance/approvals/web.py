"""The compliance manager's and the regulator's pages: thin views over the approval services.

A compliance manager keeps the property's Rules Submissions and layouts (drafted, checked live,
filed signed); a regulator decides them, signed, from the approvals queue.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from compliance.accounts.idempotency import (
    AlreadyRecorded,
    already_recorded_redirect,
    form_already_recorded,
    form_token_new,
    form_write_once,
)
from compliance.accounts.models import Role
from compliance.approvals import services
from compliance.approvals.artwork import artwork_response
from compliance.approvals.forms import (
    ConfigurationForm,
    DecisionForm,
    FileForm,
    LayoutForm,
    RulesSubmissionForm,
    TableConfigurationForm,
)
from compliance.approvals.models import LayoutStatus, SubmissionStatus
from compliance.approvals.selectors import (
    layouts_visible_to,
    rules_submission_in_effect,
    rules_submissions_visible_to,
    submission_warnings,
)
from compliance.casinos import services as casinos
from compliance.casinos.clock import property_today
from compliance.casinos.models import Game, WheelType
from compliance.casinos.selectors import properties_managed_by, tables_visible_to
from compliance.rulebook import RuleViolation, game_rules_for, malformed, rulebook_for, words
from compliance.rulebook.configurations import STANDARD, STANDARD_NAME, configuration_of
from compliance.rulebook.games.roulette import NOT_CHOSEN
from compliance.rulebook.roles import MAY
from compliance.rulebook.submissions import rules_submission_check, submission_house_edge_notes, submission_house_edges
from compliance.rulebook.violations import cited


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
    tables = list(
        tables_visible_to(request.user).filter(property=prop).select_related("wheel", "ball").order_by("number")
    )
    # Each table's configuration by its name in the version in effect for its game, where it has one.
    today = property_today(prop)
    in_effect = {
        game: rules_submission_in_effect(property_id=prop.pk, game=game, on=today) for game in {t.game for t in tables}
    }
    for table in tables:
        configuration = configuration_of(in_effect[table.game], table.configuration)
        table.configuration_name = (
            (_("Standard") if configuration.key == STANDARD else configuration.name) if configuration else ""
        )
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
                    _("draft version %(version)s") % {"version": submission.version},
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
            ngettext(
                "Draft version %(version)s saved; it still breaks %(count)s rule, listed below.",
                "Draft version %(version)s saved; it still breaks %(count)s rules, listed below.",
                count,
            )
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
    return _checked(form, prop, form.content())


def _checked(form, prop, content: dict, *, violations=None) -> dict:
    """The violations (as given, or checked now) and house edges of one configuration's content."""
    saved = violations is not None  # as saved with the draft: never malformed (a draft is not saved so)
    if violations is None:
        violations = rules_submission_check(jurisdiction=prop.jurisdiction, game=Game.ROULETTE, **content)
    edges: dict = {}
    notes: dict[str, str] = {}
    if saved or not malformed(violations):
        edges = submission_house_edges(jurisdiction=prop.jurisdiction, game=Game.ROULETTE, **content)
        notes = submission_house_edge_notes(
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
            "note": _(notes[code]) if code in notes else "",  # the rulebook's sentence, said
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
                        _("the filing of Rules Submission version %(version)s") % {"version": submission.version},
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
            what=_("Rules Submission version %(version)s") % {"version": submission.version},
        )
        if done:
            return done
    if action and {"save": form, "file": file_form, "decide": decision_form}.get(action) is None:
        raise PermissionDenied("This Rules Submission takes no change from you in its present state.")
    edges = submission_house_edges(
        jurisdiction=prop.jurisdiction,
        game=submission.game,
        wheel_types=submission.wheel_types,
        payout_odds=submission.payout_odds,
        options=submission.options,
    )
    labels = RulesSubmissionForm(game_rules=game_rules_for(prop.jurisdiction))
    warnings = (
        submission_warnings(submission)
        if submission.status in (SubmissionStatus.DRAFT, SubmissionStatus.FILED)
        else None
    )
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
                    submission_house_edge_notes(
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
            "warnings": warnings,
            "changes": _changes_said(warnings.changes) if warnings else [],
            "configurations_editable": editable,
            "rules_submission_citation": rulebook_for(prop.jurisdiction).RULES_SUBMISSION,
        },
    )


def _other_configurations(submission, labels) -> list[dict]:
    """The configurations besides the standard one, in words and in the form's order of the wagers,
    each with its own violations (as saved) and house edges."""
    wheels = dict(WheelType.choices)
    order = list(labels.fields)
    prop = submission.property
    rows = []
    for index, configuration in enumerate(submission.all_configurations()[1:]):
        odds = sorted(
            configuration.payout_odds.items(),
            key=lambda item: (order.index(f"odds_{item[0]}") if f"odds_{item[0]}" in order else len(order), item[0]),
        )
        own = f"configurations.{index}"
        violations = [
            v for v in submission.violations if v.get("field") == own or v.get("field", "").startswith(own + ".")
        ]
        form = ConfigurationForm(game_rules=game_rules_for(prop.jurisdiction), new=False)
        rows.append(
            {
                "key": configuration.key,
                "name": configuration.name,
                # Each label is lazy (the language in use): said as text before it is joined.
                "wheels": ", ".join(str(wheels.get(w, w)) for w in configuration.wheel_types),
                "odds": [
                    (labels.fields[f"odds_{code}"].label if f"odds_{code}" in labels.fields else code, value)
                    for code, value in odds
                ],
                "options": [
                    (_(words.option_label(name)), _(words.option_value(value)))
                    for name, value in configuration.options.items()
                ],
                "live": _checked(
                    form,
                    prop,
                    {
                        "wheel_types": configuration.wheel_types,
                        "payout_odds": configuration.payout_odds,
                        "options": configuration.options,
                    },
                    violations=violations,
                )
                if submission.game == Game.ROULETTE
                else {},
            }
        )
    return rows


def _changes_said(changes) -> list[dict]:
    """How a version differs from the one in effect, each difference in the reader's language."""
    return [
        {
            "configuration": _("Standard") if change.configuration == STANDARD_NAME else change.configuration,
            "change": change.change,
            "details": [_difference_said(d) for d in change.differences],
        }
        for change in changes
    ]


def _odds_said(value) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return _("%(pays)s to %(per)s") % {"pays": value[0], "per": value[1]}
    return str(value)


def _wheel_types_said(codes) -> str:
    wheels = dict(WheelType.choices)
    return ", ".join(str(wheels.get(code, code)).lower() for code in codes) or _("none")


def _option_said(value) -> str:
    return _("not chosen") if value in NOT_CHOSEN else _(words.option_value(value))


def _difference_said(difference) -> str:
    """One difference (compliance.rulebook.configurations.Difference) in the language in use."""
    label = _(difference.label)
    if difference.subject == "wheel_types":
        return _("Wheel types: %(before)s → %(after)s") % {
            "before": _wheel_types_said(difference.before),
            "after": _wheel_types_said(difference.after),
        }
    if difference.subject == "payout_odds":
        if difference.before is None:
            return _("%(wager)s: offered at %(odds)s") % {"wager": label, "odds": _odds_said(difference.after)}
        if difference.after is None:
            return _("%(wager)s: no longer offered (was %(odds)s)") % {
                "wager": label,
                "odds": _odds_said(difference.before),
            }
        return _("%(wager)s: %(before)s → %(after)s") % {
            "wager": label,
            "before": _odds_said(difference.before),
            "after": _odds_said(difference.after),
        }
    if difference.subject == "options":
        return _("%(option)s: %(before)s → %(after)s") % {
            "option": label,
            "before": _option_said(difference.before),
            "after": _option_said(difference.after),
        }
    return _("Name: %(before)s → %(after)s") % {"before": difference.before, "after": difference.after}


# ---- A draft's table configurations, one page each ----


def _kept_submission(request, pk: int):
    """A Rules Submission of a property this person manages (a compliance manager: their own)."""
    submission = get_object_or_404(rules_submissions_visible_to(request.user).select_related("property"), pk=pk)
    if not properties_managed_by(request.user).filter(pk=submission.property_id).exists():
        raise PermissionDenied(
            _("A Rules Submission's table configurations are kept by its property's compliance manager.")
        )
    if submission.game != Game.ROULETTE:
        raise PermissionDenied(_("Big Six and Casino War submissions are made through the API."))
    return submission


def _configuration_form(submission, data=None, *, configuration=None):
    return ConfigurationForm(
        data,
        game_rules=game_rules_for(submission.property.jurisdiction),
        new=configuration is None,
        initial=ConfigurationForm.initial_from(configuration) if configuration is not None else None,
    )


def _configuration_page(request, submission, form, *, configuration=None, live=None):
    prop = submission.property
    return render(
        request,
        "manage/configuration_form.html",
        {
            "submission": submission,
            "property": prop,
            "configuration": configuration,
            "form": form,
            # A filed or decided version is never rewritten: its refusal, before anything is typed.
            "refusal": rulebook_for(prop.jurisdiction).may_edit_submission(submission=submission),
            "check_url": reverse("configuration-check", args=[submission.pk]),
            "save_label": _("Save the configuration"),
            # The removal's own one-time token: a double tap removes once.
            "remove_token": form_token_new(),
            "live": live if live is not None else _live(form, prop),
        },
    )


def _configuration_saved(request, submission, name: str):
    count = len(submission.violations)
    messages.success(
        request,
        (
            ngettext(
                "Configuration “%(name)s” saved; the draft still breaks %(count)s rule, listed below.",
                "Configuration “%(name)s” saved; the draft still breaks %(count)s rules, listed below.",
                count,
            )
            if count
            else _("Configuration “%(name)s” saved; the draft breaks no rule and may be filed.")
        )
        % {"name": name, "count": count},
    )
    return redirect(reverse("rules-submission", args=[submission.pk]) + "#configurations-heading")


@login_required
def configuration_new(request, pk: int):
    """A new table configuration of a draft: its name and key, wheel types, odds and options."""
    submission = _kept_submission(request, pk)
    form = _configuration_form(submission, request.POST or None)
    if (
        request.method == "POST"
        and form.is_valid()
        and (answer := _configuration_save(request, submission, form)) is not None
    ):
        return answer
    return _configuration_page(request, submission, form)


def _configuration_save(request, submission, form, *, key: str | None = None):
    """Saves a table configuration (a new one, or the one at `key`) once per form: the answer to give,
    or None after a refusal, which `form` now shows. A double tap writes it once."""
    try:
        saved = form_write_once(
            request=request,
            token=form.token(),
            write=lambda: services.rules_submission_configuration_save(
                submission_id=submission.pk, configuration=form.configuration(), key=key
            ),
            recorded=lambda saved: (
                _("table configuration “%(name)s”") % {"name": form.cleaned_data["name"]},
                reverse("rules-submission", args=[saved.pk]) + "#configurations-heading",
            ),
        )
    except RuleViolation as refusal:
        _show(form, refusal.violations)
        return None
    if isinstance(saved, AlreadyRecorded):
        return already_recorded_redirect(request, saved)
    return _configuration_saved(request, saved, form.cleaned_data["name"])


@login_required
def configuration_edit(request, pk: int, key: str):
    """A table configuration of a draft, changed (its key stays) or removed."""
    # Sent twice: the first one removed it, so it is no longer there; say it was recorded.
    if repeat := form_already_recorded(request):
        return already_recorded_redirect(request, repeat)
    submission = _kept_submission(request, pk)
    configuration = configuration_of(submission, key)
    if configuration is None or key == STANDARD:
        raise Http404(_("This Rules Submission has no such table configuration."))
    action = request.POST.get("action") if request.method == "POST" else None
    form = _configuration_form(submission, request.POST if action == "save" else None, configuration=configuration)
    live = None
    if action == "remove":
        try:
            # A double tap removes it once (the second would find no such configuration).
            removed = form_write_once(
                request=request,
                token=request.POST.get("form_token", ""),
                write=lambda: services.rules_submission_configuration_remove(submission_id=submission.pk, key=key),
                recorded=lambda removed: (
                    _("the removal of table configuration “%(name)s”") % {"name": configuration.name},
                    reverse("rules-submission", args=[removed.pk]) + "#configurations-heading",
                ),
            )
        except RuleViolation as refusal:
            for violation in refusal.violations:
                citation = f" ({cited(violation.citation)})" if violation.citation else ""
                messages.error(request, f"{violation.message}{citation}")
        else:
            if isinstance(removed, AlreadyRecorded):
                return already_recorded_redirect(request, removed)
            messages.success(
                request, _("Configuration “%(name)s” removed from the draft.") % {"name": configuration.name}
            )
            return redirect(reverse("rules-submission", args=[submission.pk]) + "#configurations-heading")
    elif action == "save" and form.is_valid():
        if (answer := _configuration_save(request, submission, form, key=key)) is not None:
            return answer
    elif action is None:
        # As saved: its violations checked now, and its house edges.
        live = _checked(
            form,
            submission.property,
            {
                "wheel_types": configuration.wheel_types,
                "payout_odds": configuration.payout_odds,
                "options": configuration.options,
            },
        )
    return _configuration_page(request, submission, form, configuration=configuration, live=live)


@require_POST
@login_required
def configuration_check(request, pk: int):
    """htmx: the live check of a configuration's form, as the standard one's; nothing is saved."""
    submission = _kept_submission(request, pk)
    form = _configuration_form(submission, request.POST)
    return render(request, "manage/_live_check.html", {"live": _live(form, submission.property)})


# ---- A table's configuration, chosen where the tables are managed ----


def _configuration_choices(user, table) -> list[tuple[str, str]]:
    """The configurations of the table's game in the Rules Submission in effect and in each later
    version not rejected, each once, with where it is found; the table's own key even if none has it."""
    prop = table.property
    in_effect = rules_submission_in_effect(property_id=prop.pk, game=table.game, on=property_today(prop))
    versions = (
        rules_submissions_visible_to(user)
        .filter(property=prop, game=table.game)
        .exclude(status=SubmissionStatus.REJECTED)
    )
    if in_effect is not None:
        versions = versions.filter(version__gt=in_effect.version)
    found: dict[str, tuple[str, list[str]]] = {}
    for submission in [*([in_effect] if in_effect else []), *versions.order_by("version")]:
        where = (
            _("in effect (version %(version)s)") % {"version": submission.version}
            if submission == in_effect
            else _("version %(version)s, %(status)s")
            % {"version": submission.version, "status": str(submission.get_status_display()).lower()}
        )
        for configuration in submission.all_configurations():
            name = _("Standard") if configuration.key == STANDARD else configuration.name
            found.setdefault(configuration.key, (name, []))[1].append(where)
    choices = [(key, f"{name} · {'; '.join(where)}") for key, (name, where) in found.items()]
    if table.configuration not in found:
        choices.append((table.configuration, _("“%(key)s” · in no version") % {"key": table.configuration}))
    return choices


@login_required
def table_configuration(request, pk: int):
    """The compliance manager chooses which configuration a table uses (casinos' table_update)."""
    prop_ids = properties_managed_by(request.user).values("pk")
    table = get_object_or_404(
        tables_visible_to(request.user).filter(property__in=prop_ids).select_related("property"), pk=pk
    )
    form = TableConfigurationForm(
        request.POST or None,
        choices=_configuration_choices(request.user, table),
        initial={"configuration": table.configuration},
    )
    if request.method == "POST" and form.is_valid():
        try:
            changed = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: casinos.table_update(
                    table_id=table.pk, actor=request.user, changes={"configuration": form.cleaned_data["configuration"]}
                ),
                recorded=lambda changed: (
                    _("the configuration of table %(table)s") % {"table": changed.number},
                    reverse("manage") + f"?property={changed.property_id}",
                ),
            )
        except RuleViolation as refusal:
            form.show(refusal)
        else:
            if isinstance(changed, AlreadyRecorded):
                return already_recorded_redirect(request, changed)
            messages.success(
                request,
                _("Table %(table)s now uses the configuration “%(key)s”.")
                % {"table": table.number, "key": form.cleaned_data["configuration"]},
            )
            return redirect(reverse("manage") + f"?property={table.property_id}")
    return render(
        request, "manage/table_configuration.html", {"table": table, "property": table.property, "form": form}
    )


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
                recorded=lambda decided: (_("the decision on %(what)s") % {"what": what}, reverse("approvals")),
            )
        except RuleViolation as refusal:
            form.show(refusal)
        else:
            if isinstance(decided, AlreadyRecorded):
                return form, already_recorded_redirect(request, decided)
            said = (
                _("%(what)s approved, signed (%(reference)s).")
                if data["decision"] == "approved"
                else _("%(what)s rejected, signed (%(reference)s).")
            )
            messages.success(request, said % {"what": what, "reference": data["reference"]})
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
                recorded=lambda layout: (
                    _("layout “%(name)s”") % {"name": layout.name},
                    reverse("layout", args=[layout.pk]),
                ),
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
            what=_("Layout “%(name)s”") % {"name": layout.name},
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
