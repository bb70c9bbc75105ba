"""A printable sheet of QR labels, one per table: each code opens that table's page on a tablet
(its absolute address from settings.SITE_URL), with the table's number printed beside it."""

from __future__ import annotations

from collections.abc import Iterable

import qrcode
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from qrcode.image.svg import SvgPathImage

from compliance.casinos.models import GamingTable


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
