"""Beat sends only the tasks the code names, without arguments (issue 32, item 2): a row of the
schedule inserted in the database (by its administrator, or anyone with its credentials) naming
another task, arguments, options or headers is never sent to the workers; the admin shows the
schedule read-only and runs nothing."""

import json

import pytest
from django.conf import settings
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from config.beat import BEAT_TASKS
from tests.conftest import beat_scheduler
from tests.factories import UserFactory


def scheduled() -> dict:
    """What beat would send, as the configured scheduler reads the schedule's rows."""
    scheduler = beat_scheduler()
    return {name: (entry.task, entry.args, entry.kwargs) for name, entry in scheduler.all_as_schedule().items()}


def row(name: str, task: str, **fields) -> PeriodicTask:
    every, _ = IntervalSchedule.objects.get_or_create(every=1, period="minutes")
    return PeriodicTask.objects.create(name=name, task=task, interval=every, **fields)


def test_the_settings_schedule_is_written_when_beat_starts_and_all_of_it_is_sent(beat_started):
    """Beat writes settings.CELERY_BEAT_SCHEDULE into its tables as it starts (a row of the same name is
    brought back to it); every row is sent, and each names an allowed task."""
    PeriodicTask.objects.filter(name="Overdue scan").update(task="inspections.reports.tasks.report_join")
    for name, fields in settings.CELERY_BEAT_SCHEDULE.items():  # beat started again
        beat_started.Entry.from_entry(name, app=beat_started.app, **fields)
    sent = scheduled()
    assert set(PeriodicTask.objects.filter(enabled=True).values_list("name", flat=True)) == set(sent)
    assert set(settings.CELERY_BEAT_SCHEDULE) <= set(sent)
    assert sent["Overdue scan"][0] == "inspections.flags.tasks.scan_overdue"
    assert {task for task, _, _ in sent.values()} <= BEAT_TASKS
    assert all(args == [] and kwargs == {} for _, args, kwargs in sent.values())


@pytest.mark.parametrize(
    "fields",
    [
        # The red team's row: the report's join, with a crafted file's path, for report 1.
        {"task": "inspections.reports.tasks.report_join", "args": json.dumps([["/media/layouts/x.pdf"], 1])},
        {"task": "inspections.reports.tasks.report_generate", "args": json.dumps([1])},
        {"task": "celery.chord_unlock"},
        {"task": "inspections.flags.tasks.scan_overdue", "args": json.dumps([1])},
        {"task": "inspections.flags.tasks.scan_overdue", "kwargs": json.dumps({"now": "2020-01-01"})},
        {"task": "inspections.logbook.tasks.checkpoint_grown", "headers": json.dumps({"x": 1})},
        {"task": "inspections.logbook.tasks.checkpoint_grown", "queue": "reports"},
        {"task": "inspections.logbook.tasks.checkpoint_grown", "args": "not json"},
    ],
    ids=["report-join", "report-generate", "celery-internal", "args", "kwargs", "headers", "queue", "bad-json"],
)
def test_a_row_naming_another_task_or_arguments_is_never_sent(db, fields):
    row("inserted by hand", **fields)
    assert "inserted by hand" not in scheduled()


def test_the_schedule_admin_adds_changes_and_runs_nothing(beat_started, client):
    administrator = UserFactory(role="admin", is_staff=True, is_superuser=True)
    client.force_login(administrator)
    task = PeriodicTask.objects.get(task="inspections.flags.tasks.scan_overdue")
    before = PeriodicTask.objects.count()
    added = client.post(
        "/admin/django_celery_beat/periodictask/add/",
        {"name": "by hand", "task": "inspections.reports.tasks.report_join", "args": "[]", "kwargs": "{}"},
    )
    assert added.status_code == 403 and PeriodicTask.objects.count() == before
    changed = client.post(
        f"/admin/django_celery_beat/periodictask/{task.pk}/change/",
        {"name": task.name, "task": "inspections.reports.tasks.report_join", "args": "[1]", "kwargs": "{}"},
    )
    assert changed.status_code == 403
    task.refresh_from_db()
    assert task.task == "inspections.flags.tasks.scan_overdue" and task.args == "[]"
    listed = client.get("/admin/django_celery_beat/periodictask/")
    assert listed.status_code == 200 and b"run_tasks" not in listed.content
    ran = client.post("/admin/django_celery_beat/periodictask/", {"action": "run_tasks", "_selected_action": [task.pk]})
    assert ran.status_code in (200, 302) and b"was successfully run" not in ran.content
