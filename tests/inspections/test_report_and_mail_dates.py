"""The reports (their text as pdftotext reads it) and the flags' mail say every date and time in the one
format, in the property's zone, named (tests/test_dates.py has the format and the pages): on both sides
of New York's midnight in winter (EST) and on a summer night (EDT)."""

from __future__ import annotations

import csv
import io
import subprocess
from zoneinfo import ZoneInfo

import pytest
from django.core import mail

from compliance.casinos.models import GamingTable, Property
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.reports import render
from inspections.reports.models import Report, ReportKind
from tests.support.logbook import a_day, event
from tests.support.reports import requested
from tests.test_dates import CLOCKS, dates_not_ours

NEW_YORK = ZoneInfo("America/New_York")
CLOCK_PARAMS = pytest.mark.parametrize(
    "frozen_clock", [at for at, _ in CLOCKS.values()], ids=list(CLOCKS), indirect=True
)


def zone_of(request) -> str:
    return dict(CLOCKS.values())[request.node.callspec.params["frozen_clock"]]


def pdf_text(report: Report, *, last_page: int | None = None) -> str:
    """The report's text as a person copies it out of the PDF (poppler's pdftotext)."""
    pages = ["-l", str(last_page)] if last_page else []
    out = subprocess.run(["pdftotext", *pages, report.file.path, "-"], capture_output=True, text=True, check=True)
    return " ".join(out.stdout.split())


def flagged_and_cured(casino) -> ComplianceException:
    """A day at the table, closed, the wheel left uncovered past its deadline (a flag), then covered."""
    a_day(casino)
    flag_services.scan(now=GamingTable.objects.get(pk=casino.table.pk).status.cover_due_at)
    event(casino, "cover")
    return ComplianceException.objects.get()


@CLOCK_PARAMS
def test_the_reports_say_each_time_in_the_propertys_zone(request, committed_db, media, casino):
    zone = zone_of(request)
    flag = flagged_and_cured(casino)
    flags = render.generate_locally(requested(casino, kind="exceptions").pk)
    text = pdf_text(flags)
    due = f"{flag.due_at.astimezone(NEW_YORK):%Y-%m-%d %H:%M} {zone}"
    assert due in text, text
    assert f"{flags.requested_at.astimezone(NEW_YORK):%Y-%m-%d %H:%M} {zone}" in text  # generated
    wrong, times = dates_not_ours(text, {zone})
    assert not wrong and times >= 3, (wrong, text)

    register = render.generate_locally(requested(casino).pk)
    # The cover (the register's rows are the CSV's cells: the date, the time and the signatures as the
    # offline verifier reproduces them; the cover names the zone of the period).
    cover = pdf_text(register, last_page=1)
    assert f"{register.period_from:%Y-%m-%d} to {register.period_to:%Y-%m-%d}, in America/New_York time" in cover
    wrong, times = dates_not_ours(cover, {zone})
    assert not wrong and times >= 1, (wrong, cover)


@CLOCK_PARAMS
def test_the_flags_mail_says_each_time_in_the_propertys_zone(request, casino):
    zone = zone_of(request)
    Property.objects.filter(pk=casino.property.pk).update(notify_emails=["supervisor@example.com"])
    a_day(casino)
    flag_services.scan(now=GamingTable.objects.get(pk=casino.table.pk).status.cover_due_at)
    flag_services.notify_new_flags()
    flag = ComplianceException.objects.get()
    (alert,) = mail.outbox
    due = f"{flag.due_at.astimezone(NEW_YORK):%Y-%m-%d %H:%M} {zone}"
    detected = f"{flag.detected_at.astimezone(NEW_YORK):%Y-%m-%d %H:%M} {zone}"
    assert f"Deadline missed: {due}. Detected: {detected}." in alert.body
    assert not dates_not_ours(alert.subject + " " + alert.body, {zone})[0], alert.body


def csv_text(report: Report) -> str:
    """The CSV's cells as a person reads them in a spreadsheet, one cell at a time."""
    with report.file.open("rb") as handle:
        rows = list(csv.reader(io.StringIO(handle.read().decode("utf-8"))))
    return " ||| ".join(cell for row in rows for cell in row)  # cells apart: a date cell beside a time cell


@pytest.mark.parametrize(
    "frozen_clock", [CLOCKS["winter-23h30-utc-tomorrow"][0]], ids=["winter-23h30-utc-tomorrow"], indirect=True
)
@pytest.mark.parametrize("fmt", ["pdf", "csv"])
@pytest.mark.parametrize("kind", list(ReportKind.values))
def test_every_time_in_every_report_names_its_zone(request, committed_db, media, casino, kind, fmt):
    """Issue 30: the register's Date/Time column ("2026-11-19 02:00:00") and its signatures' times
    carried no zone. Every report, PDF and CSV, every page: each time a person reads is named."""
    zone = zone_of(request)
    flagged_and_cured(casino)
    report = render.generate_locally(requested(casino, kind=kind, fmt=fmt).pk)
    text = pdf_text(report) if fmt == "pdf" else csv_text(report)
    wrong, times = dates_not_ours(text, {zone})
    assert not wrong, (wrong, text[:3000])
    if kind in ("inspection_register", "table_history", "exceptions"):
        assert times >= 3, text[:3000]


def test_the_flags_reports_charts_share_the_cover_page(committed_db, media, casino):
    """Issue 30: the flags report's second chart took a page of its own. Its charts stand side by
    side under the cover, on its first page (as pdftotext reads the pages; checked as pictures with
    pdftoppm when the layout changed)."""
    flagged_and_cured(casino)
    report = render.generate_locally(requested(casino, kind="exceptions").pk)
    cover = pdf_text(report, last_page=1)
    for title in ("Flags per week", "Time from the missed deadline to resolution"):
        assert title in cover, cover
    assert "Flags per week" not in pdf_text(report).replace(cover, "", 1)
