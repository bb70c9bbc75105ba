"""The tables' QR labels, for the people who manage tables: a printable PDF sheet."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.utils.translation import gettext as _

from compliance.casinos.labels import labels_pdf
from compliance.casinos.selectors import properties_managed_by, tables_visible_to


@login_required
def table_labels(request):
    """One QR label per table of the properties this person manages; `?property=<id>` narrows it."""
    if not request.user.may("tables.configure"):
        raise PermissionDenied(_("The tables' labels are printed by those who manage the tables."))
    tables = tables_visible_to(request.user).filter(property__in=properties_managed_by(request.user))
    if request.GET.get("property", "").isdigit():
        tables = tables.filter(property_id=int(request.GET["property"]))
    response = HttpResponse(labels_pdf(tables.order_by("property__name", "number")), content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="table-labels.pdf"'
    return response
