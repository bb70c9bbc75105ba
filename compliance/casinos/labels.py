"""A printable sheet of QR labels, one per table: each code opens that table's page on a tablet
(its absolute address from settings.SITE_URL), with the table's number printed beside it.

The sheets are written by compliance.casinos.services: `label_sheet_request` records the request
(the page calls it) and queues its rendering; `label_sheet_render` (the worker's task) renders it
with `labels_pdf` below. `label_sheet_download` serves it.
A web request never renders a PDF nor waits for one (issue 32, item 3): 505 tables rendered in the
request outlived gunicorn's timeout, and a few people asking again and again slowed every floor page.
One sheet holds at most LABELS_PER_SHEET labels (a larger property prints by pages), and one person
has at most LABELS_MAX_PENDING_PER_PERSON sheets waiting (compliance/rulebook/labels.py)."""

from __future__ import annotations

from collections.abc import Iterable

import qrcode
from django.conf import settings
from django.http import FileResponse, Http404
from django.template.loader import render_to_string
from django.urls import reverse
from qrcode.image.svg import SvgPathImage

from compliance.casinos.models import GamingTable, LabelSheet, LabelSheetStatus


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
