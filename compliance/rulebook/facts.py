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
    table (compliance.casinos.models.GamingTable) holding the deadline it watches. `ahead`: the
    deadline is a moment to come (counted in the table's next due, shown on the floor); otherwise
    it is when a problem of the open table happened, flagged at once. `by_game`: the citation of a
    game whose own paragraph says it (game → citation), in place of `citation`."""

    code: str
    label: str
    citation: str
    deadline: str
    ahead: bool = True
    by_game: tuple[tuple[str, str], ...] = ()

    def citation_for(self, game: str) -> str:
        """The citation of this kind of flag at a table of `game`."""
        return dict(self.by_game).get(game, self.citation)
