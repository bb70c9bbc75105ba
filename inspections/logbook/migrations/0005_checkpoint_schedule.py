"""The checkpoint task, every five minutes (LOGBOOK_CHECKPOINT_MINUTES's default): in
django-celery-beat's tables, visible and editable in the admin (Periodic tasks)."""

from django.db import migrations

NAME = "Logbook checkpoints"
TASK = "inspections.logbook.tasks.checkpoint_grown"


def schedule(apps, schema_editor):
    when, _ = apps.get_model("django_celery_beat", "IntervalSchedule").objects.get_or_create(every=5, period="minutes")
    apps.get_model("django_celery_beat", "PeriodicTask").objects.update_or_create(
        name=NAME, defaults={"task": TASK, "interval": when, "enabled": True}
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [("logbook", "0004_checkpoint_append_only"), ("django_celery_beat", "0019_alter_periodictasks_options")]

    operations = [migrations.RunPython(schedule, unschedule)]
