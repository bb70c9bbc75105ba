"""CSV formula injection: every CSV the product produces, found rather than listed, carries a
hostile value typed into the logbook as text a spreadsheet will not run (OWASP "CSV Injection")."""

import csv
import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from pypdf import PdfReader

from compliance.accounts.models import User
from compliance.approvals.models import LayoutSubmission
from compliance.casinos.models import GamingTable
from compliance.rulebook import pa
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook import services
from inspections.logbook.models import Entry
from inspections.reports import render
from inspections.reports.csvfile import csv_cell
from inspections.reports.models import Report, ReportKind
from tests import append_only as triggers
from tests.support.logbook import ALL_PASS, event
from tests.support.people import sign
from tests.support.reports import requested

ROOT = Path(__file__).resolve().parents[2]
# OWASP's list of the first characters a spreadsheet reads as the start of a formula; kept here, not
# imported from the code under test, so the test cannot shrink with it.
FORMULA = ("=", "+", "-", "@", "\t", "\r")

HOSTILE = {
    "table number": "@SUM(1+1)",
    "layout name": "-2+3+cmd|' /C calc'!A0",
    "layout reference": "+Board 1",
    "inspector's name": '=HYPERLINK("http://evil.test","Pat")',
    "performer's credential": "+1-555-0100",
    "adjustment description": "\t=1+1 tightened",
    "adjusted part": "\r=2+2 ball track",
    "inspection notes": "=cmd|' /C notepad'!A0",
    "no-spin notes": "@evil()",
    "resolver's name": "-Manager()",
    "resolution note": "=resolved()",
}


