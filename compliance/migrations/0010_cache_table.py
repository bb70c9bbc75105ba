"""The database cache's table (the API's throttle counts), made by `migrate` like every other table,
so a deployment needs no extra step (settings.CACHES)."""

from django.core.management import call_command
from django.db import migrations


def cache_table_create(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0009_overdue_deadlines")]

    operations = [migrations.RunPython(cache_table_create, migrations.RunPython.noop)]
