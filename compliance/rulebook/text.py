"""The product's policy on typed text, where the regulations are silent (config.validators
applies it; a password's length: signatures.password_within_limit). A refusal's code names its
citation here; the API's error handler adds it."""

from compliance.rulebook.violations import gettext_noop

PRINTABLE_NAMES = gettext_noop("Product policy: names and numbers are printable text on one line")
PRINTABLE_NOTES = gettext_noop("Product policy: notes are printable text")
LENGTH_LIMITS = gettext_noop("Product policy: typed text has a length limit")
PRINTABLE_TEXT = gettext_noop("Product policy: typed text is printable")
# A field missing, empty, of the wrong type or not one of its list: the request's own form.
REQUEST_FORM = gettext_noop("Product policy: a request gives each field in the form the API describes")

CITATIONS = {
    "control_characters": PRINTABLE_NAMES,
    "control_characters_in_text": PRINTABLE_NOTES,
    "max_length": LENGTH_LIMITS,
    # The framework's own refusals of typed text (Django REST framework's codes).
    "min_length": LENGTH_LIMITS,
    "null_characters_not_allowed": PRINTABLE_TEXT,
    "surrogate_characters_not_allowed": PRINTABLE_TEXT,
}
# Codes that refuse the same thing: a field refused for it once says so once (ours, the first named).
SAME_CAUSE = {
    "control_characters": "control_characters",
    "control_characters_in_text": "control_characters",
    "null_characters_not_allowed": "control_characters",
    "max_length": "max_length",
    "min_length": "min_length",
}


def citation_of(code: str) -> str:
    """The citation of a field's refusal by its code; any other is the request's form."""
    return CITATIONS.get(code, REQUEST_FORM)
