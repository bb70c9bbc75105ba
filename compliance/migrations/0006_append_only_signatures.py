"""Approval signatures are append-only in the database, like the logbook's (DESIGN.md §5)."""

from django.db import migrations

from compliance.append_only import migration_operation


class Migration(migrations.Migration):
    dependencies = [("compliance", "0005_layouts")]

    operations = [migration_operation(("compliance_approvalsignature",))]
