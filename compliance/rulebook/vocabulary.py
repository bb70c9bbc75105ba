"""The rulebook's words: the games, roles, table states and wheel types the rules speak of.

Each value and its label is defined here once; the Django models take their choices from these
(compliance.casinos.models, compliance.accounts.models), so the rules and the database agree.
"""

from __future__ import annotations

from enum import StrEnum

from compliance.rulebook.violations import gettext_noop


class Vocabulary(StrEnum):
    """A word of the rules: its value (stored) and its label (shown)."""

    label: str

    def __new__(cls, value: str, label: str) -> Vocabulary:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member

    def choice(self) -> tuple[str, str]:
        """(value, label): a Django model's choice."""
        return self.value, self.label

    @classmethod
    def label_of(cls, value: str) -> str:
        """The label of a stored value."""
        return next(member.label for member in cls if member.value == value)

    @classmethod
    def values(cls) -> frozenset[str]:
        return frozenset(member.value for member in cls)


class Game(Vocabulary):
    ROULETTE = "roulette", gettext_noop("Roulette")
    BIG_SIX = "big_six", gettext_noop("Big Six")
    CASINO_WAR = "casino_war", gettext_noop("Casino War")


class WheelType(Vocabulary):
    SINGLE_ZERO = "single_zero", gettext_noop("Single zero")
    DOUBLE_ZERO = "double_zero", gettext_noop("Double zero")
    # § 617a.1(e): a double-zero wheel with the 00 covered, played as a single-zero wheel.
    DOUBLE_ZERO_AS_SINGLE_ZERO = "double_zero_as_single_zero", gettext_noop("Double zero used as single zero")


class WheelColour(Vocabulary):
    """The colours of a Roulette wheel's ring (§ 617a.1(c), (d)): 0 and 00 green, 1 to 36 red or black."""

    GREEN = "green", gettext_noop("Green")
    RED = "red", gettext_noop("Red")
    BLACK = "black", gettext_noop("Black")


class Compartments(Vocabulary):
    """How a Roulette wheel's compartments are coloured (§ 617a.1(c), (d)): "a corresponding color to
    those depicted on the ring or a neutral color as approved"."""

    RING = "ring", gettext_noop("The colours of the ring")
    NEUTRAL = "neutral", gettext_noop("A neutral colour, approved")


class TableState(Vocabulary):
    """Where a table is in its day (docs/architecture.md: The table's state machine); table_states.TRANSITIONS says how it moves."""

    CLOSED = "closed", gettext_noop("Closed, wheel not yet covered")
    LOCKED = "locked", gettext_noop("Closed, wheel covered and locked")
    UNLOCKED = "unlocked", gettext_noop("Unlocked")
    INSPECTED = "inspected", gettext_noop("Inspected, ready to open")
    OPEN = "open", gettext_noop("Open for play")


class Role(Vocabulary):
    """What a person is at their property (docs/architecture.md: People); who may do what is in roles.py and the rules."""

    SECURITY = "security", gettext_noop("Security officer")
    FLOORPERSON = "floorperson", gettext_noop("Floorperson")
    MAINTENANCE = "maintenance", gettext_noop("Table game maintenance member")
    COMPLIANCE = "compliance", gettext_noop("Compliance manager")
    REGULATOR = "regulator", gettext_noop("Regulator (Board agent)")
    ADMIN = "admin", gettext_noop("Administrator")


class Procedure(Vocabulary):
    """Whether a property keeps the § 617a.2 procedure: Pennsylvania's own law; in New Jersey and
    Section 4, whose texts set none, the property's choice (rulebook_for)."""

    KEPT = "kept", gettext_noop("The § 617a.2 inspection procedure (Pennsylvania's law; applied by policy elsewhere)")
    NONE = "none", gettext_noop("No inspection procedure: a signed log only (New Jersey and Section 4)")


class Jurisdiction(Vocabulary):
    """The rulebooks this product holds (rulebook_for)."""

    PA = "PA", gettext_noop("Pennsylvania (58 Pa. Code)")
    NJ = "NJ", gettext_noop("New Jersey (N.J.A.C. 19:47)")
    S4 = "S4", gettext_noop("Section 4 rules")
