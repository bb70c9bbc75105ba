"""The shapes a jurisdiction's facts take: a checklist item, a kind of flag (wagers: wagers.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChecklistItem:
    """An item of the inspection before opening, with the paragraph that asks for it."""

    code: str
    label: str
    citation: str


@dataclass(frozen=True)
class FlagKind:
    """A problem the overdue scan flags: its code, its label, its citation, and the column of the
    table (compliance.casinos.models.GamingTable) holding the deadline it watches."""

    code: str
    label: str
    citation: str
    deadline: str
