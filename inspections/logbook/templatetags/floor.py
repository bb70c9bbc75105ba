"""What a floor tile says is due (`{% load floor %}`): which of the table's deadlines comes next, in words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from compliance.casinos.models import TableState
from compliance.rulebook.flags import DEADLINE_COLUMNS, DUE_COLUMNS

register = template.Library()

# Each deadline the floor shows (compliance.rulebook.flags: the kinds watched ahead), as the thing to do by then.
DUE_WORDS = {
    "cover_due_at": _("Cover and lock the wheel"),
    "inspection_due_at": _("Inspect again"),
    "decks_due_at": _("Change the decks"),
    "approval_due_at": _("An approved layout and Rules Submission"),
}
# An open table whose inspection no longer counts (the kinds flagged at once, not watched ahead): the
# inspection was due before play went on, from the moment it stopped counting (§ 617a.2(a), (c), (d)).
VOID_WORDS = {
    "uninspected_since": _("Inspect before play goes on"),
    "adjusted_since": _("Inspect after the adjustment"),
    "replaced_since": _("Inspect after the replacement"),
}
VOID_COLUMNS = tuple(column for column in DEADLINE_COLUMNS if column not in DUE_COLUMNS)


@dataclass(frozen=True)
class Due:
    what: str
    at: datetime
    late: bool


def due_of(table, *, now: datetime) -> Due | None:
    """The table's next deadline (its precomputed `next_due`) and what it asks for, or None. An open
    table whose inspection no longer counts is due an inspection since then, whatever else comes next
    (not "Inspect again, by tomorrow", the interval of an inspection that is void)."""
    void = [(getattr(table.status, column), column) for column in VOID_COLUMNS if getattr(table.status, column, None)]
    if void:
        at, column = min(void)
        return Due(what=str(VOID_WORDS[column]), at=at, late=True)
    if not table.status.next_due:
        return None
    due = next((column for column in DUE_COLUMNS if getattr(table.status, column) == table.status.next_due), None)
    what = DUE_WORDS[due] if due else _("Next deadline")
    return Due(what=str(what), at=table.status.next_due, late=table.status.next_due <= now)


@register.simple_tag
def next_step_shown(table, next_words, due: Due | None):
    """`{% next_step_shown table next due as next %}`: the "Next: …" a tile or a table's page shows
    beside what is due, or "" where it would contradict what is overdue ("Next: Open for play" on a
    table flagged for its uncovered wheel): one next step, the overdue one, which the officer must do.
    "Stop play and inspect again" (an open table whose inspection is void) is that overdue step."""
    stop_play = table.status.state == TableState.OPEN and bool(table.status.inspection_void_reason)
    overdue = (due is not None and due.late) or bool(getattr(table, "open_flags", None))
    return next_words if stop_play or not overdue else ""


@register.simple_tag
def due(table) -> Due | None:
    """`{% due table as due %}`: what the table must have done next, by when, and whether that is past."""
    return due_of(table, now=timezone.now())


# A citation's paragraph, "617a.2(a)(3)": a browser may break a line between ")" and "(", which
# cuts the reference in two (the Spanish labels are longer, and push it there on a phone).
# The whole reference is kept together ("58 Pa. Code § 617a.2(a)(3)", short enough for a phone).
PARAGRAPH = re.compile(r"(?:58 Pa\. Code )?(?:§ )?\S*\)\(\S*")


@register.filter
def unbroken(text) -> str:
    """`text` with each paragraph reference ("617a.2(a)(3)") kept on one line, the rest wrapping as usual."""
    escaped = str(conditional_escape(text))
    return mark_safe(PARAGRAPH.sub(lambda match: f'<span class="nowrap">{match.group(0)}</span>', escaped))  # noqa: S308 — escaped above


# A table's number, "R-01", or a Board credential's, "BC-100034": a browser may break a line after its
# hyphen ("la mesa R-" / "01", "Person 34 (BC-" / "100034)").
TABLE_NUMBER = re.compile(r"\b[A-Z]{1,4}-\d{1,8}\b")


@register.filter
def numbers_whole(text) -> str:
    """`text` with each table or credential number ("R-01", "BC-100034") kept on one line, the rest
    wrapping as usual."""
    escaped = str(conditional_escape(text))
    return mark_safe(TABLE_NUMBER.sub(lambda match: f'<span class="nowrap">{match.group(0)}</span>', escaped))  # noqa: S308 — escaped above


@register.filter
def date_cell(text) -> str:
    """A date and time in a table's cell ("2026-11-24 14:15 EST"): the date whole and the time whole,
    a line break allowed only between them (a narrow column on a tablet), never at a hyphen."""
    day, _, time = str(text).partition(" ")
    if not time:
        return format_html('<span class="nowrap">{}</span>', day)
    return format_html('<span class="nowrap">{}</span> <span class="nowrap">{}</span>', day, time)
