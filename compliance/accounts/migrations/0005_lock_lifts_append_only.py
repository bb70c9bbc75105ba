"""The record of locks lifted on the floor is append-only (config/append_only.py wrote these
statements; they are written out here so that this migration never changes with the code)."""

from django.db import migrations

FORWARDS = {'postgresql': ['\n'
                'CREATE OR REPLACE FUNCTION logbook_refuse_change() RETURNS trigger AS $$\n'
                'BEGIN\n'
                "    RAISE EXCEPTION 'signed records are append-only: correct a mistake with a new, signed "
                "record (% on %)', TG_OP, TG_TABLE_NAME\n"
                "        USING ERRCODE = 'insufficient_privilege';\n"
                'END;\n'
                '$$ LANGUAGE plpgsql;\n',
                'DROP TRIGGER IF EXISTS accounts_locklift_append_only ON accounts_locklift;',
                'CREATE TRIGGER accounts_locklift_append_only BEFORE UPDATE OR DELETE ON accounts_locklift '
                'FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS accounts_locklift_no_truncate ON accounts_locklift;',
                'CREATE TRIGGER accounts_locklift_no_truncate BEFORE TRUNCATE ON accounts_locklift FOR EACH '
                'STATEMENT EXECUTE FUNCTION logbook_refuse_change();'],
 'sqlite': ['DROP TRIGGER IF EXISTS accounts_locklift_no_update;',
            'CREATE TRIGGER accounts_locklift_no_update BEFORE UPDATE ON accounts_locklift BEGIN SELECT '
            "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
            "(UPDATE on accounts_locklift)'); END;",
            'DROP TRIGGER IF EXISTS accounts_locklift_no_delete;',
            'CREATE TRIGGER accounts_locklift_no_delete BEFORE DELETE ON accounts_locklift BEGIN SELECT '
            "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
            "(DELETE on accounts_locklift)'); END;"]}

BACKWARDS = {'postgresql': ['DROP TRIGGER IF EXISTS accounts_locklift_append_only ON accounts_locklift;',
                'DROP TRIGGER IF EXISTS accounts_locklift_no_truncate ON accounts_locklift;'],
 'sqlite': ['DROP TRIGGER IF EXISTS accounts_locklift_no_update;',
            'DROP TRIGGER IF EXISTS accounts_locklift_no_delete;']}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def remove(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_signature_count_and_lock_lifts")]

    operations = [migrations.RunPython(install, remove)]
