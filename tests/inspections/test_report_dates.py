"""A report's period lies between 2000-01-01 and the property's tomorrow (product policy): a report
of year 0001 or 9999 was queued with 201 and could only fail in the worker. Refused with 400 and
the citation in the API, on the page, and by the service both call; nothing written. "Tomorrow"
is the property's, so the tests run on both sides of New York's midnight."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils.html import escape

from compliance.casinos.clock import property_today
from compliance.rulebook.reports import DATES_POLICY
from inspections.reports.models import Report
from tests.inspections.test_report_limits import BODY, form
from tests.support.api import client_for

pytestmark = pytest.mark.any_hour


def _periods(prop) -> dict[str, tuple[str, str, str]]:
    """Refused periods: (from, to, the field named)."""
    today = property_today(prop)
    return {
        "year 1": ("0001-01-01", "0001-01-01", "from"),
        "year 9999": ("9999-12-31", "9999-12-31", "from"),
        "the day before 2000": ("1999-12-31", "2000-01-02", "from"),
        "ending the day after tomorrow": (today.isoformat(), (today + timedelta(days=2)).isoformat(), "to"),
    }


def test_the_api_refuses_a_report_of_an_implausible_period(casino):
    client = client_for(casino.compliance)
    for name, (start, end, field) in _periods(casino.property).items():
        response = client.post(
            "/api/reports/", {**BODY, "property": casino.property.pk, "from": start, "to": end}, format="json"
        )
        assert response.status_code == 400, (name, response.content)
        errors = [(e["code"], e["citation"], e["field"]) for e in response.json()["errors"]]
        assert errors == [("report_period_implausible", DATES_POLICY, field)], name
    assert not Report.objects.exists()


def test_the_api_accepts_the_first_day_of_2000_and_the_propertys_tomorrow(casino):
    client = client_for(casino.compliance)
    tomorrow = (property_today(casino.property) + timedelta(days=1)).isoformat()
    for start, end in (("2000-01-01", "2000-01-01"), (tomorrow, tomorrow)):
        response = client.post(
            "/api/reports/", {**BODY, "property": casino.property.pk, "from": start, "to": end}, format="json"
        )
        assert response.status_code == 201, response.content


def test_the_reports_page_refuses_them_with_the_citation(client, casino):
    client.force_login(casino.compliance)
    for name, (start, end, _field) in _periods(casino.property).items():
        page = client.post("/reports/", form(casino.property, period_from=start, period_to=end))
        assert page.status_code == 200, name
        assert escape(DATES_POLICY) in page.content.decode(), name
    assert not Report.objects.exists()
    tomorrow = (property_today(casino.property) + timedelta(days=1)).isoformat()
    assert client.post("/reports/", form(casino.property, period_from=tomorrow, period_to=tomorrow)).status_code == 302
