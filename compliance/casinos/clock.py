"""Dates people read or choose are the property's local dates (docs/architecture.md: Integrity and time: times are stored in
UTC and shown in the property's time zone).

At 22:30 in New York it is already tomorrow in UTC: "today" taken from the server (`date.today()`,
`timezone.localdate` without a zone while TIME_ZONE is "UTC", the `.date()` of a UTC time) is then
the wrong day for a casino on the East Coast. Every "today" and every date of a moment goes here.
"""

from collections.abc import Iterable
from datetime import date, datetime, time, tzinfo

from django.utils import timezone

from compliance.rulebook.words import date_words, moment_words, time_words


def local_date(moment: datetime, zone: tzinfo) -> date:
    """The calendar date of `moment` in `zone`."""
    return timezone.localtime(moment, zone).date()


def property_today(prop, *, now: datetime | None = None) -> date:
    """Today at the property (its own time zone), or the property's date of `now`."""
    return local_date(now or timezone.now(), prop.zone)


def viewer_today(properties: Iterable, *, now: datetime | None = None) -> date:
    """Today for someone who sees these properties: the first one's local date (a compliance
    manager has one property; a regulator's jurisdiction lies in one zone), else UTC's."""
    first = next(iter(properties), None)
    return property_today(first, now=now) if first is not None else (now or timezone.now()).date()


def local_midnight(day: date, zone: tzinfo) -> datetime:
    """The moment `day` begins in `zone` (an aware datetime)."""
    return timezone.make_aware(datetime.combine(day, time.min), zone)


def local_text(moment: datetime | None, zone: tzinfo, *, seconds: bool = False) -> str:
    """A moment as a person at the property reads it, named with its zone ("2026-11-23 22:30 EST"):
    the one format of every page, report, mail and refusal (compliance.rulebook.words)."""
    return moment_words(timezone.localtime(moment, zone), seconds=seconds) if moment else ""


def local_time_text(moment: datetime | None, zone: tzinfo) -> str:
    """Only the time, where the date is plain from what is around it ("22:30 EST")."""
    return time_words(timezone.localtime(moment, zone)) if moment else ""


def date_text(day: date | None) -> str:
    """A day of the property's calendar ("2026-11-23"), e.g. a report's period."""
    return date_words(day) if day else ""


def zone_abbreviation(zone: tzinfo, *, now: datetime | None = None) -> str:
    """The zone's abbreviation at `now` ("EST" in November, "EDT" in July)."""
    return timezone.localtime(now or timezone.now(), zone).tzname() or ""
