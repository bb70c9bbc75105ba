"""A layout is filed when submitted: its content and table list never change, its status once."""

from django.db import migrations

from compliance.append_only import frozen_operation, migration_operation


class Migration(migrations.Migration):
    dependencies = [("compliance", "0007_rules_submission_frozen_once_filed")]

    operations = [
        frozen_operation("compliance_layoutsubmission"),
        migration_operation(("compliance_layoutsubmission_tables",)),
    ]
