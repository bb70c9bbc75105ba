"""The flags in words: where a flag stands, its history, its kind, and the mail about it (the flags'
pages, the API, the reports and the mail say the same)."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from urllib.parse import urlencode

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from compliance.casinos.clock import local_text
from compliance.rulebook import rulebook_for
from compliance.rulebook.violations import cited
from inspections.flags.models import (
    ComplianceException,
    FlagEvent,
    FlagEventCause,
    FlagEventKind,
    FlagResolution,
    FlagStatus,
)
from inspections.logbook.models import EntryKind


def flag_acknowledgements(flag: ComplianceException) -> list[FlagEvent]:
    """The flag's signed acknowledgements, oldest first (its `history`, prefetched when many are listed)."""
    return [event for event in flag.history.all() if event.kind == FlagEventKind.ACKNOWLEDGED]


def flag_resolution_text(flag: ComplianceException, zone) -> str:
    """Where a flag stands, in words (the flags report, the flags page and the API say the same): open
    (and acknowledged, by whom), or cured by which entry.

    `flag` comes with its `cured_by_entry` joined and its `history` prefetched when many are listed.
    """
    if flag.status != FlagStatus.RESOLVED:
        acknowledged = flag_acknowledgements(flag)
        if not acknowledged:
            return _("Open")
        last = acknowledged[-1]
        return _("Open, acknowledged by %(name)s (credential %(credential)s), %(when)s: %(note)s") % {
            "name": last.actor_name,
            "credential": last.actor_credential,
            "when": local_text(last.at, zone),
            "note": last.note,
        }
    if flag.resolution == FlagResolution.MANAGER or flag.resolved_by_id:
        return _("Resolved by %(name)s (credential %(credential)s): %(note)s") % {
            "name": flag.resolver_name,
            "credential": flag.resolver_credential,
            "note": flag.resolution_note,
        }
    if flag.resolution == FlagResolution.CURED:
        cure = flag.cured_by_entry
        if cure is None:  # the model's check constraint: a cured flag names its entry
            raise RuntimeError(f"flag {flag.pk} is cured by no entry")
        return _("Cured by entry #%(seq)s: %(kind)s, %(when)s") % {
            "seq": cure.seq,
            "kind": EntryKind(cure.kind).label,
            "when": local_text(cure.occurred_at, zone),
        }
    if flag.resolution == FlagResolution.CLEARED:
        return _(
            "Cured without a logbook entry: the deadline no longer stood (an approval, a policy or a configuration change)"
        )
    return _("Cured (resolved by the scan before the curing entry was recorded on flags)")


def flag_status_text(flag: ComplianceException) -> str:
    """The flag's status in a word or two: open, open and acknowledged, or cured (and the two ways
    flags were closed before only an entry could)."""
    if flag.status != FlagStatus.RESOLVED:
        return _("Open, acknowledged") if flag_acknowledgements(flag) else _("Open")
    if flag.resolution == FlagResolution.MANAGER or flag.resolved_by_id:
        return _("Closed by a note")
    if flag.resolution == FlagResolution.CLEARED:
        return _("Closed without an entry")
    return _("Cured")


def flag_event_text(event: FlagEvent, zone) -> str:
    """A line of a flag's history, in words, without its time (the page, the API and the report put it beside)."""
    values = {
        "cause": FlagEventCause(event.cause).label if event.cause else "",
        "name": event.actor_name or _("the system"),
        "credential": event.actor_credential,
        "before": local_text(event.due_before, zone) if event.due_before else "",
        "after": local_text(event.due_after, zone) if event.due_after else "",
        "note": event.note,
    }
    if event.kind == FlagEventKind.ACKNOWLEDGED:
        return (
            _("Acknowledged by %(name)s (credential %(credential)s), the flag staying open until cured: %(note)s")
            % values
        )
    if event.kind == FlagEventKind.MOVED:
        return _("Deadline moved from %(before)s to %(after)s: %(cause)s (%(name)s). The flag stays open.") % values
    return (
        _(
            "The deadline no longer applies: %(cause)s (%(name)s). The flag stays open until the entry that ends its condition."
        )
        % values
    )


def flag_history_text(flag: ComplianceException, zone) -> list[tuple[datetime, str]]:
    """The flag's history, oldest first: each moved or lifted deadline and each acknowledgement, with its time."""
    return [(event.at, flag_event_text(event, zone)) for event in flag.history.all()]


def one_line(text: str) -> str:
    """`text` without control characters or line breaks (each becomes a space): a name or table
    number that holds one can never break a mail header or add one of its own."""
    return "".join(" " if unicodedata.category(char) in ("Cc", "Zl", "Zp") else char for char in text)


def flag_label(flag: ComplianceException) -> str:
    """The flag's kind in words, in the language in use (the rulebook's label, translated)."""
    kinds = rulebook_for(flag.property.jurisdiction).FLAG_KINDS_BY_CODE
    return _(kinds[flag.kind].label) if flag.kind in kinds else flag.kind


def flag_mail_text(flag: ComplianceException) -> str:
    zone = flag.property.zone
    due, detected = local_text(flag.due_at, zone), local_text(flag.detected_at, zone)
    lines = (
        _("Table %(table)s: %(flag)s (%(citation)s).")
        % {"table": one_line(flag.table.number), "flag": flag_label(flag), "citation": cited(flag.citation)},
        _("Deadline missed: %(due)s. Detected: %(detected)s.") % {"due": due, "detected": detected},
        _(
            "The flag stays open until the logbook entry that cures the problem; a compliance manager may acknowledge "
            "it with a signed note."
        ),
        # Absolute links (SITE_URL: where the staff reach this site), to open from the mail.
        _("The flag: %(url)s") % {"url": settings.SITE_URL + reverse("flags") + "?" + urlencode({"flag": flag.pk})},
        _("The table: %(url)s") % {"url": settings.SITE_URL + reverse("table", args=[flag.table_id])},
    )
    return "\n".join(lines)
