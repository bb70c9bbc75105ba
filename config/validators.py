"""What a person may type: a name or a number is one printable line (no control or invisible
formatting character), a note printable text of a bounded length (no control character but line
breaks and tabs, no bidirectional override). Product policy, not a regulation: the citations
are in compliance.rulebook.text.

Every path that stores typed text goes through these: the models' fields carry them (so forms,
the admin and DRF's ModelSerializers enforce them), and the API's and pages' own fields that
are not a model's (notes kept in an entry's details, signatures' usernames) name them too.
"""

from __future__ import annotations

import unicodedata
import zoneinfo

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.deconstruct import deconstructible
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# NIST SP 800-63B § 3.1.1.2 asks that passwords of at least 64 characters be accepted; a longer
# bound still keeps a typed password from being a way to make the server hash megabytes (Argon2).
PASSWORD_MAX_LENGTH = 1024
# Said in the reader's language (lazily: the words are chosen when the refusal is read).
PASSWORD_TOO_LONG = format_lazy(gettext_lazy("A password is at most {limit} characters."), limit=PASSWORD_MAX_LENGTH)

# A note, a description, a reason: long enough for a shift's account, short enough that a record
# that can never be deleted cannot be made to hold megabytes.
NOTE_MAX_LENGTH = 2000
# Where a line ends without being a control character (Unicode's line and paragraph separators):
# a mail header or a CSV row would break on them just the same.
LINE_SEPARATORS = frozenset({"\u2028", "\u2029"})
# The control characters a note may hold: it has lines, and a pasted table keeps its tabs.
NOTE_WHITESPACE = frozenset({"\n", "\r", "\t"})
# The bidirectional embeddings, overrides and isolates: they reorder what follows them on screen,
# so that "R-0\u202e1" reads "R-01" yet is not "R-01" ("Trojan Source", CVE-2021-42574). Refused in
# notes too; the other invisible formatting characters (Unicode's Cf: zero-width spaces and joiners,
# the soft hyphen, the byte-order mark…) only in names and numbers, which are compared and searched.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _described(character: str) -> str:
    names = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab", "\x00": "a null character"}
    if unicodedata.category(character) == "Cf":
        return f"the invisible formatting character U+{ord(character):04X}"
    return names.get(character, f"the control character U+{ord(character):04X}")


def _first_refused(value: str, *, allowed: frozenset[str]) -> str | None:
    one_line = not allowed
    for character in value:
        if character in allowed:
            continue
        # Cc is C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F).
        category = unicodedata.category(character)
        if category == "Cc" or character in BIDI_CONTROLS:
            return character
        if one_line and (character in LINE_SEPARATORS or category == "Cf"):
            return character
    return None


@deconstructible
class PrintableLine:
    """A name, number, reference or credential: printable characters on one line."""

    code = "control_characters"

    def __call__(self, value) -> None:
        if isinstance(value, str) and (character := _first_refused(value, allowed=frozenset())) is not None:
            raise ValidationError(
                _("Type this on one line with letters, digits and punctuation: it contains %(character)s."),
                code=self.code,
                params={"character": _described(character)},
            )

    def __eq__(self, other) -> bool:
        return isinstance(other, PrintableLine)


@deconstructible
class PrintableText:
    """A note: printable characters, line breaks and tabs."""

    code = "control_characters_in_text"

    def __call__(self, value) -> None:
        if isinstance(value, str) and (character := _first_refused(value, allowed=NOTE_WHITESPACE)) is not None:
            raise ValidationError(
                _(
                    "This text contains %(character)s, which cannot be stored: use letters, digits, "
                    "punctuation and line breaks."
                ),
                code=self.code,
                params={"character": _described(character)},
            )

    def __eq__(self, other) -> bool:
        return isinstance(other, PrintableText)


printable_line = PrintableLine()
printable_text = PrintableText()


def note_validators(max_length: int = NOTE_MAX_LENGTH) -> list:
    """A model TextField's: printable, and bounded. A validator, not max_length: a TextField's
    max_length binds only forms, and changing it makes SQLite rebuild the table (and lose the
    append-only triggers); DRF and the schema read the bound from the validator all the same."""
    return [printable_text, MaxLengthValidator(max_length)]


def printable_strings(value) -> None:
    """Every string in a JSON value (keys too) is printable text."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            printable_text(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class PasswordMaximumLength:
    """AUTH_PASSWORD_VALIDATORS: a new password is at most PASSWORD_MAX_LENGTH characters, so that
    it can be typed where every password is (the sign-in page, signatures), which refuse longer."""

    def validate(self, password: str, user=None) -> None:
        if len(password) > PASSWORD_MAX_LENGTH:
            raise ValidationError(PASSWORD_TOO_LONG, code="max_length")

    def get_help_text(self) -> str:
        return PASSWORD_TOO_LONG


def password_form_field(**kwargs):
    """A form's password field: bounded, so a megabyte typed in it is refused before any hash."""
    from django import forms

    return forms.CharField(
        widget=forms.PasswordInput(render_value=False),
        strip=False,
        max_length=PASSWORD_MAX_LENGTH,
        error_messages={"max_length": PASSWORD_TOO_LONG},
        **kwargs,
    )


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not an IANA time zone such as America/New_York.")


def mail_domain_encodable(address: str) -> None:
    """An address whose domain the mail can be sent to: its domain encodes to IDNA, as the SMTP
    backend encodes it. Django's email validator accepts some that do not (`a@aـb.example`, a
    right-to-left rule broken), and each such mail then failed at every scan (issue 32, item 3)."""
    domain = address.rpartition("@")[2]
    try:
        domain.encode("idna")
    except UnicodeError:
        raise ValidationError(
            _("“%(address)s”: its domain cannot be written for the mail (IDNA).") % {"address": address},
            code="invalid",
        ) from None
