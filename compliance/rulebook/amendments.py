"""58 Pa. Code § 617a.2(e): a signed entry is never changed; an amendment corrects it, or marks it
entered in error or a duplicate, and is itself signed (docs/architecture.md: People)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from compliance.rulebook.catalogue import violation
from compliance.rulebook.games.casino_war import IRREGULARITY_KINDS as CASINO_WAR_IRREGULARITY_KINDS
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.roles import AMENDER_ROLES
from compliance.rulebook.subjects import Entry, Person
from compliance.rulebook.violations import Violation, gettext_noop
from compliance.rulebook.words import in_words, moment_words

# What an amendment says of the entry it amends (the entry itself is never changed, docs/architecture.md: People):
# corrected values; entered in error (it should not be in the log); a duplicate of an earlier entry.
AMENDMENT_KINDS = (
    ("correction", "correction"),
    ("entered_in_error", gettext_noop("entered in error")),
    ("duplicate", gettext_noop("duplicate of an earlier entry")),
)
VOIDING_AMENDMENTS = frozenset({"entered_in_error", "duplicate"})
# The table's `inspection_void_reason` when the inspection it was to open on was amended away, in words.
AMENDED_VOID_REASONS = {
    "entered_in_error": "was marked entered in error",
    "duplicate": "was marked a duplicate of an earlier inspection that no longer counts (it was entered in error "
    "or failed, or the table was closed, adjusted or had a part replaced after it)",
}

# ISO 8601 as people type it: a space or T, one-digit hours, a comma before the fraction, +HH offsets.
_ISO_DATETIME = re.compile(
    r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})[T ](?P<hour>\d{1,2}):(?P<minute>\d{1,2})"
    r"(?::(?P<second>\d{1,2})(?:[.,](?P<fraction>\d{1,6})\d{0,6})?)?\s*(?P<offset>Z|[+-]\d{2}(?::?\d{2})?)?$"
)


def parse_time(value: str) -> datetime | None:
    """A date and time in ISO 8601, or None when it is not one."""
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        pass
    match = _ISO_DATETIME.match(value)
    if match is None:
        return None
    parts = match.groupdict()
    zone = None
    if parts["offset"] == "Z":
        zone = UTC
    elif parts["offset"]:
        digits = parts["offset"][1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:] or 0)
        zone = timezone(timedelta(minutes=-minutes if parts["offset"][0] == "-" else minutes))
    try:
        return datetime(
            int(parts["year"]),
            int(parts["month"]),
            int(parts["day"]),
            int(parts["hour"]),
            int(parts["minute"]),
            int(parts["second"] or 0),
            int((parts["fraction"] or "0").ljust(6, "0")),
            tzinfo=zone,
        )
    except ValueError:
        return None


def may_amend(*, entry: Entry, signer: Person, original_signer_ids: set[int]) -> Violation | None:
    """A signed entry is never changed; its signer or a compliance manager records the correction."""
    if signer.property_id != entry.property_id:
        return violation("signer_not_at_property/amendment", field="signature", signer=signer.display_name)
    if signer.pk not in original_signer_ids and signer.role not in AMENDER_ROLES:
        return violation("amender_role", field="signature")
    return None


def _correction_value_problem(
    *, name: str, value: object, entry_kind: str, checklist: tuple[str, ...], ball_known: bool
) -> Violation | None:
    """What is wrong with a corrected value, or None (the same shapes as the entry's API fields)."""
    field = f"correction.{name}"
    if name == "items":
        if not isinstance(value, dict) or not value:
            return violation("correction_value/items", field=field)
        unknown = sorted(set(value) - set(checklist))
        if unknown:
            return violation(
                "correction_value/items_unknown",
                field=field,
                unknown=", ".join(unknown),
                checklist=", ".join(checklist),
            )
        if not all(isinstance(result, bool) for result in value.values()):
            return violation("correction_value/items_results", field=field)
    elif name in ("notes", "description", "part", "reason"):
        limit = 200 if name == "part" else 2000
        if not isinstance(value, str) or (not value.strip() and name != "notes") or len(value) > limit:
            return violation("correction_value/text", field=field, name=name, limit=limit)
    elif name == "kind":
        choices = (
            (*pa.IRREGULARITY_KINDS, *CASINO_WAR_IRREGULARITY_KINDS)
            if entry_kind == "irregularity"
            else (
                ("adjustment", gettext_noop("adjustment")),
                ("replacement", gettext_noop("replacement")),
            )
        )
        if value not in dict(choices):
            return violation("correction_value/kind", field=field, choices=in_words(choices))
    elif name == "ball_replaced":
        if not isinstance(value, bool):
            return violation("correction_value/ball_replaced", field=field)
    elif name == "new_ball":
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not ball_known):
            return violation("correction_value/new_ball", field=field)
    elif name == "decks":
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 16:
            return violation("correction_value/decks", field=field)
    elif name in ("cards_per_deck", "cover_cards_per_deck"):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
            return violation("correction_value/cards", field=field)
    elif name == "back_colours":
        if (
            not isinstance(value, list)
            or not 1 <= len(value) <= 2
            or not all(isinstance(colour, str) and colour.strip() and len(colour) <= 40 for colour in value)
        ):
            return violation("correction_value/back_colours", field=field)
    elif name == "correction" and not isinstance(value, dict):
        return violation("correction_value/correction", field=field)
    return None


