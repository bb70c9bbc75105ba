"""Every write of a project model goes through its app's service: checked on every write the suite makes.

For the whole run, the ORM's write paths (a model's save and delete, a queryset's update, delete,
bulk_create and bulk_update) look at the call stack. A write that the project's code makes (a
frame of compliance, inspections or config on the stack) must have a service among those frames:
a module named `services` (or one of a `services` package). There is no list of exceptions: Django's
own writes on a person (the sign-in's time, a rehashed password, createsuperuser) and the directory's
go through the people's services too. A view, serializer, form, admin page, command or task that
writes a model itself fails the test that made it write. A migration's data step is the schema's, not
a write of the domain.
Tests' own set-up (factories, fixtures), with no project frame on the stack, is not checked.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from django.db import models
from django.db.models.query import QuerySet

PROJECT = ("compliance.", "inspections.", "config.")


@dataclass(frozen=True)
class Bypass:
    model: str
    operation: str
    where: str

    def __str__(self) -> str:
        return f"{self.model}.{self.operation} from {self.where}, not through a service"


bypasses: list[Bypass] = []


def _project_model(model) -> bool:
    return model.__module__.startswith(PROJECT)


def _check(model, operation: str) -> None:
    if not _project_model(model):
        return
    frame = sys._getframe(2)
    first_project = None
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith(PROJECT):
            if name.endswith(".services") or ".services." in name or ".migrations." in name:
                return
            if first_project is None:
                first_project = f"{name}:{frame.f_code.co_name} (line {frame.f_lineno})"
        frame = frame.f_back
    if first_project is not None:
        bypasses.append(Bypass(model.__name__, operation, first_project))


def install() -> None:
    """Wraps the ORM's write paths once per process."""
    if getattr(models.Model.save_base, "write_guarded", False):
        return

    def guard(original, operation, *, of_model):
        def wrapped(self, *args, **kwargs):
            model = type(self) if of_model else self.model
            _check(model, operation)
            return original(self, *args, **kwargs)

        wrapped.write_guarded = True
        return wrapped

    models.Model.save_base = guard(models.Model.save_base, "save", of_model=True)
    models.Model.delete = guard(models.Model.delete, "delete", of_model=True)
    for name in ("update", "delete", "bulk_create", "bulk_update", "_raw_delete"):
        setattr(QuerySet, name, guard(getattr(QuerySet, name), name, of_model=False))
