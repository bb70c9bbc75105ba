"""The register lists each entry's photos by the SHA-256 of their originals: the API's row, the
CSV's column and the PDF's cell (issue 36, item 2)."""

from __future__ import annotations

import hashlib

import pytest

from inspections.reports import render
from tests.photos import image_bytes, upload
from tests.support.api import client_for
from tests.support.reports import csv_rows, pdf_rows, requested, squeezed

from .test_photos import inspect_with


@pytest.mark.any_hour
def test_the_register_lists_the_photos_hashes(committed_db, media, casino):
    jpeg, png = image_bytes("JPEG"), image_bytes("PNG")
    entry = inspect_with(casino, [upload(jpeg), upload(png, "b.png")])
    hashes = [hashlib.sha256(jpeg).hexdigest(), hashlib.sha256(png).hexdigest()]
    rows = client_for(casino.compliance).get("/api/logbook/").json()["results"]
    assert [row["photos"] for row in rows if row["seq"] == entry.seq] == [hashes]
    csv_report = render.generate_locally(requested(casino, fmt="csv").pk)
    (row,) = [row for row in csv_rows(csv_report) if row["#"] == str(entry.seq)]
    assert row["Photos (SHA-256 of each original)"] == f"photo 1: {hashes[0]}; photo 2: {hashes[1]}"
    pdf_report = render.generate_locally(requested(casino).pk)
    printed = squeezed(" ".join(pdf_rows(pdf_report)[entry.seq]))
    assert all(squeezed(h) in printed for h in hashes)


@pytest.mark.any_hour
def test_the_register_pdf_prints_each_photo_small_beside_its_entry(committed_db, media, casino):
    from pypdf import PdfReader

    entry = inspect_with(casino, [upload(image_bytes("JPEG", size=(640, 480))), upload(image_bytes("PNG"), "b.png")])
    report = render.generate_locally(requested(casino).pk)
    pages = PdfReader(report.file.path).pages
    printed = [image for page in pages for image in page.images]
    assert len(printed) == 2
    assert all(max(image.image.size) <= render.PRINT_SIDE for image in printed)
    assert squeezed(entry.photos.first().sha256) in squeezed(" ".join(pdf_rows(report)[entry.seq]))


@pytest.mark.any_hour
def test_a_photo_changed_in_the_storage_refuses_the_register_and_nothing_is_signed(committed_db, media, casino):
    from django.core.files.storage import default_storage

    from inspections.reports.models import ReportStatus

    photo = inspect_with(casino, [upload(image_bytes("JPEG"))]).photos.get()
    path = default_storage.path(photo.original.name)
    with open(path, "wb") as handle:
        handle.write(image_bytes("JPEG", size=(10, 10)))
    report = requested(casino)
    with pytest.raises(render.RunRefused, match="not the file its SHA-256 names"):
        render.generate_locally(report.pk)
    report.refresh_from_db()
    assert report.status == ReportStatus.FAILED
