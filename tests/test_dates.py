"""One date format for a person, in the property's zone, named (issue 20, item 5).

Every date and time a person reads, on a page, an htmx fragment, a report, a mail, the admin's lists or
a refusal, is "2026-11-24 01:25 EST": the ISO date, the 24-hour time and the abbreviation of the
property's zone at that instant (EST in winter, EDT in summer); a date alone "2026-11-24"; a time
alone "01:25 EST". compliance.rulebook.words holds the format, compliance.casinos.clock and the `local`
filters apply it. Machine formats (the API's ISO 8601, the CSV's cells) are not for this test.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client
from django.utils import timezone

from compliance.accounts.models import Role
from compliance.accounts.services import lock_lift
from compliance.casinos import clock
from compliance.casinos.clock import property_today
from compliance.rulebook import RuleViolation, words
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook.models import Entry
from inspections.reports.models import Report
from tests.factories import (
    PropertyFactory,
    RegulatorFactory,
    UserFactory,
    flag_raised,
)
from tests.servers import ROOT
from tests.support.logbook import adjust, event, inspect
from tests.support.people import bare_casino_staff, sign
from tests.worlds import every_page_world, walk_links

NEW_YORK = ZoneInfo("America/New_York")
# Both sides of New York's midnight in winter (EST: at 23:30 UTC is already the next day), and a
# summer night (EDT): (the instant, the zone's abbreviation every time of the world then reads).
CLOCKS = {
    "winter-23h30-utc-tomorrow": (datetime(2026, 11, 23, 23, 30, tzinfo=NEW_YORK), "EST"),
    "winter-noon": (datetime(2026, 11, 24, 12, 0, tzinfo=NEW_YORK), "EST"),
    "summer-23h30-utc-tomorrow": (datetime(2026, 7, 15, 23, 30, tzinfo=NEW_YORK), "EDT"),
}


# ---- The one format ----


def test_the_format_is_the_iso_date_the_24_hour_time_and_the_zone_of_that_instant():
    winter = datetime(2026, 11, 24, 6, 25, 7, tzinfo=UTC)
    summer = datetime(2026, 7, 15, 5, 25, 7, tzinfo=UTC)
    assert clock.local_text(winter, NEW_YORK) == "2026-11-24 01:25 EST"
    assert clock.local_text(summer, NEW_YORK) == "2026-07-15 01:25 EDT"
    assert clock.local_text(winter, NEW_YORK, seconds=True) == "2026-11-24 01:25:07 EST"
    assert clock.local_time_text(summer, NEW_YORK) == "01:25 EDT"
    assert clock.local_text(winter, ZoneInfo("America/Los_Angeles")) == "2026-11-23 22:25 PST"
    assert clock.date_text(winter.date()) == "2026-11-24"
    assert clock.local_text(None, NEW_YORK) == clock.date_text(None) == ""
    assert clock.zone_abbreviation(NEW_YORK, now=summer) == "EDT"
    with pytest.raises(ValueError, match="names its zone"):
        words.moment_words(datetime(2026, 11, 24, 1, 25))  # noqa: DTZ001 - a naive time is refused


def test_the_template_filters_say_each_time_in_the_zone_given():
    prop = PropertyFactory.build(time_zone="America/Chicago")
    moment = datetime(2026, 11, 24, 6, 25, 7, tzinfo=UTC)
    rendered = Template(
        "{{ t|local:prop }} | {{ t|local:'America/New_York' }} | {{ t|local_time:prop }} | "
        "{{ t|local_seconds:prop }} | {{ d|local }} | {{ none|local:prop }}"
    ).render(Context({"t": moment, "d": moment.date(), "prop": prop, "none": None}))
    assert (
        rendered == "2026-11-24 00:25 CST | 2026-11-24 01:25 EST | 00:25 CST | 2026-11-24 00:25:07 CST | 2026-11-24 | "
    )
    with pytest.raises(TemplateSyntaxError, match="name the property"):
        Template("{{ t|local }}").render(Context({"t": moment}))


def test_django_renders_a_plain_date_and_time_in_the_same_format(settings):
    """The admin's read-only fields and any plain {{ value }}: Django's own formats are ours."""
    moment = datetime(2026, 11, 24, 6, 25, tzinfo=UTC)
    with timezone.override(NEW_YORK):
        assert Template("{{ t }} · {{ d }}").render(Context({"t": moment, "d": moment.date()})) == (
            "2026-11-24 01:25 EST · 2026-11-24"
        )


# ---- (a) Nothing formats a date for a person outside the one helper ----

# A person's date formatted by hand: Django's `date`/`time` filters, strftime, an f-string's date
# format, Django's date_format.
HAND_FORMATTED = re.compile(r"\|\s*(date|time)\b(\s*:|\s*}})|strftime\(|\{[^{}\n]*:%[A-Za-z]|\bdate_format\(")
# Where a date is formatted for a machine, or by the one helper itself: (path, the line's text, why).
MACHINE_FORMATS = {
    ("compliance/rulebook/words.py", "return moment.strftime("): "the one format",
    ("compliance/rulebook/words.py", "return day.strftime(DATE_FORMAT)"): "the one format",
    ("inspections/logbook/register.py", '"time": local.strftime("%H:%M:%S")'): (
        "the register's CSV cell, reproduced offline by logbook-verify"
    ),
    ("config/keyring.py", "checkpoint-{now:%Y%m%dT%H%M%S}"): "a key's file name",
    ("logbook_proof/formats.py", '"time": local.strftime(time_format)'): (
        "the register's CSV cell and printed row, checked (the one format's, or a report's from before it named the zone)"
    ),
    ("logbook_proof/formats.py", ".astimezone(zone).strftime(signed_format)"): "the register's cells, checked",
    ("scripts/run.py", "checkpoint-ledger.{datetime.now(UTC):%Y%m%dT%H%M%S}"): "a set-aside ledger's file name",
    ("logbook_proof/verify.py", "{status.timestamp:%Y-%m-%d %H:%M:%S} UTC"): (
        "the verifier's own output, without Django"
    ),
}


def _hand_formatted() -> list[str]:
    found = []
    for folder in ("compliance", "inspections", "config", "templates", "scripts", "logbook_proof"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".html", ".txt") or "migrations" in path.parts:
                continue
            name = str(path.relative_to(ROOT))
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if HAND_FORMATTED.search(line) and not any(
                    name == where and text in line for where, text in MACHINE_FORMATS
                ):
                    found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_date_for_a_person_is_formatted_outside_the_one_helper():
    found = _hand_formatted()
    assert not found, (
        "Format a date or time a person reads with compliance.casinos.clock (local_text, date_text) "
        "or the template filters |local:property, |local_time:, |local_seconds: — or, for a machine, "
        "list it in MACHINE_FORMATS with why:\n" + "\n".join(found)
    )


def test_the_scan_finds_each_way_of_formatting_by_hand(tmp_path, monkeypatch):
    for spelled in (
        '{{ flag.due_at|date:"D j M, H:i T" }}',
        "{{ entry.occurred_at|date }}",
        '{{ entry.occurred_at|time:"H:i" }}',
        'moment.strftime("%Y-%m-%d")',
        'f"{moment:%Y-%m-%d %H:%M}"',
        "formats.date_format(moment)",
    ):
        assert HAND_FORMATTED.search(spelled), spelled
    assert not HAND_FORMATTED.search("{{ flag.due_at|local:flag.property }}")
    assert not HAND_FORMATTED.search("{{ report.period_from|local }} {{ value|default:'—' }}")


# ---- (b) Every page of every role: each date-like string in the one format ----

MONTHS = r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|June|July|August|September|October|November|December"
NOT_OURS = [
    (re.compile(rf"\b(?:{MONTHS})\.?\s+\d{{1,2}}\b|\b\d{{1,2}}\s+(?:{MONTHS})\b"), "a month's name"),
    (re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b,?\s+\d"), "a day's name"),
    (re.compile(r"\d\s*(?:a\.m\.|p\.m\.|AM|PM)(?!\w)"), "a 12-hour time"),
    (re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b"), "a slashed date"),
    (re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:"), "a machine's ISO 8601 time"),
]
# A time, with the date before it if any and what follows it: the zone must follow.
A_TIME = re.compile(
    r"(?:(?P<date>\d{4}-\d{2}-\d{2})(?P<sep>\D{1,3}))?(?<![\d:])(?P<time>\d{1,2}:\d{2}(?::\d{2})?)(?![\d:])"
    r"(?P<after>\.\d+|Z|[+-]\d{2}:?\d{2}| [A-Z]{2,5}\b)?"
)


# Not times: New Jersey's citations ("N.J.A.C. 19:47-2.1"), and the morning digest's hour, which is
# each property's own 07:00 (a schedule of every zone, the name of a periodic task).
NOT_TIMES = re.compile(r"N\.J\.A\.C\. \d+:\d+|\(sent at 07:00 property time\)")


def dates_not_ours(text: str, zones: set[str]) -> tuple[list[str], int]:
    """The date-like strings of `text` not in the one format (and how many times in it there are)."""
    text = NOT_TIMES.sub(" ", text)
    wrong = [f"{what}: {match.group(0)!r}" for pattern, what in NOT_OURS for match in pattern.finditer(text)]
    times = 0
    for match in A_TIME.finditer(text):
        times += 1
        whole = match.group(0)
        if match.group("date") and match.group("sep") != " ":
            wrong.append(f"a date and time not written 'YYYY-MM-DD HH:MM ZONE': {whole!r}")
        elif not re.fullmatch(r"\d{2}:\d{2}(:\d{2})?", match.group("time")):
            wrong.append(f"an hour not on two digits: {whole!r}")
        elif (match.group("after") or "").strip() not in zones:
            wrong.append(f"a time without its zone ({', '.join(sorted(zones))}): {whole!r}")
    return wrong, times


def page_text(body: str) -> str:
    """What a person reads of a page (or an htmx fragment): its text, without scripts and styles."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S | re.I)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_the_page_check_finds_each_wrong_date():
    zones = {"EST"}
    for wrong in (
        "Tue 24 Nov, 01:25 EST",
        "Nov. 24, 2026",
        "due 2026-11-24 01:25",
        "at 01:25",
        "1:25 EST",
        "2026-11-24T06:25:00Z",
        "1:25 a.m.",
        "11/24/2026",
        "2026-11-24 01:25 EDT",  # summer's abbreviation on a winter night
        "2026-11-24, 01:25 EST",
    ):
        assert dates_not_ours(wrong, zones)[0], wrong
    text = (
        "Deadline 2026-11-24 01:25 EST; detected 01:30 EST; period 2026-11-01 to 2026-11-24; odds 35:1; "
        "N.J.A.C. 19:47-2.1"
    )
    assert dates_not_ours(text, zones) == ([], 2)


