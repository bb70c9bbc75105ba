"""Make the logbook tables append-only in the database itself (DESIGN.md §5)."""

from django.db import migrations

from compliance.append_only import migration_operation


class Migration(migrations.Migration):
    dependencies = [("inspections", "0001_initial")]

    operations = [migration_operation(("inspections_entry", "inspections_signature"))]
