"""Checkpoints are append-only like the entries they sign: the database refuses UPDATE, DELETE and
TRUNCATE (statements written out, as in 0002, so this migration never changes with the code)."""

from django.db import migrations

FORWARDS = {'postgresql': ['\n'
                'CREATE OR REPLACE FUNCTION logbook_refuse_change() RETURNS trigger AS $$\n'
                'BEGIN\n'
                "    RAISE EXCEPTION 'signed records are append-only: correct a mistake with a new, signed "
                "record (% on %)', TG_OP, TG_TABLE_NAME\n"
                "        USING ERRCODE = 'insufficient_privilege';\n"
                'END;\n'
                '$$ LANGUAGE plpgsql;\n',
                'DROP TRIGGER IF EXISTS logbook_checkpoint_append_only ON logbook_checkpoint;',
                'CREATE TRIGGER logbook_checkpoint_append_only BEFORE UPDATE OR DELETE ON logbook_checkpoint '
                'FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS logbook_checkpoint_no_truncate ON logbook_checkpoint;',
                'CREATE TRIGGER logbook_checkpoint_no_truncate BEFORE TRUNCATE ON logbook_checkpoint FOR '
                'EACH STATEMENT EXECUTE FUNCTION logbook_refuse_change();'],
 'sqlite': ['DROP TRIGGER IF EXISTS logbook_checkpoint_no_update;',
            'CREATE TRIGGER logbook_checkpoint_no_update BEFORE UPDATE ON logbook_checkpoint BEGIN SELECT '
            "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
            "(UPDATE on logbook_checkpoint)'); END;",
            'DROP TRIGGER IF EXISTS logbook_checkpoint_no_delete;',
            'CREATE TRIGGER logbook_checkpoint_no_delete BEFORE DELETE ON logbook_checkpoint BEGIN SELECT '
            "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
            "(DELETE on logbook_checkpoint)'); END;"]}

BACKWARDS = {'postgresql': ['DROP TRIGGER IF EXISTS logbook_checkpoint_append_only ON logbook_checkpoint;',
                'DROP TRIGGER IF EXISTS logbook_checkpoint_no_truncate ON logbook_checkpoint;'],
 'sqlite': ['DROP TRIGGER IF EXISTS logbook_checkpoint_no_update;',
            'DROP TRIGGER IF EXISTS logbook_checkpoint_no_delete;']}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("logbook", "0003_checkpoint")]

    operations = [migrations.RunPython(install, drop)]
