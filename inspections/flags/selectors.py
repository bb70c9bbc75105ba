"""Reads of the flags, scoped by `ComplianceException.objects.restrict` (config.visibility)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Expression, F, OuterRef, Prefetch, Q, QuerySet, Window
from django.db.models.functions import Lower, RowNumber

from compliance.accounts.models import User
from compliance.casinos.models import Property
from inspections.flags.models import ComplianceException, FlagStatus
from inspections.logbook.selectors import count_of


def flags_visible_to(user) -> QuerySet[ComplianceException]:
    return (
        ComplianceException.objects.restrict(user)
        .select_related("table", "property", "cured_by_entry")
        .prefetch_related("history")
    )


def open_flags_prefetch() -> Prefetch:
    """Each table's open flags of the overdue scan, as `table.open_flags` (the floor pages: the
    logbook's TABLE_PREFETCHES, filled in FlagsConfig.ready())."""
    return Prefetch(
        "flags",
        queryset=ComplianceException.objects.filter(status=FlagStatus.OPEN)
        .select_related("property")
        .prefetch_related("history"),
        to_attr="open_flags",
    )


def open_flag_count(now: datetime) -> Expression:
    """Each property's open flags, on a regulator's floor summary (the logbook's PROPERTY_COUNTS,
    filled in FlagsConfig.ready()): read through flag_property_status."""
    return count_of(ComplianceException.objects.filter(property=OuterRef("pk"), status=FlagStatus.OPEN))


# How many new flags one scan mails at most; the rest wait for the next scan, a minute later.
NOTIFY_BATCH = 500

# Fair shares (issue 32, item 3): one scan takes at most this many flags of each property, the
# properties' oldest first in turns (every property's first flag, then every property's second…),
# so one property's flood of flags never fills the batch before another's first one.
NOTIFY_PER_PROPERTY = 50


def flags_to_mail(now: datetime) -> list[tuple[int, int]]:
    """(flag, property) of the flags this scan mails, in fair turns: each property's oldest waiting
    flags (at most NOTIFY_PER_PROPERTY), taken round by round; a flag waiting out its retry is skipped."""
    turn = Window(RowNumber(), partition_by=[F("property_id")], order_by=[F("detected_at").asc(), F("pk").asc()])
    return list(
        ComplianceException.objects.filter(notified_at__isnull=True)
        .filter(Q(mail_retry_at__isnull=True) | Q(mail_retry_at__lte=now))
        .annotate(turn=turn)
        .filter(turn__lte=NOTIFY_PER_PROPERTY)
        .order_by("turn", "detected_at", "pk")
        .values_list("pk", "property_id")[:NOTIFY_BATCH]
    )


def recipients_by_language(prop: Property) -> list[tuple[str, list[str]]]:
    """The property's addresses for its flags, grouped by the language each reads: the chosen
    language of the person whose address it is (one of the property's staff, or a person of no
    property: an administrator), else English. In the order the property lists them."""
    people = (
        User.objects.filter(Q(property=prop) | Q(property__isnull=True))
        .exclude(email="")
        .exclude(language="")
        .annotate(address=Lower("email"))
        .filter(address__in=[address.lower() for address in prop.notify_emails])
        .values_list("address", "language")
    )
    language_of = dict(people)
    groups: dict[str, list[str]] = {}
    for address in prop.notify_emails:
        groups.setdefault(language_of.get(address.lower(), settings.LANGUAGE_CODE), []).append(address)
    return list(groups.items())
