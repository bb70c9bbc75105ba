"""A layout is filed when submitted: its content and table list never change, its status once."""

from django.db import migrations

from compliance.append_only import migration_operation


def install(apps, schema_editor):
    from compliance.append_only import layout_frozen_statements

    for sql in layout_frozen_statements(schema_editor.connection.vendor):
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    suffix = " ON compliance_layoutsubmission" if schema_editor.connection.vendor == "postgresql" else ""
    for name in ("frozen", "kept"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS compliance_layoutsubmission_{name}{suffix};", params=None)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0007_rules_submission_frozen_once_filed")]

    operations = [
        migrations.RunPython(install, drop),
        migration_operation(("compliance_layoutsubmission_tables",)),
    ]