NOT_WALKED = re.compile(r"^/(api|logout|admin/logout)/|/(download|artwork)/|\.pdf$|^/admin/(?![a-z_]+/([a-z_]+/)?$)")
ROLES = ("security", "supervisor", "floorperson", "maintenance", "compliance", "regulator", "admin", "anonymous")


@pytest.fixture
def world(db, frozen_clock):
    """A New York property with a time on every page: entries, a flag open and one resolved, a lock
    lifted, a report done, a layout waiting for the regulator, Rules Submissions drafted, filed and
    decided; and one person of each role (a security supervisor beside the officer)."""
    staff = every_page_world()
    staff.supervisor = UserFactory(role=Role.SECURITY, property=staff.property, security_supervisor=True)
    lock_lift(actor=staff.supervisor, person_id=staff.floorperson.pk, reason="Asked in person", now=timezone.now())
    # A second flag, acknowledged by the compliance manager and cured by an inspection: both times on the flags page.
    event(staff, "cover")
    event(staff, "unlock")
    inspect(staff)
    event(staff, "open")
    adjust(staff)
    flag_services.scan(now=timezone.now())
    resolved = ComplianceException.objects.get(kind="adjusted_after_inspection")
    flag_services.flag_acknowledge(flag_id=resolved.pk, note="Re-inspecting", signature=sign(staff.compliance))
    inspect(staff)
    # And one open, whose deadline and detection the pages show.
    staff.flag = flag_raised(
        staff.locked,
        due_at=timezone.now() - timedelta(minutes=50),
        detected_at=timezone.now() - timedelta(minutes=45),
    )
    staff.entry = Entry.objects.filter(kind="inspection").first()
    staff.report = Report.objects.create(
        property=staff.property,
        kind="inspection_register",
        period_from=property_today(staff.property) - timedelta(days=1),
        period_to=property_today(staff.property),
        requested_by=staff.compliance,
        status="done",
        finished_at=timezone.now(),
        rows=9,
        pages=2,
    )
    return staff


