"""A date, a date and time, or a time inside a form's input is ISO in every language.

The browser's `<input type="date">` (and `datetime-local`, `time`) reads only ISO values: a Spanish
page that wrote `value="27/11/2026"` was shown blank and refused "Este campo es requerido" (issue 30,
item 3). The input formats live once, in `config/formats/` (ISO first in every language), and the
browser's date inputs are `config.forms`' widgets. These tests walk every form class of the project
and every model form the admin builds, so a new form cannot bring the fault back.
"""

from __future__ import annotations

import importlib
import re
from datetime import UTC, date, datetime, time

import pytest
from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.utils import translation

from config.settings import LANGUAGES

PROJECT = ("compliance", "inspections", "config")
VALUES = {
    forms.DateField: (date(2026, 11, 27), r"2026-11-27"),
    forms.DateTimeField: (datetime(2026, 11, 27, 9, 5, tzinfo=UTC), r"2026-11-27[T ]09:05(:00)?"),
    forms.TimeField: (time(9, 5), r"09:05(:00)?"),
}


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def project_forms() -> list[type[forms.BaseForm]]:
    """Every form class the project defines (each app's forms.py, web.py and admin.py imported)."""
    for config in apps.get_app_configs():
        if config.name.startswith(PROJECT):
            for module in ("forms", "web", "admin"):
                try:
                    importlib.import_module(f"{config.name}.{module}")
                except ModuleNotFoundError as missing:
                    if missing.name != f"{config.name}.{module}":
                        raise
    importlib.import_module("config.forms")
    return sorted(
        {form for form in _subclasses(forms.BaseForm) if form.__module__.startswith(PROJECT)},
        key=lambda form: f"{form.__module__}.{form.__qualname__}",
    )


def admin_forms() -> list[tuple[str, type[forms.BaseForm]]]:
    """The form the admin builds for each model of the project it registers."""
    request = RequestFactory().get("/admin/")
    request.user = AnonymousUser()
    built = []
    for model, model_admin in admin.site._registry.items():
        if model.__module__.startswith(PROJECT):
            built.append((f"admin:{model._meta.label}", model_admin.get_form(request, obj=None, change=False)))
    return built


def date_fields(form: type[forms.BaseForm]) -> list[tuple[str, forms.Field]]:
    return [(name, field) for name, field in form.base_fields.items() if isinstance(field, tuple(VALUES))]


def value_of(field: forms.Field, value: object) -> str:
    """The `value` attribute the field's widget writes (a split widget: its parts joined by a space)."""
    html = field.widget.render("x", value)
    return " ".join(re.findall(r'value="([^"]*)"', html))


@pytest.mark.parametrize("language", [code for code, _ in LANGUAGES])
def test_every_date_input_of_every_form_is_iso_in_every_language(language):
    every = [(f"{f.__module__}.{f.__qualname__}", f) for f in project_forms()] + admin_forms()
    wrong, seen = [], 0
    with translation.override(language):
        for name, form in every:
            for field_name, field in date_fields(form):
                value, iso = next(v for kind, v in VALUES.items() if isinstance(field, kind))
                written = value_of(field, value)
                seen += 1
                if not re.fullmatch(iso, written):
                    wrong.append(f"{name}.{field_name}: value={written!r}")
                if getattr(field.widget, "input_type", "") == "datetime-local" and "T" not in written:
                    # The browser's own form of a local date and time: "YYYY-MM-DDTHH:MM".
                    wrong.append(f"{name}.{field_name}: datetime-local value={written!r}")
    assert not wrong, "\n".join(wrong)
    # The walk saw the forms it is about: the reports' period, the effective date, the corrected time.
    assert seen >= 4, seen


@pytest.mark.parametrize("language", [code for code, _ in LANGUAGES])
def test_a_date_typed_iso_is_read_in_every_language_and_a_spanish_one_in_spanish(language):
    field = forms.DateField()
    with translation.override(language):
        assert field.clean("2026-11-27") == date(2026, 11, 27)
    with translation.override("es"):
        assert field.clean("27/11/2026") == date(2026, 11, 27)


def test_the_walk_finds_a_form_that_writes_a_local_date():
    class Local(forms.Form):
        day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}, format="%d/%m/%Y"))

    with translation.override("es"):
        written = value_of(Local.base_fields["day"], date(2026, 11, 27))
    assert written == "27/11/2026"  # what the check above refuses
    assert Local in project_forms() or Local.__module__.startswith("tests")
