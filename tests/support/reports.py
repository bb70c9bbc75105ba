"""Reports as the tests ask for and read them: one requested for yesterday and today, and its PDF's
pages and register rows, or its CSV's rows."""

import csv
import re
from datetime import timedelta

import pdfplumber

from compliance.casinos.clock import property_today
from inspections.reports.models import Report


def requested(casino, *, by=None, fmt="pdf", kind="inspection_register") -> Report:
    today = property_today(casino.property)
    return Report.objects.create(
        property=casino.property,
        kind=kind,
        format=fmt,
        period_from=today - timedelta(days=1),
        period_to=today,
        requested_by=by or casino.compliance,
    )


def pdf_pages(report: Report) -> list[str]:
    with pdfplumber.open(report.file.path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def pdf_rows(report: Report) -> dict[int, list[str]]:
    """The register's rows as the PDF's tables hold them, by entry number, each cell on one line
    (the first cell: "#<entry> · <table> <date> <time>")."""
    rows = {}
    with pdfplumber.open(report.file.path) as pdf:
        for page in pdf.pages[1:]:
            for table in page.extract_tables():
                for cells in table:
                    cells = [" ".join((cell or "").split()) for cell in cells]
                    number = re.match(r"#(\d+) ", cells[0])
                    if number:
                        rows[int(number.group(1))] = cells
    return rows


def squeezed(value: str) -> str:
    """Without its spaces: the PDF's cells wrap."""
    return "".join(value.split())


def csv_rows(report: Report) -> list[dict]:
    with open(report.file.path, encoding="utf-8") as handle:
        return list(csv.DictReader(handle))
