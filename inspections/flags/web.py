"""The flags in the browser: the open and last cured flags with their history, and a compliance
manager's signed acknowledgement (the flag stays open until the entry that cures it)."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from compliance.accounts.idempotency import (
    AlreadyRecorded,
    already_recorded_redirect,
    form_already_recorded,
    form_write_once,
)
from compliance.rulebook import RuleViolation
from inspections.flags import services
from inspections.flags.forms import FlagAcknowledgeForm
from inspections.flags.models import FlagStatus
from inspections.flags.selectors import flags_visible_to
from inspections.logbook.web import require_may

FLAGS_PAGE = 50  # flags on a page of /flags/
RESOLVED_SHOWN = 10  # resolved flags shown under the open ones


@login_required
def flags(request):
    """The flags of the overdue scan, newest first, a page at a time by position (no COUNT, no
    OFFSET: the flag_newest_first index's order), open ones and under them the last resolved; or the
    resolved ones alone (`status=resolved`); of one property (`property`) or of all one sees; or
    one flag (`flag`, the link in its mail)."""
    visible = flags_visible_to(request.user)
    # One flag (`flag`), as its mail links to it: shown whether still open or resolved since.
    if request.GET.get("flag", "").isdigit():
        visible = visible.filter(pk=int(request.GET["flag"]))
    chosen = None
    if request.GET.get("property", "").isdigit():
        visible = visible.filter(property_id=int(request.GET["property"]))
        chosen = int(request.GET["property"])
    status = FlagStatus.RESOLVED if request.GET.get("status") == FlagStatus.RESOLVED else FlagStatus.OPEN
    rows = visible.filter(status=status).order_by("-detected_at", "-id")
    position = _position(request.GET.get("before", ""))
    if position is not None:
        at, pk = position
        rows = rows.filter(Q(detected_at__lt=at) | Q(detected_at=at, pk__lt=pk), detected_at__lte=at)
    page = list(rows[: FLAGS_PAGE + 1])
    query = {"property": chosen} if chosen else {}
    if status == FlagStatus.RESOLVED:
        query["status"] = FlagStatus.RESOLVED
    older = None
    if len(page) > FLAGS_PAGE:
        page = page[:FLAGS_PAGE]
        older = "?" + urlencode({**query, "before": f"{page[-1].detected_at.isoformat()}~{page[-1].pk}"})
    resolved = None
    if status == FlagStatus.OPEN:
        resolved = list(visible.filter(status=FlagStatus.RESOLVED).order_by("-detected_at", "-id")[:RESOLVED_SHOWN])
    return render(
        request,
        "floor/flags.html",
        {
            "status": status,
            "flags": page,
            "older": older,
            "first": position is None,
            "newest": "?" + urlencode(query),
            "resolved": resolved,
            "all_resolved": "?" + urlencode({**query, "status": FlagStatus.RESOLVED}),
            "open_flags": "?" + urlencode({key: value for key, value in query.items() if key != "status"}),
            "property": page[0].property if chosen and page else None,
            "chosen": chosen,
        },
    )


def _position(text: str) -> tuple[datetime, int] | None:
    """A page's position, `<detected_at>~<id>` of the last flag of the page before (None: the first page)."""
    moment, _, pk = text.rpartition("~")
    at = parse_datetime(moment) if moment else None
    if at is None or at.tzinfo is None or not pk.isdigit() or int(pk) >= 2**63:
        return None
    return at, int(pk)


@login_required
def flag_resolve(request, pk: int):
    """A compliance manager acknowledges an open flag with a signed note (the page's address keeps
    its first name, "resolve"); the flag stays open until the entry that cures it."""
    # Sent twice: the first one was recorded; say so.
    if repeat := form_already_recorded(request):
        return already_recorded_redirect(request, repeat)
    flag = get_object_or_404(flags_visible_to(request.user), pk=pk, status=FlagStatus.OPEN)
    require_may(request.user, "flags.resolve", _("Acknowledging a flag"))
    form = FlagAcknowledgeForm(request.POST or None, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            done = form_write_once(
                request=request,
                token=form.token(),
                write=lambda: services.flag_acknowledge(
                    flag_id=flag.pk, note=form.cleaned_data["note"], signature=form.signature()
                ),
                recorded=lambda flag: (
                    _("the acknowledgement of the flag on table %(table)s") % {"table": flag.table.number},
                    reverse("flags"),
                ),
            )
        except RuleViolation as refusal:
            form.show(refusal)
        else:
            if isinstance(done, AlreadyRecorded):
                return already_recorded_redirect(request, done)
            messages.success(
                request,
                _("Flag on table %(table)s acknowledged, signed. It stays open until an entry cures it.")
                % {"table": flag.table.number},
            )
            return redirect("flags")
    return render(request, "floor/flag_resolve.html", {"flag": flag, "form": form, "zone": flag.property.zone})
