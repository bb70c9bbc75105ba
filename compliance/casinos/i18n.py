"""The rulebook's words and sentences, for the translators' catalogue (locale/es/LC_MESSAGES/django.po).

The rulebook is pure Python and calls no gettext: its catalogue of violations, its vocabulary, its
checklists, flag kinds, wagers, options and layout features are found here by walking its modules,
so that `manage.py makemessages` (compliance/casinos/management/commands/makemessages.py) extracts
them, and tests/test_i18n.py checks that each has its translation."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import compliance.rulebook
from compliance.rulebook import configurations, words
from compliance.rulebook.catalogue import CATALOGUE
from compliance.rulebook.facts import ChecklistItem, FlagKind
from compliance.rulebook.procedure import role_names
from compliance.rulebook.violations import POLICY, Odds
from compliance.rulebook.vocabulary import Role, Vocabulary
from compliance.rulebook.wagers import Wager

# Where a rule says a violation again in a longer sentence: Violation.reworded("…{inner}", …).
REWORDED = re.compile(r'\.reworded\(\s*("(?:[^"\\]|\\.)*")')
# A citation is never translated: it is the paragraph's own name.
CITATION = re.compile(r"^(58 Pa\. Code|N\.J\.A\.C\.|Section 4\(|Product policy|§)")


def _modules() -> Iterator[object]:
    package = compliance.rulebook
    yield package
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        yield importlib.import_module(info.name)


def _is_code_and_label(value: tuple | list) -> bool:
    """("no_spin_direction", "ball spun in the same direction …"): a code and its words, no citation."""
    if len(value) != 2 or not all(isinstance(part, str) for part in value):
        return False
    code, label = value
    return bool(re.fullmatch(r"[a-z0-9_]+", code)) and " " in label and "_" not in label and not CITATION.match(label)


def _labelled(value: object, seen: set[int]) -> Iterator[str]:
    """The labels of the rulebook's facts inside a module's value (tuples, dicts and sets walked)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, ChecklistItem | FlagKind | Wager):
        yield value.label
    elif isinstance(value, dict):
        for item in value.values():
            yield from _labelled(item, seen)
    elif isinstance(value, tuple | list):
        # A list of (code, label) pairs: a jurisdiction's irregularities, Casino War's card checks.
        if _is_code_and_label(value):
            yield value[1]
        for item in value:
            yield from _labelled(item, seen)
    elif isinstance(value, frozenset) and value and all(isinstance(role, Role) for role in value):
        yield role_names(value)


def _policies(value: object, seen: set[int]) -> Iterator[str]:
    """The product policies cited inside a module's value ("Product policy: …"): sentences of the
    product, translated when read (violations.cited), unlike the law's paragraphs."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        if value.startswith(POLICY):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _policies(item, seen)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from _policies(item, seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            yield from _policies(getattr(value, item.name, None), seen)


def policy_citations() -> list[str]:
    """Every product policy the rulebook cites, once each, in a stable order."""
    found: list[str] = []
    seen: set[int] = set()
    for module in _modules():
        for name, value in vars(module).items():
            if not name.startswith("_") and not callable(value):
                found.extend(_policies(value, seen))
    return list(dict.fromkeys(found))


def rulebook_messages() -> list[str]:
    """Every sentence and word of the rulebook a person reads, once each, in a stable order."""
    found: list[str] = [entry.template for entry in CATALOGUE.values()]
    found += [member.label for vocabulary in Vocabulary.__subclasses__() for member in vocabulary]
    for role in Role:
        label = role.label.lower()
        found.append(f"{'an' if label[0] in 'aeiou' else 'a'} {label}")
    # The actions a covered wheel must be unlocked before (procedure.wheel_not_locked's `action`).
    found += ["inspection", "adjustment", "replacement", "ball change"]
    found += list(words.LAYOUT_FEATURE_LABELS.values()) + list(words.OPTION_LABELS.values())
    found += [value for value in words.VALUE_WORDS.values() if isinstance(value, str)]
    seen: set[int] = set()
    for module in _modules():
        for name, value in vars(module).items():
            if not name.startswith("_") and not callable(value):
                found.extend(_labelled(value, seen))
        source = Path(module.__file__ or "").read_text(encoding="utf-8") if module.__file__ else ""
        found += [ast.literal_eval(match) for match in REWORDED.findall(source)]
    found += [configurations.NOT_IN_VERSION, configurations.WHEEL_NOT_ALLOWED, *configurations.DIFFERENCES]
    found.append(Odds.WORDS)
    found += policy_citations()
    return list(dict.fromkeys(text for text in found if text))


def gettext_noop_source() -> str:
    """A Python module that names every message of the rulebook to xgettext (never imported)."""
    lines = [
        "# Made by manage.py makemessages for xgettext, then deleted: the rulebook's messages.",
        "from django.utils.translation import gettext_noop",
        "",
    ]
    lines += [f"gettext_noop({text!r})" for text in rulebook_messages()]
    return "\n".join(lines) + "\n"