def extra_paths(role: str, world) -> list[str]:
    """The pages no link leads to now (as tests/browser/test_every_page.py), and the htmx fragments."""
    table = world.table.pk
    paths = []
    if role in ("security", "supervisor", "floorperson", "maintenance", "compliance", "admin"):
        paths += [
            f"/tables/{table}/{kind}/" for kind in ("unlock", "inspect", "adjust", "ball", "open", "close", "cover")
        ]
        paths += [f"/tables/{table}/irregularity/", f"/entries/{world.entry.pk}/amend/"]
    if role == "compliance":
        paths += [f"/flags/{world.flag.pk}/resolve/", "/manage/rules/new/", "/manage/layouts/new/"]
    if role in ("compliance", "regulator"):
        paths.append(f"/reports/{world.report.pk}/row/")  # the fragment htmx swaps in
    if role in ("supervisor", "admin"):
        paths.append("/floor/locks/")
    return paths


def walk(client: Client, start: list[str]) -> dict[str, str]:
    """Each page reached from `start` by its links, once, with its text."""
    texts: dict[str, str] = {}

    def visit(path: str) -> list:
        response = client.get(path, follow=True)
        body = response.content.decode() if "html" in response.get("Content-Type", "") else ""
        texts[path] = page_text(body)
        links = [urlsplit(html.unescape(href)) for href in re.findall(r'<a\s[^>]*href="([^"#]+)"', body)]
        return [link for link in links if not link.netloc and link.path.startswith("/")]

    walk_links(start, visit, skip=NOT_WALKED, most=150)
    return texts


