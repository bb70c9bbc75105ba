"""The hash chain's verdict on a report, for every format: intact, broken (naming the first broken
entry) or not verified, the same in the reports list, the API and the PDF's cover; an unknown is
never shown as broken."""

import pytest
from django.db import connection
from django.urls import reverse

from inspections.logbook.chain import chain_verify
from inspections.logbook.models import Entry
from inspections.reports import render
from inspections.reports.models import Report, ReportKind
from tests import append_only as triggers
from tests.support.api import client_for
from tests.support.reports import pdf_pages, requested

FORMATS = [code for code, _ in Report._meta.get_field("format").choices]


def the_list(client, casino, report: Report) -> str:
    """The report's row in the reports list, as its page shows it."""
    client.force_login(casino.compliance)
    page = client.get(reverse("reports")).content.decode()
    start = page.index(f'id="report-{report.pk}"')
    return " ".join(page[start : page.index("</tr>", start)].split())


def the_api(casino, report: Report) -> dict:
    return client_for(casino.compliance).get(f"/api/reports/{report.pk}/").json()


@pytest.mark.parametrize("kind", ReportKind.values)
@pytest.mark.parametrize("fmt", FORMATS)
def test_an_intact_chain_is_shown_intact_for_every_format_and_kind(committed_db, media, history, client, fmt, kind):
    report = requested(history, fmt=fmt, kind=kind)
    report.tables.set([history.table])
    report = render.generate_locally(report.pk, processes=1)
    assert (report.status, report.chain_intact, report.chain_state) == ("done", True, "intact")
    row = the_list(client, history, report)
    assert "chain verified intact" in row and "BROKEN" not in row
    api = the_api(history, report)
    assert (api["chain"], api["chain_intact"], api["chain_broken_entry"]) == ("intact", True, None)
    assert api["chain_head"] == report.chain_head and len(report.chain_head) == 64


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_broken_chain_names_its_first_broken_entry_everywhere(committed_db, media, history, client, fmt):
    adjustment = Entry.objects.get(kind="adjustment")
    with connection.cursor() as cursor:
        triggers.drop(connection)
        cursor.execute("UPDATE logbook_entry SET description = 'nothing happened' WHERE id = %s", [adjustment.pk])
        triggers.install(connection)
    reason = chain_verify(property_id=history.property.pk).reason
    assert reason
    report = render.generate_locally(requested(history, fmt=fmt).pk, processes=1)
    assert (report.chain_intact, report.chain_state, report.chain_broken_seq) == (False, "broken", adjustment.seq)
    row = the_list(client, history, report)
    assert f"chain BROKEN at entry #{adjustment.seq}" in row and reason in row
    api = the_api(history, report)
    assert (api["chain"], api["chain_broken_entry"]) == ("broken", adjustment.seq)
    assert api["chain_broken_reason"] == reason
    if fmt == "pdf":
        cover = " ".join(pdf_pages(report)[0].split())
        assert f"BROKEN at entry #{adjustment.seq}" in cover


def test_a_chain_not_verified_is_never_shown_broken(committed_db, media, history, client):
    """A report whose verification never ran (made before it was done for CSVs, or cut short)."""
    report = render.generate_locally(requested(history, fmt="csv").pk, processes=1)
    Report.objects.filter(pk=report.pk).update(chain_intact=None, chain_head="")
    report.refresh_from_db()
    assert report.chain_state == "not_verified" and report.chain_verdict == "Not verified"
    row = the_list(client, history, report)
    assert "chain not verified" in row and "BROKEN" not in row
    api = the_api(history, report)
    assert (api["chain"], api["chain_intact"], api["chain_broken_entry"]) == ("not_verified", None, None)
    cover = render._html(report, render.Piece(render.COVER))
    assert "Not verified" in cover and "BROKEN" not in cover
