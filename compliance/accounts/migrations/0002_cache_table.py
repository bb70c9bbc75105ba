"""The database cache's table (the throttles' counts, settings.CACHES), made by `migrate` like every
other table, so a deployment needs no extra step."""

from django.core.management import call_command
from django.db import migrations


def cache_table_create(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [migrations.RunPython(cache_table_create, migrations.RunPython.noop)]
