"""Make the logbook tables append-only in the database itself (DESIGN.md §5)."""

from django.db import migrations


def install(apps, schema_editor):
    from inspections import triggers

    for sql in triggers.install_statements(schema_editor.connection.vendor):
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    from inspections import triggers

    for sql in triggers.drop_statements(schema_editor.connection.vendor):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("inspections", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
