"""Flat with the jurisdiction: every list page and API list costs a regulator of many properties the
same queries as one of two (no COUNT or page of the whole jurisdiction); the regulator's floor is a
summary by property, a page at a time; the flags come newest first, a page at a time, by property."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from compliance.casinos.models import Jurisdiction, TableState
from inspections.flags.models import ComplianceException
from inspections.logbook.models import Entry, TableStatus
from inspections.logbook.web import SUMMARY_PAGE
from inspections.reports.forms import PROPERTY_CHOICES
from tests.factories import GamingTableFactory, PropertyFactory, RegulatorFactory, UserFactory, flag_raised

pytestmark = pytest.mark.django_db

FEW, MANY = 2, 30
assert MANY > SUMMARY_PAGE and MANY > PROPERTY_CHOICES  # the large side has a second page and no list to choose from

# Every list a regulator reads; "{property}": the first
# property of the regulator's jurisdiction.
LISTS = [
    "/api/logbook/",
    "/api/tables/",
    "/api/properties/",
    "/api/exceptions/",
    "/api/inspections/",
    "/api/adjustments/",
    "/api/irregularities/",
    "/api/deck-changes/",
    "/api/amendments/",
    "/api/people/",
    "/api/reports/",
    "/api/wheels/",
    "/api/balls/",
    "/api/rules-submissions/",
    "/api/layouts/",
    "/",
    "/floor/",
    "/floor/?property={property}",
    "/flags/",
    "/flags/?status=resolved",
    "/flags/?property={property}",
    "/reports/",
    "/approvals/",
]


def jurisdiction_of(code: str, properties: int, *, prefix: str):
    """`properties` properties of the jurisdiction, each with two tables (one open, overdue), an entry a
    table, an open and a resolved flag on its first table; and the jurisdiction's regulator."""
    now = timezone.now()
    props = [
        PropertyFactory(name=f"{prefix} {n:02d}", licence_number=f"{code}-{prefix}-{n:02d}", jurisdiction=code)
        for n in range(properties)
    ]
    for prop in props:
        staff = UserFactory(property=prop)
        late = GamingTableFactory(property=prop, number="R-01")
        TableStatus.objects.filter(table=late).update(state=TableState.OPEN, next_due=now - timedelta(hours=1))
        GamingTableFactory(property=prop, number="R-02")
        for seq, table in enumerate(prop.tables.order_by("number"), start=1):
            Entry.objects.create(
                property=prop,
                seq=seq,
                table=table,
                table_number=table.number,
                kind="unlock",
                occurred_at=now - timedelta(hours=2, minutes=seq),
                recorded_by=staff,
                description="Wheel unlocked",
                prev_hash="0" * 64,
                entry_hash=f"{prop.pk:032x}{seq:032x}",
            )
        for status, due in (("resolved", now - timedelta(days=1)), ("open", now - timedelta(minutes=30))):
            flag_raised(
                late,
                due_at=due,
                status=status,
                resolution="cleared" if status == "resolved" else "",
                resolved_at=now if status == "resolved" else None,
            )
    return RegulatorFactory(jurisdiction=code), props


@pytest.fixture
def regulators():
    few = jurisdiction_of(Jurisdiction.NJ, FEW, prefix="Shore")
    many = jurisdiction_of(Jurisdiction.PA, MANY, prefix="Keystone")
    return {"few": few, "many": many}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def statements(client: Client, url: str) -> list[str]:
    client.get(url)  # the session and anything cached once, as for a person who reads the page again
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return [query["sql"] for query in captured.captured_queries]


@pytest.fixture
def no_throttle_culling(monkeypatch):
    """The API's throttle deletes its expired counts on about one request in 500, at random: not a
    cost of the list, and it would make one side's count one more now and then."""
    from compliance.accounts import services

    monkeypatch.setattr(services, "CULL_EVERY", 10**15)


@pytest.mark.parametrize("path", LISTS)
def test_every_list_costs_a_large_jurisdiction_the_queries_of_a_small_one(regulators, no_throttle_culling, path):
    counts = {}
    for side, (regulator, props) in regulators.items():
        sql = statements(signed_in(regulator), path.format(property=props[0].pk))
        counts[side] = len(sql)
        # No page counts the jurisdiction's rows: a count is of one property's (the floor summary's
        # correlated counts) or asked for by the client (count=true).
        assert not any(re.search(r"SELECT COUNT\(\*\) AS \"__count\"", query) for query in sql), (side, path)
    assert counts["few"] == counts["many"], counts


def tiles(page: str) -> list[str]:
    return re.findall(r'<a class="tile property[^"]*" href="/floor/\?property=(\d+)">', page)


def test_the_regulators_floor_is_a_summary_by_property_each_tile_linking_to_its_floor(regulators):
    regulator, props = regulators["few"]
    page = signed_in(regulator).get("/floor/").content.decode()
    assert tiles(page) == [str(prop.pk) for prop in props]
    first = page[page.index(f'href="/floor/?property={props[0].pk}"') :]
    first = first[: first.index("</a>")]
    assert props[0].name in first and props[0].licence_number in first
    assert "2 tables, 1 open" in first and "1 table overdue" in first and "1 open flag" in first
    # The property's own floor: its tables, as its floor staff see them.
    own = signed_in(regulator).get(f"/floor/?property={props[0].pk}").content.decode()
    assert 'class="tile state-open flagged"' in own and "R-01" in own and "R-02" in own
    assert 'class="tile property' not in own


