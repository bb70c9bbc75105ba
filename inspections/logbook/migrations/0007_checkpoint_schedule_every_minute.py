"""The checkpoint task every minute: it signs a logbook that grew once its last checkpoint is
LOGBOOK_CHECKPOINT_MINUTES old, so the setting alone sets the interval (it used to be beat's five
minutes, which the setting could only be kept equal to by hand)."""

from django.db import migrations

NAME = "Logbook checkpoints"


def every(minutes: int):
    def schedule(apps, schema_editor):
        when, _ = apps.get_model("django_celery_beat", "IntervalSchedule").objects.get_or_create(
            every=minutes, period="minutes"
        )
        apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).update(interval=when)

    return schedule


class Migration(migrations.Migration):
    dependencies = [("logbook", "0006_entry_register_order")]

    operations = [migrations.RunPython(every(1), every(5))]
