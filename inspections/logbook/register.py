"""The § 617a.2(e) inspection log register as plain data: one row per entry, the same for the API
(inspections.logbook.api) and the reports' PDF and CSV (inspections.reports.kinds), neither of
which this module knows."""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.utils import timezone

from compliance.rulebook import rulebook_for
from inspections.logbook.models import ADJUSTMENT_KINDS, Entry, EntryKind, Signature

# The register's fields, in the order the reports print them: the API's rows carry each (with
# more, for machines), the PDF and the CSV a column of each (inspections.reports.kinds).
REGISTER_FIELDS = (
    "seq",
    "date",
    "time",
    "table_number",
    "kind",
    "part",
    "ball",
    "description",
    "failed_items",
    "notes",
    "inspection_certified",
    "signatures",
    "photos",
)
# The entries whose notes the register prints: an inspection's, a no spin's.
NOTED_KINDS = frozenset({EntryKind.INSPECTION, EntryKind.IRREGULARITY})


def iso_datetime(moment: datetime | None) -> str | None:
    """A time as the API writes it: ISO 8601 in the current time zone (UTC), UTC written "Z"."""
    if not moment:
        return None
    text = timezone.localtime(moment).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def signature_representation(signature: Signature) -> dict:
    return {
        "signer": signature.signer_id,
        "signer_name": signature.signer_name,
        "credential_number": signature.credential_number,
        "meaning": signature.meaning,
        "signed_at": iso_datetime(signature.signed_at),
        "content_hash": signature.content_hash,
    }


def failed_items(entry: Entry) -> list[dict]:
    """An inspection's checklist items that failed, in the checklist's order, each with its words
    and its paragraph (entries from `for_register()`, which carry their jurisdiction)."""
    if entry.kind != EntryKind.INSPECTION:
        return []
    checklist = rulebook_for(entry.jurisdiction).CHECKLIST_BY_CODE
    order = list(checklist)
    failed = [code for code, passed in (entry.details or {}).get("items", {}).items() if not passed]
    failed.sort(key=lambda code: order.index(code) if code in order else len(order))
    return [
        {
            "code": code,
            "label": checklist[code].label if code in checklist else code,
            "citation": checklist[code].citation if code in checklist else None,
        }
        for code in failed
    ]


def ball_change_text(entry: Entry) -> str:
    """A ball change's balls, by serial, as the entry signed them ("BL-7 taken off, BL-9 put on"); empty
    for any other entry."""
    details = entry.details or {}
    if entry.kind != EntryKind.REPLACEMENT or "ball_on" not in details:
        return ""
    return f"{details.get('ball_off') or 'no registered ball'} taken off, {details['ball_on']} put on"


def register_row(entry: Entry) -> dict:
    """One § 617a.2(e) register row, as the API and the reports give it (entries from `for_register()`)."""
    local = entry.occurred_at.astimezone(zoneinfo.ZoneInfo(entry.time_zone))
    details = entry.details or {}
    signatures = entry.signature_list
    # § 617a.2(e): the individual making the adjustment or replacement signs first (performer).
    first = signatures[0] if signatures else None
    return {
        "id": entry.pk,
        "seq": entry.seq,
        "property": entry.property_id,
        "table": entry.table_id,
        "table_number": entry.table_number,
        "date": local.date().isoformat(),
        "time": local.strftime("%H:%M:%S"),
        "occurred_at": iso_datetime(entry.occurred_at),
        "kind": entry.kind,
        "adjustment_or_replacement": entry.kind if entry.kind in ADJUSTMENT_KINDS else None,
        "part": details.get("part", "") if entry.kind in ADJUSTMENT_KINDS else "",
        # A ball change: the ball taken off and the ball put on (their ids: `old_ball`, `new_ball`).
        "ball": ball_change_text(entry),
        "old_ball": details.get("old_ball") if entry.kind == EntryKind.REPLACEMENT else None,
        "new_ball": details.get("new_ball") if entry.kind == EntryKind.REPLACEMENT else None,
        "description": entry.description,
        "failed_items": failed_items(entry),
        "notes": details.get("notes", "") if entry.kind in NOTED_KINDS else "",
        "inspection_certified": entry.passed if entry.kind == EntryKind.INSPECTION else None,
        "signer_name": first.signer_name if first else None,
        "credential_number": first.credential_number if first else None,
        "signatures": [signature_representation(signature) for signature in signatures],
        "amends": entry.amends_id,
        "amended_by": entry.amended_by,
        "entry_hash": entry.entry_hash,
        # The SHA-256 of each photo's original, as the entry signed them.
        "photos": [photo["sha256"] for photo in details.get("photos", [])],
    }
