"""The flags in the browser: the open and last resolved flags, and a compliance manager's signed resolution."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from compliance.accounts.idempotency import (
    AlreadyRecorded,
    already_recorded_redirect,
    form_already_recorded,
    form_write_once,
)
from compliance.rulebook import RuleViolation
from inspections.flags import overdue
from inspections.flags.forms import FlagResolveForm
from inspections.flags.models import FlagStatus
from inspections.flags.selectors import flags_visible_to
from inspections.logbook.web import require_may


@login_required
def flags(request):
    """The open flags of the overdue scan, most overdue first, and the last ones resolved."""
    visible = flags_visible_to(request.user)
    return render(
        request,
        "floor/flags.html",
        {
            "open": visible.filter(status=FlagStatus.OPEN).order_by("due_at"),
            "resolved": visible.filter(status=FlagStatus.RESOLVED)
            .select_related("cured_by_entry")
            .order_by("-resolved_at")[:25],
        },
    )


@login_required
def flag_resolve(request, pk: int):
    # Sent twice: the first one resolved the flag, so it is no longer open; say it was recorded.
    if repeat := form_already_recorded(request):
        return already_recorded_redirect(request, repeat)
    flag = get_object_or_404(flags_visible_to(request.user), pk=pk, status=FlagStatus.OPEN)
    require_may(request.user, "flags.resolve", "Resolving a flag by hand")
    form = FlagResolveForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            done = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: overdue.flag_resolve(
                    flag_id=flag.pk, note=form.cleaned_data["note"], signature=form.signature()
                ),
                recorded=lambda flag: (f"the resolution of the flag on table {flag.table.number}", reverse("flags")),
            )
        except RuleViolation as refusal:
            form.show(refusal)
        else:
            if isinstance(done, AlreadyRecorded):
                return already_recorded_redirect(request, done)
            messages.success(request, _("Flag on table %(table)s resolved, signed.") % {"table": flag.table.number})
            return redirect("flags")
    return render(request, "floor/flag_resolve.html", {"flag": flag, "form": form, "zone": flag.property.zone})
