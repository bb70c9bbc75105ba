"""The one door every CSV of the product goes out through: cells that a spreadsheet would run as a
formula are neutralised (OWASP, "CSV Injection").

A description, a person's name, a credential number, a table number or a layout name is typed by
someone; one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula
when a regulator opens the CSV in Excel or LibreOffice. As OWASP recommends, such a cell is prefixed
with a single quote (shown as text, never evaluated) and every cell is wrapped in double quotes
(inner quotes doubled), so a comma or a semicolon in a value never starts a cell of its own.

defusedcsv was considered: it leaves tab- and carriage-return-led cells as they are and rewrites
`|` inside values, so the few lines here are kept instead.
"""

from __future__ import annotations

import csv
from typing import IO

# The cell's rule is the proof format's (the offline verifier reads the CSV with it): OWASP's list, the
# line feed and NUL too (ASVS 1.2.10), and the full-width forms of the four signs.
from logbook_proof.formats import FORMULA_STARTS as FORMULA_STARTS
from logbook_proof.formats import csv_cell

MEDIA_TYPE = "text/csv"  # RFC 4180's, as a PDF's attached CSV declares it


class CsvWriter:
    """csv.writer's `writerow`, each cell neutralised, every cell quoted."""

    def __init__(self, handle: IO[str]) -> None:
        self._writer = csv.writer(handle, quoting=csv.QUOTE_ALL)

    def writerow(self, row) -> None:
        self._writer.writerow([csv_cell(value) for value in row])


def csv_writer(handle: IO[str]) -> CsvWriter:
    """The writer for every CSV the product produces (reports, the CSV inside the PDF)."""
    return CsvWriter(handle)
