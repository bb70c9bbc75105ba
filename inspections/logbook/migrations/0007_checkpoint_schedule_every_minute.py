"""Once wrote a row of beat's schedule. The schedule is now settings.CELERY_BEAT_SCHEDULE, which
beat writes into its tables when it starts: this step of the history does nothing."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("logbook", "0006_entry_register_order")]

    operations = []
