"""Every write of a project model goes through its app's service: checked on every write the suite makes.

For the whole run, the ORM's write paths (a model's save and delete, a queryset's update, delete,
bulk_create and bulk_update) look at the call stack. A write that the project's code makes (a
frame of compliance, inspections or config on the stack) must have a service among those frames:
a module named `services` (or one of a `services` package), or one of DOORS below, each the one door of its model. A view, serializer,
form, admin page, command or task that writes a model itself fails the test that made it write.
Tests' own set-up (factories, fixtures), with no project frame on the stack, is not checked.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from django.db import models
from django.db.models.query import QuerySet

PROJECT = ("compliance.", "inspections.", "config.")
# Service modules not named `services`: each is the door of what it writes, and says so in its docstring.
DOORS = {
    "inspections.flags.overdue": "the overdue scan raises, mails and resolves flags",
    "inspections.reports.render": "a report's generation writes its progress and file",
    "inspections.reports.requests": "a report asked for and downloaded",
    "inspections.reports.tasks": "a report handed to the workers is marked sent",
    "compliance.accounts.idempotency": "the answers kept for repeated writes",
    "compliance.casinos.labels": "a label sheet asked for, rendered by a worker and served",
    "compliance.accounts.throttles": "a client's count against its rate, its row locked (throttle_hit)",
    "compliance.accounts.directory_backend": "a person as the casino's directory says, at each sign-in and signature",
}
# Functions that are a door although their module is not: Django calls them by these names.
DOOR_FUNCTIONS = {
    # `createsuperuser`: the first administrator, with the same password policy as everyone's.
    ("compliance.accounts.models", "create_superuser"),
}
# Writes that Django's own machinery makes on a project model, each for a reason of its own.
DJANGO_WRITES = {
    # Sign-in stamps the time of the last sign-in (django.contrib.auth.models.update_last_login).
    ("User", frozenset({"last_login"})),
    # A password checked with an outdated hash is saved again with the current one (check_password's setter).
    ("User", frozenset({"password"})),
}


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


def _check(model, operation: str, update_fields=None) -> None:
    if not _project_model(model):
        return
    if update_fields is not None and (model.__name__, frozenset(update_fields)) in DJANGO_WRITES:
        return
    frame = sys._getframe(2)
    first_project = None
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith(PROJECT):
            if name.endswith(".services") or ".services." in name or name in DOORS or ".migrations." in name:
                return
            if (name, frame.f_code.co_name) in DOOR_FUNCTIONS:
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
            _check(model, operation, kwargs.get("update_fields"))
            return original(self, *args, **kwargs)

        wrapped.write_guarded = True
        return wrapped

    models.Model.save_base = guard(models.Model.save_base, "save", of_model=True)
    models.Model.delete = guard(models.Model.delete, "delete", of_model=True)
    for name in ("update", "delete", "bulk_create", "bulk_update", "_raw_delete"):
        setattr(QuerySet, name, guard(getattr(QuerySet, name), name, of_model=False))
