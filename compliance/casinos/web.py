"""The tables' QR labels, for the people who manage tables: a printable PDF sheet, asked for here
and rendered by a worker (compliance.casinos.labels); the page follows it and offers its file."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from compliance.casinos import labels, services
from compliance.casinos.models import LabelSheet
from compliance.casinos.selectors import properties_managed_by, sheet_pages
from compliance.rulebook import RuleViolation
from compliance.rulebook.violations import LimitReached


def _require_labels(user) -> None:
    if not user.may("tables.configure"):
        raise PermissionDenied(_("The tables' labels are printed by those who manage the tables."))


def _sheets_of(user):
    return LabelSheet.objects.restrict(user).filter(property__in=properties_managed_by(user)).select_related("property")


@login_required
def table_labels(request):
    """Ask for a sheet of a managed property's labels (all its tables, or one page of them), and
    follow the sheets asked for; `?property=<id>` narrows the page to one property."""
    _require_labels(request.user)
    properties = properties_managed_by(request.user).order_by("name", "pk")
    if request.GET.get("property", "").isdigit():
        properties = properties.filter(pk=int(request.GET["property"]))
    status = 200
    if request.method == "POST":
        prop = get_object_or_404(properties_managed_by(request.user), pk=request.POST.get("property", "0") or 0)
        page = request.POST.get("page", "")
        try:
            sheet = services.label_sheet_request(
                requested_by=request.user, prop=prop, page=int(page) if page.isdigit() else None
            )
        except RuleViolation as refusal:
            for violation in refusal.violations:
                citation = f" ({violation.cited})" if violation.citation else ""
                messages.error(request, f"{violation.message}{citation}")
            status = 429 if isinstance(refusal, LimitReached) else 400
        else:
            messages.success(
                request, _("Label sheet #%(number)s asked for: it is being generated below.") % {"number": sheet.pk}
            )
            return redirect(request.get_full_path())
    shown = [
        {
            "property": prop,
            "pages": [(index, first, count) for index, (first, count) in enumerate(sheet_pages(prop))],
        }
        for prop in properties[:50]
    ]
    context = {
        "properties": shown,
        "sheets": _sheets_of(request.user)[:20],
        "labels_per_sheet": settings.LABELS_PER_SHEET,
    }
    return render(request, "casinos/labels.html", context, status=status)


@login_required
def table_labels_row(request, pk: int):
    """htmx: one sheet's row, polled every two seconds until it is done or failed."""
    _require_labels(request.user)
    return render(
        request, "casinos/_label_sheet_row.html", {"sheet": get_object_or_404(_sheets_of(request.user), pk=pk)}
    )


@login_required
def table_labels_file(request, pk: int):
    _require_labels(request.user)
    return labels.label_sheet_download(get_object_or_404(_sheets_of(request.user), pk=pk))
