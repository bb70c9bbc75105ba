"""What a signed-in person is shown is never kept by a browser, a shared tablet or a proxy:
`Cache-Control: no-store` on every page, API response and report download that answers them
(the routes are walked from the URLconf, not listed by hand)."""

from __future__ import annotations

import re

import pytest
from django.core.files.base import ContentFile
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from inspections.reports.models import Report
from tests.factories import PASSWORD, RegulatorFactory
from tests.support.reports import requested


def _routes(patterns=None, prefix: str = "") -> list[str]:
    """Every route of the URLconf that takes no argument, as a path."""
    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        text = str(entry.pattern).removeprefix("^").removesuffix("$").replace("\\.", ".")
        if "(?P<" in text or "<" in text or "(" in text:
            continue  # takes an argument: the pages with ids are covered below
        if isinstance(entry, URLResolver):
            found += _routes(entry.url_patterns, prefix + text)
        elif isinstance(entry, URLPattern):
            found.append("/" + prefix + text)
    return sorted({re.sub(r"/\??$", "/", path) for path in found if "logout" not in path})


ROUTES = _routes()


def assert_not_stored(response, what: str) -> None:
    directives = {part.strip() for part in response.get("Cache-Control", "").split(",")}
    assert {"no-store", "private"} <= directives, (what, response.status_code, response.get("Cache-Control"))


def test_the_walk_finds_pages_api_and_admin():
    assert {"/floor/", "/api/tables/", "/api/logbook/", "/admin/", "/login/"} <= set(ROUTES)


@pytest.mark.parametrize("who", ["security", "compliance"])
def test_every_page_and_api_response_to_a_signed_in_person_is_not_stored(client, casino, who):
    client.force_login(getattr(casino, who))
    for path in ROUTES:
        assert_not_stored(client.get(path), path)
    # The API with a token (no session): DRF's authentication counts as signed in too.
    token = APIClient().post(
        "/api/auth/token/", {"username": casino.compliance.username, "password": PASSWORD}, format="json"
    )
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    for path in (p for p in ROUTES if p.startswith("/api/")):
        assert_not_stored(api.get(path), path)
    for path in (f"/tables/{casino.table.pk}/", f"/api/tables/{casino.table.pk}/"):
        assert_not_stored(client.get(path), path)


def test_report_downloads_are_not_stored(client, casino, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    report = requested(casino, by=RegulatorFactory(), fmt="csv")
    report.file.save("register.csv", ContentFile(b"table,date\r\nR-01,2026-11-23\r\n"), save=False)
    Report.objects.filter(pk=report.pk).update(status="done", file=report.file.name, sha256="0" * 64)
    api = APIClient()
    api.force_authenticate(report.requested_by)
    download = api.get(f"/api/reports/{report.pk}/download/")
    assert download.status_code == 200 and b"R-01" in b"".join(download.streaming_content)
    assert_not_stored(download, "API download")
    client.force_login(report.requested_by)
    page = client.get(f"/reports/{report.pk}/download/")
    assert page.status_code == 200
    assert_not_stored(page, "web download")