@pytest.fixture
def hostile(casino):
    """A day at a table whose every typed-in value starts like a formula."""
    GamingTable.objects.filter(pk=casino.table.pk).update(number=HOSTILE["table number"])
    casino.table.refresh_from_db()
    triggers.drop(connection)  # an approved layout is append-only; this one was approved so named
    LayoutSubmission.objects.filter(property=casino.property).update(
        name=HOSTILE["layout name"], decision_reference=HOSTILE["layout reference"]
    )
    triggers.install(connection)
    User.objects.filter(pk=casino.floorperson.pk).update(full_name=HOSTILE["inspector's name"])
    User.objects.filter(pk=casino.maintenance.pk).update(credential_number=HOSTILE["performer's credential"])
    User.objects.filter(pk=casino.compliance.pk).update(full_name=HOSTILE["resolver's name"])
    event(casino, "cover")
    event(casino, "unlock")
    services.adjustment_record(
        table_id=casino.table.pk,
        kind="replacement",
        part=HOSTILE["adjusted part"],
        description=HOSTILE["adjustment description"],
        performer=sign(casino.maintenance),
        witness=sign(casino.security),
        recorded_by=casino.maintenance,
    )
    services.inspection_record(
        table_id=casino.table.pk,
        items={**ALL_PASS, "ball_non_magnetic": False},
        notes=HOSTILE["inspection notes"],
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    services.inspection_record(
        table_id=casino.table.pk,
        items=ALL_PASS,
        notes=HOSTILE["inspection notes"],
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    event(casino, "open")
    services.irregularity_record(
        table_id=casino.table.pk,
        kind=pa.IRREGULARITY_KINDS[0][0],
        notes=HOSTILE["no-spin notes"],
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    event(casino, "close")
    closed = Entry.objects.filter(kind="close").latest("seq").occurred_at
    flag_services.scan(now=closed + timedelta(minutes=15))  # the wheel is not covered in time
    flag_services.flag_acknowledge(
        flag_id=ComplianceException.objects.get().pk, note=HOSTILE["resolution note"], signature=sign(casino.compliance)
    )
    return casino


def every_csv(casino) -> dict[str, str]:
    """Every CSV the reports produce: each kind's CSV, and every CSV attached to each kind's PDF."""
    found = {}
    formats = [code for code, _ in Report._meta.get_field("format").choices]
    assert set(formats) == {"pdf", "csv"}, f"a new format {formats}: say here where its CSV is"
    for kind in ReportKind.values:
        for fmt in formats:
            report = requested(casino, fmt=fmt, kind=kind)
            report.tables.set([casino.table])  # a table history names its table
            report = render.generate_locally(report.pk, processes=1)
            assert report.status == "done", report.error
            if fmt == "csv":
                found[f"{kind}.csv"] = Path(report.file.path).read_bytes().decode("utf-8")  # CRs kept
            else:
                attachments = PdfReader(report.file.path).attachments
                assert attachments, f"the {kind} PDF carries no CSV"
                assert set(attachments) == {f"{kind}.csv", "chain-segment.json"}
                for name, contents in attachments.items():
                    if name == "chain-segment.json":
                        continue  # the chain's JSON, for the offline verifier, not a spreadsheet
                    found[f"{kind}.pdf/{name}"] = contents[0].decode("utf-8")
    return found


@pytest.mark.any_hour
def test_every_csv_neutralises_every_cell_a_spreadsheet_would_run(committed_db, media, hostile, settings):
    settings.REPORT_CHUNK_ROWS = 400
    files = every_csv(hostile)
    assert len(files) == 2 * len(ReportKind.values)
    for name, text in files.items():
        rows = list(csv.reader(io.StringIO(text)))
        assert len(rows) > 1, name
        for row in rows:
            for cell in row:
                assert not cell.lstrip(" ").startswith(FORMULA), (name, cell)
        cells = {cell for row in rows for cell in row}
        # The hostile table number is there, as text: a leading quote, nothing else changed.
        assert "'" + HOSTILE["table number"] in cells, name
    register = {cell for row in csv.reader(io.StringIO(files["inspection_register.csv"])) for cell in row}
    neutralised = {value for value in HOSTILE.values() if "'" + value in register}
    assert {
        HOSTILE["adjustment description"],
        HOSTILE["adjusted part"],
        HOSTILE["inspection notes"],
        HOSTILE["no-spin notes"],
    } <= neutralised
    assert any(cell.startswith("'" + HOSTILE["inspector's name"]) for cell in register)
    approvals = {cell for row in csv.reader(io.StringIO(files["approvals_in_effect.csv"])) for cell in row}
    assert any(cell.startswith("'" + HOSTILE["layout name"]) for cell in approvals)
    flags = list(csv.reader(io.StringIO(files["exceptions.csv"])))
    name, note = HOSTILE["resolver's name"], HOSTILE["resolution note"]
    signer = f"{name} (credential {hostile.compliance.credential_number})"
    resolution, history = flags[1][-2:]
    assert resolution.startswith(f"Open, acknowledged by {signer}, ") and resolution.endswith(f": {note}")
    assert f"Acknowledged by {signer}, the flag staying open until cured: {note}" in history


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("  =1", "'  =1"),
        ("\uff1d1+1", "'\uff1d1+1"),  # a full-width equals sign
        ("R-01", "R-01"),
        ("Inspection passed", "Inspection passed"),
        ("", ""),
        (None, ""),
        (12, "12"),
    ],
)
def test_a_cell_is_neutralised_only_when_it_starts_like_a_formula(value, written):
    assert csv_cell(value) == written


def test_no_csv_is_written_but_through_the_one_writer():
    """Any new CSV export (a view, a command, an admin action) must use inspections.reports.csvfile."""
    # Reading a CSV is no export (bench/floor.py reads locust's statistics): writers only.
    writers = re.compile(
        r"\bcsv\.(writer|DictWriter)\b|from csv import [^\n]*\b(writer|DictWriter)\b|import csv as|text/csv"
        r"|CSVRenderer|defusedcsv"
    )
    offenders = []
    for folder in ("compliance", "inspections", "config", "templates", "scripts", "bench"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".html") or path == ROOT / "inspections/reports/csvfile.py":
                continue
            if writers.search(path.read_text(encoding="utf-8")):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
