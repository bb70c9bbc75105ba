"""The product's policy on typed text, where the regulations are silent (compliance.validators
applies it). A refusal's code names its citation here; the API's error handler adds it."""

from compliance.rulebook.base import Violation
from compliance.validators import PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG

PRINTABLE_NAMES = "Product policy: names and numbers are printable text on one line"
PRINTABLE_NOTES = "Product policy: notes are printable text"
LENGTH_LIMITS = "Product policy: typed text has a length limit"

CITATIONS = {
    "control_characters": PRINTABLE_NAMES,
    "control_characters_in_text": PRINTABLE_NOTES,
    "max_length": LENGTH_LIMITS,
}


def password_within_limit(*, password: str, field: str | None) -> Violation | None:
    """A password longer than PASSWORD_MAX_LENGTH is refused before it is hashed or checked."""
    if len(password) > PASSWORD_MAX_LENGTH:
        return Violation("max_length", PASSWORD_TOO_LONG, LENGTH_LIMITS, field)
    return None
