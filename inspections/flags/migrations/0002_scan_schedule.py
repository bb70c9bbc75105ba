"""The overdue scan, every minute: in django-celery-beat's tables, visible and editable in the admin (Periodic tasks)."""

from django.db import migrations

NAME = "Overdue scan"
TASK = "inspections.flags.tasks.scan_overdue"


def schedule(apps, schema_editor):
    when, _ = apps.get_model("django_celery_beat", "IntervalSchedule").objects.get_or_create(every=1, period="minutes")
    apps.get_model("django_celery_beat", "PeriodicTask").objects.update_or_create(
        name=NAME, defaults={"task": TASK, "interval": when, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [("flags", "0001_initial"), ("django_celery_beat", "0019_alter_periodictasks_options")]

    operations = [migrations.RunPython(schedule, unschedule)]