def test_floor_staff_keep_their_propertys_floor(regulators):
    _, props = regulators["many"]
    floorperson = UserFactory(property=props[0])
    page = signed_in(floorperson).get("/floor/").content.decode()
    assert "R-01" in page and 'class="tile property' not in page and props[1].name not in page


def test_the_summarys_pages_follow_each_other_by_name_without_a_count(regulators):
    regulator, props = regulators["many"]
    client = signed_in(regulator)
    first = client.get("/floor/").content.decode()
    by_name = [str(prop.pk) for prop in sorted(props, key=lambda prop: prop.name)]
    assert tiles(first) == by_name[:SUMMARY_PAGE]
    assert 'rel="next" href="?page=2"' in first and 'rel="prev"' not in first
    second = client.get("/floor/?page=2").content.decode()
    assert tiles(second) == by_name[SUMMARY_PAGE:]
    assert 'rel="prev" href="?page=1"' in second and 'rel="next"' not in second
    assert "No more properties" in client.get("/floor/?page=3").content.decode()
    assert tiles(client.get("/floor/?page=x").content.decode()) == by_name[:SUMMARY_PAGE]


def test_the_regulators_home_lists_its_properties_a_page_at_a_time(regulators):
    regulator, props = regulators["many"]
    client = signed_in(regulator)
    first, second = client.get("/").content.decode(), client.get("/?page=2").content.decode()
    links = re.findall(r"/floor/\?property=(\d+)", first + second)
    assert sorted(links) == sorted(str(prop.pk) for prop in props) and len(set(links)) == MANY
    assert 'rel="next" href="?page=2"' in first and 'rel="prev" href="?page=1"' in second


def flag_rows(page: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-flag="(\d+)"', page)]


def test_the_flags_come_newest_first_a_page_at_a_time_and_by_property(regulators):
    regulator, props = regulators["many"]
    client = signed_in(regulator)
    open_flags = list(
        ComplianceException.objects.filter(property__in=props, status="open")
        .order_by("-detected_at", "-id")
        .values_list("pk", flat=True)
    )
    first = client.get("/flags/").content.decode()
    shown = flag_rows(first[: first.index("Recently cured")])
    assert shown == open_flags  # 30: one page
    assert "Older open flags" not in first
    one = client.get(f"/flags/?property={props[3].pk}").content.decode()
    assert flag_rows(one[: one.index("Recently cured")]) == list(
        ComplianceException.objects.filter(property=props[3], status="open").values_list("pk", flat=True)
    )
    assert props[3].name in one and props[4].name not in one


def test_the_flags_older_link_walks_every_flag_once(regulators, settings, monkeypatch):
    from inspections.flags import web

    monkeypatch.setattr(web, "FLAGS_PAGE", 7)
    regulator, props = regulators["many"]
    client = signed_in(regulator)
    expected = list(
        ComplianceException.objects.filter(property__in=props, status="resolved")
        .order_by("-detected_at", "-id")
        .values_list("pk", flat=True)
    )
    seen, url, pages = [], "/flags/?status=resolved", 0
    while url:
        page = client.get(url).content.decode()
        seen += flag_rows(page)
        pages += 1
        older = re.search(r'rel="next" href="([^"]+)"', page)
        url = "/flags/" + older.group(1).replace("&amp;", "&") if older else None
    assert seen == expected and pages == 5  # 30 flags, 7 a page


def test_a_large_jurisdictions_report_form_asks_for_the_licence_number(regulators):
    regulator, props = regulators["many"]
    page = signed_in(regulator).get("/reports/").content.decode()
    assert re.search(r'<input type="text" name="property"', page) and '<select name="property"' not in page
    one = signed_in(regulator).get(f"/reports/?property={props[2].pk}").content.decode()
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', one[one.index('name="property"') :])
    assert options[:1] == [(str(props[2].pk), props[2].name)]
    small, few = regulators["few"]
    page = signed_in(small).get("/reports/").content.decode()
    assert '<select name="property"' in page and all(prop.name in page for prop in few)


def test_a_licence_number_names_the_property_of_a_report_and_only_ones_own(regulators):
    from inspections.reports.forms import ReportForm

    regulator, props = regulators["many"]
    from compliance.casinos.selectors import properties_visible_to

    visible = properties_visible_to(regulator)
    shown = list(visible[: PROPERTY_CHOICES + 1])
    data = {"kind": "inspection_register", "period_from": "2026-01-01", "period_to": "2026-01-02", "format": "csv"}
    form = ReportForm({**data, "property": props[5].licence_number}, properties=visible, shown=shown)
    form.is_valid()
    assert "property" not in form.errors and form.cleaned_data["property"] == props[5]
    _, others = regulators["few"]
    form = ReportForm({**data, "property": others[0].licence_number}, properties=visible, shown=shown)
    assert not form.is_valid() and "property" in form.errors


def test_the_tables_api_walks_a_jurisdiction_by_property_and_number_by_its_links(regulators):
    from compliance.casinos.models import GamingTable
    from tests.support.api import client_for

    regulator, props = regulators["many"]
    client = client_for(regulator)
    expected = list(
        GamingTable.objects.filter(property__in=props).order_by("property_id", "number").values_list("pk", flat=True)
    )
    seen, url = [], "/api/tables/?page_size=7"
    while url:
        body = client.get(url).json()
        assert "count" not in body
        seen += [row["id"] for row in body["results"]]
        url = body["next"]
    assert seen == expected and len(seen) == 2 * MANY
