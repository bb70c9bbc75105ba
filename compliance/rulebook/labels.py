"""The product's own limits on the tables' QR label sheets (no regulation sets them): how many labels
one sheet holds, and how many sheets one person may have waiting or being rendered at once, so that
nobody's sheets hold back the workers for everyone. The numbers are settings; a citation states
them in words, never by the settings' names."""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.violations import Violation, gettext_noop, policy_template

SHEET_POLICY = policy_template(gettext_noop("Product policy: one label sheet holds at most {max_labels} labels"))
PENDING_POLICY = policy_template(
    gettext_noop("Product policy: at most {max_mine} label sheets waiting at once per person")
)


def label_sheet_within(*, labels: int, max_labels: int, property_name: str) -> Violation | None:
    """A sheet holds at most `max_labels` labels: a larger property prints its tables by pages."""
    if labels > max_labels:
        return violation(
            "label_sheet_too_large",
            field="page",
            citation=SHEET_POLICY.format(max_labels=max_labels),
            property=property_name,
            labels=labels,
            max_labels=max_labels,
        )
    return None


def label_sheets_pending_within(*, mine: int, max_mine: int) -> Violation | None:
    """One more sheet only while the person has fewer than `max_mine` waiting or being rendered."""
    if mine >= max_mine:
        return violation(
            "too_many_label_sheets_pending",
            field=None,
            citation=PENDING_POLICY.format(max_mine=max_mine),
            mine=mine,
            max_mine=max_mine,
        )
    return None
