"""The morning digest of open flags (sent at 07:00 property time), checked hourly: in django-celery-beat's tables, visible and editable in the admin (Periodic tasks)."""

from django.db import migrations

NAME = "Morning digest of open flags (sent at 07:00 property time)"
TASK = "inspections.flags.tasks.send_digests"


def schedule(apps, schema_editor):
    when, _ = apps.get_model("django_celery_beat", "CrontabSchedule").objects.get_or_create(
        minute="0", hour="*", day_of_week="*", day_of_month="*", month_of_year="*", timezone="UTC"
    )
    apps.get_model("django_celery_beat", "PeriodicTask").objects.update_or_create(
        name=NAME, defaults={"task": TASK, "crontab": when, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [("flags", "0002_scan_schedule"), ("django_celery_beat", "0019_alter_periodictasks_options")]

    operations = [migrations.RunPython(schedule, unschedule)]