def check_correction(
    *,
    kind: str,
    allowed: frozenset[str],
    correction: dict[str, object],
    now: datetime,
    skew: timedelta,
    checklist: tuple[str, ...] = (),
    ball_known: bool = False,
    required: bool = True,
    recorded_at: datetime,
    max_backdate: timedelta,
) -> list[Violation]:
    """§ 617a.2(e): a correction names fields the corrected entry has, with values of their kind, and
    true times: not in the future, and (product policy) not further back before the corrected entry
    was recorded than an entry may be back-dated when it is recorded."""
    violations = []
    if not correction and required:
        violations.append(violation("correction_empty", field="correction"))
    for name, value in correction.items():
        field = f"correction.{name}"
        problem = _correction_value_problem(
            name=name, value=value, entry_kind=kind, checklist=checklist, ball_known=ball_known
        )
        if name in allowed and problem:
            violations.append(problem)
        elif name not in allowed:
            violations.append(
                violation(
                    "correction_field_unknown",
                    field=field,
                    kind=kind.replace("_", " "),
                    name=name,
                    fields=", ".join(sorted(allowed)),
                )
            )
        elif name in ("at", "performed_at"):
            when = parse_time(value) if isinstance(value, str) else None
            if when is None or when.tzinfo is None:
                violations.append(violation("correction_time", field=field))
            elif when > now + skew:
                violations.append(violation("time_in_future/correction", field=field))
            elif when < recorded_at - max_backdate:
                violations.append(
                    violation(
                        "time_too_old/correction",
                        field=field,
                        hours=int(max_backdate.total_seconds() // 3600),
                        recorded_at=moment_words(recorded_at),
                    )
                )
    return violations


def check_amendment(
    *,
    amendment_kind: str,
    entry: Entry,
    correction: dict[str, object],
    duplicate_of: int | None,
    duplicate: Entry | None,
    voided_by: int | None,
) -> list[Violation | None]:
    """§ 617a.2(e): the log states what happened; an entry that should not be in it is marked so by a
    signed amendment, once, and a duplicate names the earlier entry of the same table it repeats."""
    found: list[Violation | None] = []
    if voided_by is not None:
        found.append(violation("entry_already_voided", field="entry", seq=entry.seq, voided_by=voided_by))
    if amendment_kind in VOIDING_AMENDMENTS and correction:
        found.append(violation("correction_with_void", field="correction"))
    if amendment_kind != "duplicate":
        if duplicate_of is not None:
            found.append(violation("duplicate_of_without_duplicate", field="duplicate_of"))
        return found
    if duplicate_of is None:
        found.append(violation("duplicate_of_required", field="duplicate_of", seq=entry.seq))
    elif duplicate is None or duplicate.table_id != entry.table_id or duplicate.seq >= entry.seq:
        found.append(
            violation(
                "duplicate_of_unknown",
                field="duplicate_of",
                table=entry.table_number,
                duplicate_of=duplicate_of,
                seq=entry.seq,
            )
        )
    elif duplicate.kind != entry.kind:
        found.append(
            violation(
                "duplicate_of_other_kind",
                field="duplicate_of",
                duplicate_seq=duplicate.seq,
                duplicate_kind=duplicate.get_kind_display().lower(),
                seq=entry.seq,
                kind=entry.get_kind_display().lower(),
            )
        )
    return found
