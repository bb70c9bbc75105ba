"""Dates people read or choose are the property's local dates (docs/architecture.md: Integrity and time: times are stored in
UTC and shown in the property's time zone).

At 22:30 in New York it is already tomorrow in UTC: "today" taken from the server (`date.today()`,
`timezone.localdate` without a zone while TIME_ZONE is "UTC", the `.date()` of a UTC time) is then
the wrong day for a casino on the East Coast. Every "today" and every date of a moment goes here.
"""

from collections.abc import Iterable
from datetime import date, datetime, time, tzinfo

from django.utils import timezone


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


def local_text(moment: datetime | None, zone: tzinfo, fmt: str = "%Y-%m-%d %H:%M %Z") -> str:
    """A moment as a person at the property reads it, named with its zone ("2026-11-23 22:30 EST")."""
    return timezone.localtime(moment, zone).strftime(fmt) if moment else ""
