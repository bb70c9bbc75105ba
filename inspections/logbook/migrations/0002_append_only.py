"""The logbook's entries and signatures are append-only: the database refuses UPDATE, DELETE and
TRUNCATE.

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
                'DROP TRIGGER IF EXISTS logbook_entry_append_only ON logbook_entry;',
                'CREATE TRIGGER logbook_entry_append_only BEFORE UPDATE OR DELETE ON logbook_entry FOR EACH '
                'ROW EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS logbook_entry_no_truncate ON logbook_entry;',
                'CREATE TRIGGER logbook_entry_no_truncate BEFORE TRUNCATE ON logbook_entry FOR EACH '
                'STATEMENT EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS logbook_signature_append_only ON logbook_signature;',
                'CREATE TRIGGER logbook_signature_append_only BEFORE UPDATE OR DELETE ON logbook_signature '
                'FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS logbook_signature_no_truncate ON logbook_signature;',
                'CREATE TRIGGER logbook_signature_no_truncate BEFORE TRUNCATE ON logbook_signature FOR EACH '
                'STATEMENT EXECUTE FUNCTION logbook_refuse_change();'],
 'sqlite': ['DROP TRIGGER IF EXISTS logbook_entry_no_update;',
            'CREATE TRIGGER logbook_entry_no_update BEFORE UPDATE ON logbook_entry BEGIN SELECT RAISE(ABORT, '
            "'signed records are append-only: correct a mistake with a new, signed record (UPDATE on "
            "logbook_entry)'); END;",
            'DROP TRIGGER IF EXISTS logbook_entry_no_delete;',
            'CREATE TRIGGER logbook_entry_no_delete BEFORE DELETE ON logbook_entry BEGIN SELECT RAISE(ABORT, '
            "'signed records are append-only: correct a mistake with a new, signed record (DELETE on "
            "logbook_entry)'); END;",
            'DROP TRIGGER IF EXISTS logbook_signature_no_update;',
            'CREATE TRIGGER logbook_signature_no_update BEFORE UPDATE ON logbook_signature BEGIN SELECT '
            "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
            "(UPDATE on logbook_signature)'); END;",
            'DROP TRIGGER IF EXISTS logbook_signature_no_delete;',
            'CREATE TRIGGER logbook_signature_no_delete BEFORE DELETE ON logbook_signature BEGIN SELECT '
            "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
            "(DELETE on logbook_signature)'); END;"]}

BACKWARDS = {'postgresql': ['DROP TRIGGER IF EXISTS logbook_entry_append_only ON logbook_entry;',
                'DROP TRIGGER IF EXISTS logbook_entry_no_truncate ON logbook_entry;',
                'DROP TRIGGER IF EXISTS logbook_signature_append_only ON logbook_signature;',
                'DROP TRIGGER IF EXISTS logbook_signature_no_truncate ON logbook_signature;'],
 'sqlite': ['DROP TRIGGER IF EXISTS logbook_entry_no_update;',
            'DROP TRIGGER IF EXISTS logbook_entry_no_delete;',
            'DROP TRIGGER IF EXISTS logbook_signature_no_update;',
            'DROP TRIGGER IF EXISTS logbook_signature_no_delete;']}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("logbook", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
