"""Every download of a report is kept: the database refuses UPDATE, DELETE and TRUNCATE.

The statements are written out here, per database, so that this migration never changes with the
code: config/append_only.py is where they were written, and tests/append_only.py checks that the
database refuses what they forbid.
"""

from django.db import migrations

FORWARDS = {'postgresql': ['\n'
                'CREATE OR REPLACE FUNCTION logbook_refuse_change() RETURNS trigger AS $$\n'
                'BEGIN\n'
                "    RAISE EXCEPTION 'signed records are append-only: correct a mistake with a new, signed "
                "record (% on %)', TG_OP, TG_TABLE_NAME\n"
                "        USING ERRCODE = 'insufficient_privilege';\n"
                'END;\n'
                '$$ LANGUAGE plpgsql;\n',
                'DROP TRIGGER IF EXISTS reports_reportdownload_append_only ON reports_reportdownload;',
                'CREATE TRIGGER reports_reportdownload_append_only BEFORE UPDATE OR DELETE ON '
                'reports_reportdownload FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS reports_reportdownload_no_truncate ON reports_reportdownload;',
                'CREATE TRIGGER reports_reportdownload_no_truncate BEFORE TRUNCATE ON reports_reportdownload '
                'FOR EACH STATEMENT EXECUTE FUNCTION logbook_refuse_change();'],
 'sqlite': ['DROP TRIGGER IF EXISTS reports_reportdownload_no_update;',
            'CREATE TRIGGER reports_reportdownload_no_update BEFORE UPDATE ON reports_reportdownload BEGIN '
            "SELECT RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed "
            "record (UPDATE on reports_reportdownload)'); END;",
            'DROP TRIGGER IF EXISTS reports_reportdownload_no_delete;',
            'CREATE TRIGGER reports_reportdownload_no_delete BEFORE DELETE ON reports_reportdownload BEGIN '
            "SELECT RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed "
            "record (DELETE on reports_reportdownload)'); END;"]}

BACKWARDS = {'postgresql': ['DROP TRIGGER IF EXISTS reports_reportdownload_append_only ON reports_reportdownload;',
                'DROP TRIGGER IF EXISTS reports_reportdownload_no_truncate ON reports_reportdownload;'],
 'sqlite': ['DROP TRIGGER IF EXISTS reports_reportdownload_no_update;',
            'DROP TRIGGER IF EXISTS reports_reportdownload_no_delete;']}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("reports", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
