"""The morning digest is checked every minute, not every hour on the hour: a server started at 07:47
sent New York's digest at 08:00, out of its 07:00 hour. Each property still gets one a local day,
from its own 07:00 (inspections.flags.overdue.send_digests)."""

from django.db import migrations
from django.utils import timezone

NAME = "Morning digest of open flags (sent at 07:00 property time)"


def beat_told(apps) -> None:
    """django-celery-beat's DatabaseScheduler reloads its schedule when this row changes."""
    apps.get_model("django_celery_beat", "PeriodicTasks").objects.update_or_create(
        ident=1, defaults={"last_update": timezone.now()}
    )


def every_minute(apps, schema_editor):
    minute, _ = apps.get_model("django_celery_beat", "IntervalSchedule").objects.get_or_create(
        every=1, period="minutes"
    )
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).update(
        interval=minute, crontab=None
    )
    beat_told(apps)


def every_hour(apps, schema_editor):
    hourly, _ = apps.get_model("django_celery_beat", "CrontabSchedule").objects.get_or_create(
        minute="0", hour="*", day_of_week="*", day_of_month="*", month_of_year="*", timezone="UTC"
    )
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).update(
        interval=None, crontab=hourly
    )
    beat_told(apps)


class Migration(migrations.Migration):
    dependencies = [("flags", "0006_flags_close_only_by_their_entry"), ("django_celery_beat", "0019_alter_periodictasks_options")]

    operations = [migrations.RunPython(every_minute, every_hour)]
