"""A filed Rules Submission's content, and a decided one's status, cannot change in the database."""

from django.db import migrations

from compliance.append_only import frozen_operation


class Migration(migrations.Migration):
    dependencies = [("compliance", "0006_append_only_signatures")]

    operations = [frozen_operation("compliance_rulessubmission")]
