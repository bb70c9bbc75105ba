"""A filed Rules Submission's content, and a decided one's status, cannot change in the database."""

from django.db import migrations


def install(apps, schema_editor):
    from compliance.append_only import frozen_once_filed_statements

    for sql in frozen_once_filed_statements(schema_editor.connection.vendor):
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    suffix = " ON compliance_rulessubmission" if schema_editor.connection.vendor == "postgresql" else ""
    for name in ("frozen", "kept"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS compliance_rulessubmission_{name}{suffix};", params=None)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0006_append_only_signatures")]

    operations = [migrations.RunPython(install, drop)]
