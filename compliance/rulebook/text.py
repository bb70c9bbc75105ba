"""The product's policy on typed text, where the regulations are silent (compliance.validators
applies it). A refusal's code names its citation here; the API's error handler adds it."""

PRINTABLE_NAMES = "Product policy: names and numbers are printable text on one line"
PRINTABLE_NOTES = "Product policy: notes are printable text"
LENGTH_LIMITS = "Product policy: typed text has a length limit"

CITATIONS = {
    "control_characters": PRINTABLE_NAMES,
    "control_characters_in_text": PRINTABLE_NOTES,
    "max_length": LENGTH_LIMITS,
}
