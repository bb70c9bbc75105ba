"""The overdue scan every minute and the digest check every hour, in django-celery-beat's tables:
visible and editable in the admin (Periodic tasks)."""

from django.db import migrations

SCAN = "Overdue scan (DESIGN.md §6)"
DIGEST = "Morning digest of open flags (sent at 07:00 property time)"


def schedule(apps, schema_editor):
    interval = apps.get_model("django_celery_beat", "IntervalSchedule")
    crontab = apps.get_model("django_celery_beat", "CrontabSchedule")
    task = apps.get_model("django_celery_beat", "PeriodicTask")
    every_minute, _ = interval.objects.get_or_create(every=1, period="minutes")
    task.objects.update_or_create(
        name=SCAN, defaults={"task": "inspections.tasks.scan_overdue", "interval": every_minute, "enabled": True}
    )
    hourly, _ = crontab.objects.get_or_create(
        minute="0", hour="*", day_of_week="*", day_of_month="*", month_of_year="*", timezone="UTC"
    )
    task.objects.update_or_create(
        name=DIGEST, defaults={"task": "inspections.tasks.send_digests", "crontab": hourly, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name__in=[SCAN, DIGEST]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("inspections", "0004_compliance_exceptions"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
