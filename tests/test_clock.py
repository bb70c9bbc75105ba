"""No date is taken from the server's clock: every date a person reads or chooses is the property's
(compliance/casinos/clock.py). ruff's DTZ rules refuse `date.today()` and a naive `datetime.now()`; this
refuses Django's spellings of the same mistake, which read the server's TIME_ZONE (UTC)."""

import re

from compliance.casinos import clock
from tests.servers import ROOT

SERVERS_TODAY = re.compile(
    r"timezone\.localdate\(\s*\)"  # today in UTC
    r"|timezone\.now\(\)\.date\(\)"  # the UTC date
    r"|localtime\(\s*\)\.date\(\)"  # the same, through the active zone
    r"|\{%\s*now\b"  # a template's "now", in UTC
)


def test_no_code_takes_today_from_the_servers_time_zone():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("compliance", "inspections", "config", "scripts", "templates", "tests")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".html", ".txt") and path != ROOT / "tests" / "test_clock.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if SERVERS_TODAY.search(line)
    ]
    assert not found, "Use compliance.casinos.clock (the property's date):\n" + "\n".join(found)


def test_the_propertys_today_is_not_utcs_in_the_new_york_evening():
    from datetime import UTC, datetime
    from types import SimpleNamespace
    from zoneinfo import ZoneInfo

    new_york = SimpleNamespace(zone=ZoneInfo("America/New_York"))
    evening = datetime(2026, 11, 24, 4, 30, tzinfo=UTC)  # 23:30 on the 23rd in New York
    assert clock.property_today(new_york, now=evening).isoformat() == "2026-11-23"
    assert clock.local_midnight(evening.date(), new_york.zone) == datetime(2026, 11, 24, 5, 0, tzinfo=UTC)
    assert clock.local_text(evening, new_york.zone) == "2026-11-23 23:30 EST"
    assert clock.viewer_today([new_york], now=evening).isoformat() == "2026-11-23"
