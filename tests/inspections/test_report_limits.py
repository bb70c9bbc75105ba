"""The product's limits on reports, so that one person's requests never fill the workers for everyone:
how many reports a person and a property may have waiting or running (HTTP 429), and how long a
period one report covers (HTTP 400), in the API and on the page, each refusal with its citation
and nothing written."""

from datetime import date, timedelta

import pytest

from compliance.accounts.models import Role
from inspections.reports.models import Report, ReportStatus
from inspections.reports.services import report_request
from tests.conftest import celery_connected_to
from tests.factories import RegulatorFactory, UserFactory
from tests.inspections.test_concurrency import run_at_once
from tests.support.api import client_for

BODY = {"kind": "inspection_register", "from": "2026-11-01", "to": "2026-11-02", "format": "csv"}


@pytest.fixture
def limits(settings):
    settings.REPORT_MAX_PENDING_PER_PERSON = 2
    settings.REPORT_MAX_PENDING_PER_PROPERTY = 3
    settings.REPORT_MAX_DAYS = 366
    return settings


def ask(user, prop, **changes):
    return client_for(user).post("/api/reports/", {**BODY, "property": prop.pk, **changes}, format="json")


def refusal(response, status: int) -> dict:
    assert response.status_code == status, response.content
    (error,) = response.json()["errors"]
    assert error["citation"].startswith("Product policy: ")
    return error


def test_a_person_with_their_limit_of_reports_waiting_is_refused_429_until_one_is_done(casino, limits):
    for _ in range(2):
        assert ask(casino.compliance, casino.property).status_code == 201
    error = refusal(ask(casino.compliance, casino.property), 429)
    assert error["code"] == "too_many_reports_pending" and error["field"] is None
    assert "2 reports waiting" in error["message"] and "at most 2" in error["message"]
    assert Report.objects.count() == 2  # nothing written

    # A report running counts as one waiting; a done or failed one does not.
    first, second = Report.objects.order_by("pk")
    Report.objects.filter(pk=first.pk).update(status=ReportStatus.RUNNING)
    assert ask(casino.compliance, casino.property).status_code == 429
    Report.objects.filter(pk=first.pk).update(status=ReportStatus.DONE)
    Report.objects.filter(pk=second.pk).update(status=ReportStatus.FAILED)
    assert ask(casino.compliance, casino.property).status_code == 201
    assert ask(casino.compliance, casino.property).status_code == 201
    assert ask(casino.compliance, casino.property).status_code == 429


def test_a_property_with_its_limit_of_reports_waiting_is_refused_429_for_everyone(casino, other_casino, limits):
    colleague = UserFactory(property=casino.property, role=Role.COMPLIANCE)
    regulator = RegulatorFactory()
    assert ask(casino.compliance, casino.property).status_code == 201
    assert ask(colleague, casino.property).status_code == 201
    assert ask(regulator, casino.property).status_code == 201
    error = refusal(ask(colleague, casino.property), 429)
    assert (error["code"], error["field"]) == ("too_many_reports_pending", "property")
    assert "Keystone Casino already has 3 reports waiting" in error["message"]
    assert refusal(ask(regulator, casino.property), 429)["field"] == "property"
    # Another property's reports wait in a count of their own.
    assert ask(other_casino.compliance, other_casino.property).status_code == 201
    assert ask(regulator, other_casino.property).status_code == 201
    assert Report.objects.filter(property=casino.property).count() == 3


@pytest.mark.parametrize("start", ["2025-11-02", "2016-11-01"], ids=["a-day-too-many", "ten-years"])
def test_a_period_longer_than_the_limit_is_refused_400_naming_it(casino, limits, start):
    assert ask(casino.compliance, casino.property, **{"from": "2025-11-03", "to": "2026-11-02"}).status_code == 201
    before = Report.objects.count()
    days = (date(2026, 11, 2) - date.fromisoformat(start)).days + 1
    limits.REPORT_MAX_DAYS = 365
    error = refusal(ask(casino.compliance, casino.property, **{"from": start, "to": "2026-11-02"}), 400)
    assert (error["code"], error["field"]) == ("report_period_too_long", "to")
    assert "at most 365 days" in error["message"] and f"asks for {days}" in error["message"]
    assert error["citation"] == "Product policy: one report covers at most 365 days"
    assert Report.objects.count() == before


def form(prop, **changes) -> dict:
    return {
        "kind": "inspection_register",
        "property": prop.pk,
        "period_from": "2026-11-01",
        "period_to": "2026-11-02",
        "tables": "",
        "format": "csv",
        **changes,
    }


def test_the_reports_page_shows_the_same_refusals(client, casino, limits):
    client.force_login(casino.compliance)
    for _ in range(2):
        assert client.post("/reports/", form(casino.property)).status_code == 302
    page = client.post("/reports/", form(casino.property))
    assert page.status_code == 429
    text = page.content.decode()
    assert "You already have 2 reports waiting or being generated (at most 2 at once)" in text
    assert "Product policy: at most 2 reports waiting at once per person, 3 per property" in text
    assert Report.objects.count() == 2

    Report.objects.update(status=ReportStatus.DONE)
    page = client.post("/reports/", form(casino.property, period_from="2024-01-01"))
    assert page.status_code == 200 and "A report covers at most 366 days" in page.content.decode()
    assert "Product policy: one report covers at most 366 days" in page.content.decode()
    assert Report.objects.count() == 2


@pytest.mark.slow  # some 6 s: Celery retries the stopped broker before it gives up
def test_two_requests_at_once_cannot_both_take_the_last_place(committed_db, casino, settings):
    settings.REPORT_MAX_PENDING_PER_PERSON = 1

    def one():
        return report_request(
            requested_by=casino.compliance,
            property=casino.property,
            kind="inspection_register",
            format="csv",
            period_from=date(2026, 11, 1),
            period_to=date(2026, 11, 2),
        )

    # No broker (nothing of another test's or server's may receive the task): each stays queued.
    with celery_connected_to("redis://127.0.0.1:1/0", "cache+memory://"):
        results = run_at_once([one, one, one])
    assert sum(isinstance(result, Report) for result in results) == 1, results
    assert Report.objects.count() == 1


def test_a_report_lost_for_six_hours_no_longer_holds_its_persons_place(casino, limits):
    """Its task gone with a Redis that lost its data, it holds no worker: after six hours it stops
    counting, so nobody is refused reports for good."""
    for _ in range(2):
        assert ask(casino.compliance, casino.property).status_code == 201
    assert ask(casino.compliance, casino.property).status_code == 429
    lost = Report.objects.order_by("pk").first()
    Report.objects.filter(pk=lost.pk).update(requested_at=lost.requested_at - timedelta(hours=6, seconds=1))
    assert ask(casino.compliance, casino.property).status_code == 201
    assert ask(casino.compliance, casino.property).status_code == 429
