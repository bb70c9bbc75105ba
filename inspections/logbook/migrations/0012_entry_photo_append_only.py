"""A photo on an entry is append-only like the entry: the database refuses UPDATE, DELETE and TRUNCATE
(statements written out, as in 0002, so this migration never changes with the code)."""

from django.db import migrations

FORWARDS = {
    "postgresql": [
        "\n"
        "CREATE OR REPLACE FUNCTION logbook_refuse_change() RETURNS trigger AS $$\n"
        "BEGIN\n"
        "    RAISE EXCEPTION 'signed records are append-only: correct a mistake with a new, signed "
        "record (% on %)', TG_OP, TG_TABLE_NAME\n"
        "        USING ERRCODE = 'insufficient_privilege';\n"
        "END;\n"
        "$$ LANGUAGE plpgsql;\n",
        "DROP TRIGGER IF EXISTS logbook_entryphoto_append_only ON logbook_entryphoto;",
        "CREATE TRIGGER logbook_entryphoto_append_only BEFORE UPDATE OR DELETE ON logbook_entryphoto "
        "FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();",
        "DROP TRIGGER IF EXISTS logbook_entryphoto_no_truncate ON logbook_entryphoto;",
        "CREATE TRIGGER logbook_entryphoto_no_truncate BEFORE TRUNCATE ON logbook_entryphoto FOR "
        "EACH STATEMENT EXECUTE FUNCTION logbook_refuse_change();",
    ],
    "sqlite": [
        "DROP TRIGGER IF EXISTS logbook_entryphoto_no_update;",
        "CREATE TRIGGER logbook_entryphoto_no_update BEFORE UPDATE ON logbook_entryphoto BEGIN SELECT "
        "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
        "(UPDATE on logbook_entryphoto)'); END;",
        "DROP TRIGGER IF EXISTS logbook_entryphoto_no_delete;",
        "CREATE TRIGGER logbook_entryphoto_no_delete BEFORE DELETE ON logbook_entryphoto BEGIN SELECT "
        "RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed record "
        "(DELETE on logbook_entryphoto)'); END;",
    ],
}

BACKWARDS = {
    "postgresql": [
        "DROP TRIGGER IF EXISTS logbook_entryphoto_append_only ON logbook_entryphoto;",
        "DROP TRIGGER IF EXISTS logbook_entryphoto_no_truncate ON logbook_entryphoto;",
    ],
    "sqlite": [
        "DROP TRIGGER IF EXISTS logbook_entryphoto_no_update;",
        "DROP TRIGGER IF EXISTS logbook_entryphoto_no_delete;",
    ],
}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("logbook", "0011_entry_photo")]

    operations = [migrations.RunPython(install, drop)]
