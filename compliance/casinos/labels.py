"""A printable sheet of QR labels, one per table: each code opens that table's page on a tablet
(its absolute address from settings.SITE_URL), with the table's number printed beside it.

The door of LabelSheet: `label_sheet_request` records the request (the page calls it) and queues its
rendering; `label_sheet_render` (the worker's task) renders it; `label_sheet_download` serves it.
A web request never renders a PDF nor waits for one (issue 32, item 3): 505 tables rendered in the
request outlived gunicorn's timeout, and a few people asking again and again slowed every floor page.
One sheet holds at most LABELS_PER_SHEET labels (a larger property prints by pages), and one person
has at most LABELS_MAX_PENDING_PER_PERSON sheets waiting (compliance/rulebook/labels.py)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta

import qrcode
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import transaction
from django.http import FileResponse, Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from qrcode.image.svg import SvgPathImage

from compliance.casinos.models import GamingTable, LabelSheet, LabelSheetStatus, Property
from compliance.rulebook import labels as policy
from compliance.rulebook.violations import LimitReached, RuleViolation

log = logging.getLogger(__name__)

# A sheet still waiting after this long was lost (its task gone with a Redis that lost its data):
# it no longer holds its person's place. A sheet of 100 labels renders in a few seconds.
PENDING_COUNTS_FOR = timedelta(minutes=30)


def sheet_pages(prop: Property) -> list[tuple[int, int]]:
    """The property's tables cut into sheets of at most LABELS_PER_SHEET: (first, count) each."""
    total = GamingTable.objects.filter(property=prop).count()
    size = settings.LABELS_PER_SHEET
    return [(first, min(size, total - first)) for first in range(0, total, size)]


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
        transaction.on_commit(lambda: _enqueue(sheet.pk))
    return sheet


def _enqueue(sheet_id: int) -> None:
    from compliance.casinos.tasks import label_sheet_generate

    try:
        label_sheet_generate.apply_async((sheet_id,), retry=False, ignore_result=True)
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


def label_sheet_download(sheet: LabelSheet) -> FileResponse:
    if sheet.status != LabelSheetStatus.DONE or not sheet.file:
        raise Http404(f"Label sheet {sheet.pk} is {sheet.get_status_display().lower()}: there is no file yet.")
    return FileResponse(sheet.file.open("rb"), filename=f"table-labels-{sheet.pk}.pdf", content_type="application/pdf")


def table_address(table: GamingTable) -> str:
    """The absolute address of the table's page, as a camera opens it."""
    return settings.SITE_URL + reverse("table", args=[table.pk])


def qr_svg(text: str) -> str:
    """`text` as a QR code, an SVG drawing (medium error correction: a scuffed label still reads)."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2, image_factory=SvgPathImage)
    code.add_data(text)
    code.make(fit=True)
    return code.make_image().to_string(encoding="unicode")


def labels_pdf(tables: Iterable[GamingTable]) -> bytes:
    """The sheet, as a PDF to print: each table's number, property, QR code and address."""
    from weasyprint import HTML  # imported where used: as the reports do

    labels = [
        {"table": table, "address": table_address(table), "svg": qr_svg(table_address(table))} for table in tables
    ]
    html = render_to_string("casinos/table_labels.html", {"labels": labels})
    # No URL is fetched: the codes are inline SVG and the styles are in the page.
    return HTML(string=html, url_fetcher=_no_fetch).write_pdf()


def _no_fetch(url: str, *args, **kwargs):
    raise ValueError(f"the label sheet fetches nothing ({url})")
