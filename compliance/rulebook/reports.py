"""The product's own limits on audit reports (no regulation sets them): how long a period one report
covers, and how many reports one person and one property may have waiting or running at once, so
that nobody's reports hold back anyone else's. The numbers are settings; a citation states them in
words (a person reads it), never by the settings' names."""

from __future__ import annotations

from datetime import date, timedelta

from compliance.rulebook.catalogue import violation
from compliance.rulebook.violations import Violation, gettext_noop, policy_template

DATES_POLICY = gettext_noop("Product policy: a report's period lies between 2000-01-01 and the property's tomorrow")
# No logbook entry is older than the product: a report of earlier days is a mistyped year.
EARLIEST_REPORT_DAY = date(2000, 1, 1)


PERIOD_POLICY = policy_template(gettext_noop("Product policy: one report covers at most {max_days} days"))
PENDING_POLICY = policy_template(
    gettext_noop(
        "Product policy: at most {max_mine} reports waiting at once per person, {max_of_property} per property"
    )
)


def period_policy(*, max_days: int) -> str:
    return PERIOD_POLICY.format(max_days=max_days)


def pending_policy(*, max_mine: int, max_of_property: int) -> str:
    return PENDING_POLICY.format(max_mine=max_mine, max_of_property=max_of_property)


def report_period_within(*, period_from: date, period_to: date, max_days: int) -> Violation | None:
    """A report covers at most `max_days` days, both ends included."""
    days = (period_to - period_from).days + 1
    if days > max_days:
        return violation(
            "report_period_too_long",
            field="to",
            citation=period_policy(max_days=max_days),
            max_days=max_days,
            days=days,
        )
    return None


def report_pending_within(
    *, mine: int, max_mine: int, of_property: int, max_of_property: int, property_name: str
) -> Violation | None:
    """One more report only while the person, and the property, have fewer than their limit waiting
    or running."""
    citation = pending_policy(max_mine=max_mine, max_of_property=max_of_property)
    if mine >= max_mine:
        return violation("too_many_reports_pending", field=None, citation=citation, mine=mine, max_mine=max_mine)
    if of_property >= max_of_property:
        return violation(
            "too_many_reports_pending/property",
            field="property",
            citation=citation,
            property=property_name,
            of_property=of_property,
            max_of_property=max_of_property,
        )
    return None


def report_period_plausible(*, period_from: date, period_to: date, today: date) -> Violation | None:
    """A report covers days the logbook can hold: from 2000-01-01 to the property's tomorrow (a
    regulator a time zone ahead may already live in it); year 0001 or 9999 is a mistyped year, and
    the report of it could not even be rendered."""
    latest = today + timedelta(days=1)
    for field, day in (("from", period_from), ("to", period_to)):
        if day < EARLIEST_REPORT_DAY:
            return violation(
                "report_period_implausible",
                field=field,
                citation=DATES_POLICY,
                day=day.isoformat(),
                earliest=EARLIEST_REPORT_DAY.isoformat(),
            )
        if day > latest:
            return violation(
                "report_period_implausible/future",
                field=field,
                citation=DATES_POLICY,
                day=day.isoformat(),
                latest=latest.isoformat(),
            )
    return None