@pytest.mark.parametrize("frozen_clock", [at for at, _ in CLOCKS.values()], ids=list(CLOCKS), indirect=True)
@pytest.mark.parametrize("role", ROLES)
def test_every_date_on_every_page_of_every_role_is_in_the_one_format(request, world, role):
    expected = dict(CLOCKS.values())[request.node.callspec.params["frozen_clock"]]
    client = Client()
    if role == "anonymous":
        start = ["/login/"]
    else:
        client.force_login(getattr(world, role))
        start = ["/", *extra_paths(role, world)] + (["/admin/"] if role == "admin" else [])
    texts = walk(client, start)
    problems, times = [], 0
    for path, text in texts.items():
        # The checkpoint keys and the admin's lists of records of no one property are in UTC, named.
        zones = {expected, "UTC"} if path.startswith("/admin/") else {expected}
        wrong, counted = dates_not_ours(text, zones)
        times += counted
        problems += [f"{path}: {what}" for what in wrong]
    assert not problems, "\n".join(problems)
    if role != "anonymous":
        assert times >= 3, f"the walk read too few times to judge ({sorted(texts)})"  # the check saw something


@pytest.mark.parametrize("frozen_clock", [CLOCKS["winter-23h30-utc-tomorrow"][0]], indirect=True)
def test_the_pages_name_the_times_they_are_checked_against(world, frozen_clock, client):
    """The walk above judges real times: these pages show the moments of the world, in New York's zone."""
    client.force_login(world.compliance)
    flag = world.flag
    local = flag.due_at.astimezone(NEW_YORK)
    assert f"{local:%Y-%m-%d %H:%M} EST" in page_text(client.get("/flags/").content.decode())
    table = page_text(client.get(f"/tables/{world.table.pk}/").content.decode())
    first = Entry.objects.filter(table=world.table).order_by("seq").first()
    assert f"{first.occurred_at.astimezone(NEW_YORK):%Y-%m-%d %H:%M} EST" in table
    row = page_text(client.get(f"/reports/{world.report.pk}/row/").content.decode())
    assert f"{world.report.finished_at.astimezone(NEW_YORK):%Y-%m-%d %H:%M} EST" in row
    assert f"{world.report.period_to:%Y-%m-%d}" in row


