"""Dates and times in templates, in the one format (compliance.rulebook.words), each in its
property's zone, named. Built in (settings.TEMPLATES), so no template needs to load it:

    {{ entry.occurred_at|local:table.property }}   2026-11-24 01:25 EST
    {{ flag.detected_at|local_time:flag.property }}  01:25 EST
    {{ checkpoint.signed_at|local_seconds:zone }}   2026-11-24 01:25:07 EST
    {{ report.period_from|local }}                  2026-11-24 (a date of the property's calendar)

The argument is a property, a time zone or a zone's name. Django's own `date` and `time` filters
are not used for a person (tests/test_dates.py refuses them)."""

from datetime import date, datetime, tzinfo
from zoneinfo import ZoneInfo

from django import template

from compliance.casinos.clock import date_text, local_text, local_time_text

register = template.Library()


def _zone(where) -> tzinfo:
    """The zone of a property (its `zone`), a zone itself, or a zone's name."""
    if where is None or where == "":
        raise template.TemplateSyntaxError("a time a person reads is in its property's zone: name the property")
    zone = getattr(where, "zone", where)
    return ZoneInfo(zone) if isinstance(zone, str) else zone


@register.filter
def local(value, where=None) -> str:
    """A moment in the property's zone, named ("2026-11-24 01:25 EST"); a date as it is ("2026-11-24")."""
    if value is None or value == "":
        return ""
    if isinstance(value, datetime):
        return local_text(value, _zone(where))
    if isinstance(value, date):
        return date_text(value)
    return str(value)


@register.filter
def local_seconds(value: datetime | None, where) -> str:
    """A moment with its seconds, where the record needs them (a report cover's signing time)."""
    return local_text(value, _zone(where), seconds=True) if value else ""


@register.filter
def local_time(value: datetime | None, where) -> str:
    """Only the time, its zone named ("01:25 EST"), where the date is plain from what is around it."""
    return local_time_text(value, _zone(where)) if value else ""
