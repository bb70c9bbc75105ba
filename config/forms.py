"""Form fields the apps' pages share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms

from config.validators import NOTE_MAX_LENGTH, printable_text

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


def note_field(label: str | StrPromise, *, required: bool = True, rows: int = 2) -> forms.CharField:
    """A note, description or reason typed on a form: printable text, line breaks kept, bounded as
    the model's note fields are."""
    return forms.CharField(
        label=label,
        required=required,
        max_length=NOTE_MAX_LENGTH,
        validators=[printable_text],
        widget=forms.Textarea(attrs={"rows": rows}),
    )