@pytest.mark.parametrize("frozen_clock", [CLOCKS["winter-noon"][0]], indirect=True)
def test_a_regulator_sees_each_propertys_times_in_its_own_zone(db, frozen_clock, client):
    """Two Pennsylvania properties, one (for the test) on Pacific time: the same instant reads in each
    property's zone, each named."""
    east = bare_casino_staff("Keystone Casino")
    west = bare_casino_staff("Western Casino")
    type(west.property).objects.filter(pk=west.property.pk).update(time_zone="America/Los_Angeles")
    at = timezone.now() - timedelta(hours=1)
    for staff in (east, west):
        flag_raised(staff.table, due_at=at)
    client.force_login(RegulatorFactory(jurisdiction="PA"))
    text = page_text(client.get("/flags/").content.decode())
    assert f"{at.astimezone(NEW_YORK):%Y-%m-%d %H:%M} EST" in text
    assert f"{at.astimezone(ZoneInfo('America/Los_Angeles')):%Y-%m-%d %H:%M} PST" in text
    assert not dates_not_ours(text, {"EST", "PST"})[0]


# ---- Refusals that print a time ----


@pytest.mark.parametrize("frozen_clock", [at for at, _ in CLOCKS.values()], ids=list(CLOCKS), indirect=True)
def test_a_time_refused_as_in_the_future_is_said_in_the_propertys_zone(request, casino):
    later = timezone.now() + timedelta(hours=2)
    zone = dict(CLOCKS.values())[request.node.callspec.params["frozen_clock"]]
    with pytest.raises(RuleViolation) as refused:
        inspect(casino, at=later)
    message = refused.value.violations[0].message
    assert f"{later.astimezone(NEW_YORK):%Y-%m-%d %H:%M:%S} {zone} is in the future" in message
    assert not dates_not_ours(message, {zone})[0], message
    with pytest.raises(RuleViolation) as refused:
        inspect(casino, at=timezone.now() - timedelta(days=3))
    message = refused.value.violations[0].message
    assert f"{(timezone.now() - timedelta(days=3)).astimezone(NEW_YORK):%Y-%m-%d} " in message
    assert not dates_not_ours(message, {zone})[0], message


def test_a_reports_period_keeps_each_date_whole_in_the_list(client, casino):
    """The walk of the demo in Chromium found the reports' list on a 768 px tablet reading
    "2026-11-19 a 2026-11-" / "26": the period's dates broke at a hyphen in the narrow column."""
    from datetime import date

    from inspections.reports.models import Report

    Report.objects.create(
        property=casino.property,
        kind="inspection_register",
        period_from=date(2026, 11, 19),
        period_to=date(2026, 11, 26),
        requested_by=casino.compliance,
        status="done",
        rows=1,
        pages=1,
        chain_intact=True,
        sha256="a" * 64,
    )
    client.force_login(casino.compliance)
    page = client.get("/reports/").content.decode()
    assert '<span class="nowrap">2026-11-19</span>' in page and '<span class="nowrap">2026-11-26</span>' in page
