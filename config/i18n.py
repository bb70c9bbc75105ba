"""The staff's languages: what the models need of Django's translation for the rulebook's words.

The rulebook speaks English and imports nothing of Django; its words reach people through this (a
model's choices), its violations through compliance.rulebook.violations.translate_with (installed by
compliance.casinos), and its other words through gettext where they are shown."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy


def choice(word) -> tuple[str, Promise]:
    """A word of the rulebook (compliance.rulebook.vocabulary) as a model's choice: its value, and
    its label said in the language in use."""
    return word.value, gettext_lazy(word.label)
