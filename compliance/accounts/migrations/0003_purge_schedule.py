"""Answers kept for repeated writes, forgotten hourly after their lifetime: in django-celery-beat's tables, visible and editable in the admin (Periodic tasks)."""

from django.db import migrations

NAME = "Idempotency keys purged"
TASK = "compliance.accounts.tasks.idempotency_keys_purge"


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
    dependencies = [("accounts", "0002_cache_table"), ("django_celery_beat", "0019_alter_periodictasks_options")]

    operations = [migrations.RunPython(schedule, unschedule)]
