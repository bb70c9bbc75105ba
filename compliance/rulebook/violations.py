"""What a rule answers: nothing, or a Violation naming its citation."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal


def gettext_noop(text: str) -> str:
    """Marks `text`, a word or sentence of the rulebook, for the translators: the stock `manage.py
    makemessages` finds it by this name (as it finds Django's own gettext_noop, which this package,
    free of Django, does not import). It answers `text` unchanged: `translated` says it in the
    language in use where it is read."""
    return text


# The rulebook speaks English and imports nothing of Django: the application installs a translator
# (Django's gettext, compliance.casinos.apps) and a Violation's `message` is then said in the language
# in use when it is read (the request's, a mail's recipient's), its code and citation unchanged.
Translator = Callable[[str], str]
_translators: list[Translator] = [str]
# A number as the language in use writes it (Spanish: a decimal comma); the application installs
# Django's (compliance.casinos.apps).
NumberWriter = Callable[[object], str]
_numbers: list[NumberWriter] = [str]


def translate_with(translator: Translator, numbers: NumberWriter | None = None) -> None:
    """Say every sentence of the rulebook through `translator` from now on (English: `str`), and
    write its numbers with `numbers`."""
    _translators[0] = translator
    if numbers is not None:
        _numbers[0] = numbers


@dataclass(frozen=True)
class Odds:
    """Payout odds, "35 to 1": said in the language in use ("35 a 1") where a sentence names them."""

    pays: int
    per: int

    # The words of odds, in the rulebook's English; translated where said (its catalogue's entry).
    WORDS = gettext_noop("{pays} to {per}")

    def __str__(self) -> str:
        return self.WORDS.format(pays=self.pays, per=self.per)

    @property
    def said(self) -> str:
        return translated(self.WORDS).format(pays=self.pays, per=self.per)


class Typed(str):
    """Text a person typed or named (a configuration's key or name): said as typed, never translated."""

    __slots__ = ()


class Listed(tuple):
    """Labels of the rulebook listed in a sentence, in lower case ("single zero, double zero"): each
    said in the language in use ("un cero, doble cero")."""

    __slots__ = ()

    def __str__(self) -> str:
        return ", ".join(str(word).lower() for word in self)


def number_said(value: object) -> str:
    """A number (a diameter, a decimal) as the language in use writes it."""
    return _numbers[0](value)


def translated(text: str) -> str:
    """`text` (a sentence or a word of the rulebook, in English) in the language in use."""
    return _translators[0](text)


def said(template: str, values: Mapping[str, object]) -> str:
    """A catalogue template filled with its values, both in the language in use: a value that is a
    word of the rulebook (a role, a state) is translated too, a violation is said, odds and a number
    with decimals are written as the language writes them ("35 a 1", "0,8125"), a whole number kept."""

    def word(value: object) -> object:
        if isinstance(value, Violation):
            return value.message
        if isinstance(value, Odds):
            return value.said
        if isinstance(value, Typed):
            return str(value)
        if isinstance(value, Listed):
            return ", ".join(translated(str(word)).lower() for word in value)
        if isinstance(value, Decimal | float):
            return number_said(value)
        return translated(value) if isinstance(value, str) and value else value

    words = {name: word(value) for name, value in values.items()}
    try:
        return translated(template).format(**words)
    except (KeyError, IndexError, ValueError):
        # A translation that names a placeholder the template has not: the English, never an error
        # (tests/test_i18n.py fails on such a translation).
        return template.format(**words)


# A citation that is the product's own policy begins so; the rest are the law's paragraphs.
POLICY = gettext_noop("Product policy")


# The product policies whose words carry a number of the settings ("at most {max_days} days"): each
# module that cites one registers its template here (`policy_template`), so that `cited` finds the
# template of a citation and says it with the same numbers.
POLICY_TEMPLATES: list[str] = []


def policy_template(template: str) -> str:
    """Registers a product policy's template with placeholders; returns it, to be filled."""
    if template not in POLICY_TEMPLATES:
        POLICY_TEMPLATES.append(template)
    return template


def _filled(template: str, citation: str) -> dict[str, str] | None:
    """The values that fill `template` to make `citation`, or None if it is not one of its kind."""
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(template))
    match = re.fullmatch(pattern, citation)
    return match.groupdict() if match else None


def cited(citation: str | None) -> str:
    """A citation in the language in use. The law's ("58 Pa. Code § 617a.2(b)") is the paragraph's own
    name, kept as the law writes it; a product policy's ("Product policy: a ball is on one table at a
    time") is a sentence of the product, said in the reader's language, the paragraphs it names
    unchanged inside it (issue 30)."""
    if not citation:
        return ""
    if not citation.startswith(POLICY):
        return citation
    for template in POLICY_TEMPLATES:
        values = _filled(template, citation)
        if values is not None:
            return said(template, values)
    return translated(citation)


@dataclass(frozen=True)
class Violation:
    code: str
    # The sentence in English, as the catalogue words it; `message` says it in the language in use.
    text: str
    citation: str | None = None
    field: str | None = None
    # The catalogue's template and its values, to say it again in another language.
    template: str | None = dataclasses.field(default=None, compare=False, repr=False)
    values: Mapping[str, object] = dataclasses.field(default_factory=dict, compare=False, repr=False)

    @property
    def message(self) -> str:
        """The sentence in the language in use (English where no translator is installed)."""
        return said(self.template, self.values) if self.template is not None else translated(self.text)

    @property
    def cited(self) -> str:
        """The citation in the language in use (`cited`)."""
        return cited(self.citation)

    def reworded(self, template: str, **values: object) -> Violation:
        """The same violation in a longer sentence: `template` names the first as {inner}."""
        values = {**values, "inner": self}
        english = template.format(**{**values, "inner": self.text})
        return dataclasses.replace(self, text=english, template=template, values=values)

    def as_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "citation": self.citation, "field": self.field}


class RuleViolation(Exception):
    """Raised with every violation found; the API answers it with HTTP 400 (docs/api.md's format)."""

    def __init__(self, violations: Iterable[Violation]):
        self.violations = list(violations)
        super().__init__("; ".join(v.text for v in self.violations))


def raise_if_any(violations: Iterable[Violation | None]) -> None:
    found = [v for v in violations if v is not None]
    if found:
        raise RuleViolation(found)


class LimitReached(RuleViolation):
    """A limit of the product's own on how much may wait at once: answered with HTTP 429 (not 400),
    since the same request succeeds once what waits is done."""

    http_status = 429
