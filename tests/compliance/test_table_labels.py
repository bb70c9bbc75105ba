"""A QR label per table (issue 20, item 7): a printable PDF sheet, each code opening that table's page
at the configured SITE_URL; for those who manage tables only."""

import io
import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from pypdf import PdfReader

from compliance.casinos.labels import qr_svg, table_address
from config.settings import envurl
from tests.factories import GamingTableFactory


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_a_compliance_manager_prints_a_label_per_table_each_opening_its_page(client, casino, other_casino, settings):
    settings.SITE_URL = "https://logbook.keystone.example"
    second = GamingTableFactory(property=casino.property, number="R-02")
    client.force_login(casino.compliance)
    response = client.get("/manage/tables/labels.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    for table in (casino.table, second):
        assert f"Table {table.number}" in text
        assert f"https://logbook.keystone.example/tables/{table.pk}/" in text.replace("\n", "")
    assert f"/tables/{other_casino.table.pk}/" not in text.replace("\n", "")


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
    assert client.get("/manage/tables/labels.pdf").status_code == 403


def test_a_regulator_does_not_print_labels(client, casino, regulator):
    client.force_login(regulator)
    assert client.get("/manage/tables/labels.pdf").status_code == 403


def test_the_manage_page_links_to_the_labels(client, casino):
    client.force_login(casino.compliance)
    assert "/manage/tables/labels.pdf?property=" in client.get("/manage/").content.decode()


@pytest.mark.parametrize("value", ["logbook.example", "ftp://logbook.example", "https://", "https://x.example/?a=1"])
def test_a_bad_site_url_stops_the_start(monkeypatch, value):
    monkeypatch.setenv("SITE_URL", value)
    with pytest.raises(ImproperlyConfigured):
        envurl("SITE_URL", "http://127.0.0.1:8000")


def test_the_site_url_loses_its_trailing_slash(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://logbook.example/")
    assert envurl("SITE_URL", "") == "https://logbook.example"
