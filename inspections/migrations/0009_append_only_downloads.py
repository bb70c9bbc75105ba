"""The log of report downloads is append-only in the database too (issue 11: every download logged)."""

from django.db import migrations

from compliance.append_only import migration_operation


class Migration(migrations.Migration):
    dependencies = [("inspections", "0008_report_sent")]

    operations = [migration_operation(("inspections_reportdownload",))]
