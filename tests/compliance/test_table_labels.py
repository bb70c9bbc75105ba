"""A QR label per table (issue 20, item 7): a printable PDF sheet, each code opening that table's page
at the configured SITE_URL; for those who manage tables only."""

import io
import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from pypdf import PdfReader

from compliance.casinos.labels import qr_svg, table_address
from compliance.casinos.models import LabelSheet, LabelSheetStatus
from compliance.casinos.tasks import label_sheet_generate
from config.settings import envurl
from tests.factories import GamingTableFactory


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def asked(client, prop, page=None, **extra):
    data = {"property": prop.pk} | ({} if page is None else {"page": page})
    return client.post("/manage/tables/labels/", data, **extra)


def test_a_compliance_manager_prints_a_label_per_table_each_opening_its_page(client, casino, other_casino, settings):
    settings.SITE_URL = "https://logbook.keystone.example"
    second = GamingTableFactory(property=casino.property, number="R-02")
    client.force_login(casino.compliance)
    assert asked(client, casino.property, page=0).status_code == 302
    sheet = LabelSheet.objects.get()
    assert sheet.status == LabelSheetStatus.QUEUED and (sheet.first, sheet.count) == (0, 2)
    label_sheet_generate(sheet.pk)  # the worker's part
    response = client.get(f"/manage/tables/labels/{sheet.pk}/download/")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    content = b"".join(response.streaming_content)
    assert content.startswith(b"%PDF")
    text = pdf_text(content)
    for table in (casino.table, second):
        assert f"Table {table.number}" in text
        assert f"https://logbook.keystone.example/tables/{table.pk}/" in text.replace("\n", "")
    assert f"/tables/{other_casino.table.pk}/" not in text.replace("\n", "")
    # The page shows it done, with its file; another property's manager sees neither.
    assert f"/manage/tables/labels/{sheet.pk}/download/" in client.get("/manage/tables/labels/").content.decode()
    client.force_login(other_casino.compliance)
    assert client.get(f"/manage/tables/labels/{sheet.pk}/download/").status_code == 404
    assert asked(client, casino.property, page=0).status_code == 404


def test_no_request_renders_a_pdf_nor_waits_for_one(client, casino, monkeypatch):
    """Issue 32, item 3: the sheet was rendered by WeasyPrint inside the web request (505 tables
    outlived gunicorn's timeout). Asking records the sheet; following it and its row render none."""
    import weasyprint

    def no_render(*args, **kwargs):
        raise AssertionError("a web request rendered a PDF")

    monkeypatch.setattr(weasyprint.HTML, "write_pdf", no_render)
    client.force_login(casino.compliance)
    # The manage page's link, followed as a person does.
    link = re.search(r'href="([^"]*labels[^"]*)"', client.get("/manage/").content.decode()).group(1)
    assert client.get(link.replace("&amp;", "&")).status_code == 200
    assert asked(client, casino.property, page=0).status_code == 302
    sheet = LabelSheet.objects.get()
    assert client.get("/manage/tables/labels/").status_code == 200
    row = client.get(f"/manage/tables/labels/{sheet.pk}/row/").content.decode()
    assert "hx-trigger" in row  # followed until done
    assert client.get(f"/manage/tables/labels/{sheet.pk}/download/").status_code == 404


def test_a_sheet_holds_at_most_its_limit_and_a_larger_property_prints_by_pages(client, casino, settings):
    settings.LABELS_PER_SHEET = 2
    for number in ("R-02", "R-03", "R-04", "R-05"):
        GamingTableFactory(property=casino.property, number=number)
    client.force_login(casino.compliance)
    refused = asked(client, casino.property)  # all five tables at once
    assert refused.status_code == 400 and not LabelSheet.objects.exists()
    text = refused.content.decode()
    assert "at most 2 labels" in text and "5 tables" in text
    page = client.get("/manage/tables/labels/").content.decode()
    assert "Labels of tables 1 to 2" in page and "Labels of tables 5 to 5" in page
    assert asked(client, casino.property, page=2).status_code == 302
    sheet = LabelSheet.objects.get()
    assert (sheet.first, sheet.count) == (4, 1)
    label_sheet_generate(sheet.pk)
    sheet.refresh_from_db()
    text = pdf_text(sheet.file.read())
    assert "Table R-05" in text and "Table R-01" not in text


def test_a_person_has_at_most_a_few_sheets_waiting(client, casino, settings):
    settings.LABELS_MAX_PENDING_PER_PERSON = 2
    client.force_login(casino.compliance)
    assert [asked(client, casino.property, page=0).status_code for _ in range(3)] == [302, 302, 429]
    assert LabelSheet.objects.count() == 2
    label_sheet_generate(LabelSheet.objects.first().pk)
    assert asked(client, casino.property, page=0).status_code == 302


def test_each_code_encodes_the_tables_absolute_address(casino, settings):
    settings.SITE_URL = "https://logbook.keystone.example"
    address = table_address(casino.table)
    assert address == f"https://logbook.keystone.example/tables/{casino.table.pk}/"
    drawing = qr_svg(address)
    assert drawing.startswith("<svg") and re.search(r'<path [^>]*d="M', drawing)
    # Another address draws another code.
    assert qr_svg(address + "x") != drawing


@pytest.mark.parametrize("role", ["security", "floorperson", "maintenance"])
def test_the_floor_roles_do_not_print_labels(client, casino, role):
    client.force_login(getattr(casino, role))
    assert client.get("/manage/tables/labels/").status_code == 403


def test_a_regulator_does_not_print_labels(client, casino, regulator):
    client.force_login(regulator)
    assert client.get("/manage/tables/labels/").status_code == 403


def test_the_manage_page_links_to_the_labels(client, casino):
    client.force_login(casino.compliance)
    assert "/manage/tables/labels/?property=" in client.get("/manage/").content.decode()


@pytest.mark.parametrize("value", ["logbook.example", "ftp://logbook.example", "https://", "https://x.example/?a=1"])
def test_a_bad_site_url_stops_the_start(monkeypatch, value):
    monkeypatch.setenv("SITE_URL", value)
    with pytest.raises(ImproperlyConfigured):
        envurl("SITE_URL", "http://127.0.0.1:8000")


def test_the_site_url_loses_its_trailing_slash(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://logbook.example/")
    assert envurl("SITE_URL", "") == "https://logbook.example"


def test_with_the_broker_down_the_sheet_says_so_and_holds_no_place(client, casino, django_capture_on_commit_callbacks):
    from tests.conftest import celery_connected_to
    from tests.servers import free_port

    client.force_login(casino.compliance)
    with celery_connected_to(f"redis://127.0.0.1:{free_port()}/0"), django_capture_on_commit_callbacks(execute=True):
        assert asked(client, casino.property, page=0).status_code == 302  # the request never waits
    sheet = LabelSheet.objects.get()
    assert sheet.status == LabelSheetStatus.FAILED and "ask for the sheet again" in sheet.error
    assert "ask for the sheet again" in client.get("/manage/tables/labels/").content.decode()
