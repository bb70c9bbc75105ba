"""A rejected layout's artwork removed after its retention (issue 32, item 4), checked daily: in
django-celery-beat's tables, read-only in the admin; config/beat.py lets the task through."""

from django.db import migrations

NAME = "Rejected layouts' artwork removed after its retention"
TASK = "compliance.approvals.tasks.rejected_artwork_purge"


def schedule(apps, schema_editor):
    when, _ = apps.get_model("django_celery_beat", "CrontabSchedule").objects.get_or_create(
        minute="30", hour="4", day_of_week="*", day_of_month="*", month_of_year="*", timezone="UTC"
    )
    apps.get_model("django_celery_beat", "PeriodicTask").objects.update_or_create(
        name=NAME, defaults={"task": TASK, "crontab": when, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("approvals", "0005_rules_submission_configurations"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
