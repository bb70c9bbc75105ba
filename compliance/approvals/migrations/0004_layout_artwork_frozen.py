"""The layout's artwork (0003) is part of its content: the trigger that freezes a submitted layout
(0002) is re-created to refuse a change of the artwork's file, kind and SHA-256 too. On SQLite, 0003
rebuilt the table (dropping its triggers); this puts them back.

The statements are written out here, per database, so that this migration never changes with the
code: config/append_only.py is where they were written (layout_frozen_statements); backwards puts
back 0002's.
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
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen ON approvals_layoutsubmission;',
                'CREATE TRIGGER approvals_layoutsubmission_frozen BEFORE UPDATE ON '
                'approvals_layoutsubmission FOR EACH ROW WHEN ((OLD.name IS DISTINCT FROM NEW.name OR '
                'OLD.features IS DISTINCT FROM NEW.features OR OLD.artwork IS DISTINCT FROM NEW.artwork OR '
                'OLD.artwork_kind IS DISTINCT FROM NEW.artwork_kind OR OLD.artwork_sha256 IS DISTINCT FROM '
                'NEW.artwork_sha256 OR OLD.content_hash IS DISTINCT FROM NEW.content_hash OR OLD.property_id '
                'IS DISTINCT FROM NEW.property_id OR OLD.game IS DISTINCT FROM NEW.game OR OLD.created_by_id '
                'IS DISTINCT FROM NEW.created_by_id OR OLD.created_at IS DISTINCT FROM NEW.created_at) OR '
                "OLD.status <> 'pending') EXECUTE FUNCTION logbook_refuse_change();",
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_kept ON approvals_layoutsubmission;',
                'CREATE TRIGGER approvals_layoutsubmission_kept BEFORE DELETE ON approvals_layoutsubmission '
                'FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();'],
 'sqlite': ['DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen;',
            'CREATE TRIGGER approvals_layoutsubmission_frozen BEFORE UPDATE ON approvals_layoutsubmission '
            'WHEN (OLD.name IS NOT NEW.name OR OLD.features IS NOT NEW.features OR OLD.artwork IS NOT '
            'NEW.artwork OR OLD.artwork_kind IS NOT NEW.artwork_kind OR OLD.artwork_sha256 IS NOT '
            'NEW.artwork_sha256 OR OLD.content_hash IS NOT NEW.content_hash OR OLD.property_id IS NOT '
            'NEW.property_id OR OLD.game IS NOT NEW.game OR OLD.created_by_id IS NOT NEW.created_by_id OR '
            "OLD.created_at IS NOT NEW.created_at) OR OLD.status <> 'pending' BEGIN SELECT RAISE(ABORT, "
            "'signed records are append-only: correct a mistake with a new, signed record (UPDATE on "
            "approvals_layoutsubmission)'); END;",
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_kept;',
            'CREATE TRIGGER approvals_layoutsubmission_kept BEFORE DELETE ON approvals_layoutsubmission '
            "BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed "
            "record (DELETE on approvals_layoutsubmission)'); END;"]}

BACKWARDS = {'postgresql': ['DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen ON approvals_layoutsubmission;',
                'CREATE TRIGGER approvals_layoutsubmission_frozen BEFORE UPDATE ON '
                'approvals_layoutsubmission FOR EACH ROW WHEN ((OLD.name IS DISTINCT FROM NEW.name OR '
                'OLD.features IS DISTINCT FROM NEW.features OR OLD.content_hash IS DISTINCT FROM '
                'NEW.content_hash OR OLD.property_id IS DISTINCT FROM NEW.property_id OR OLD.game IS '
                'DISTINCT FROM NEW.game OR OLD.created_by_id IS DISTINCT FROM NEW.created_by_id OR '
                "OLD.created_at IS DISTINCT FROM NEW.created_at) OR OLD.status <> 'pending') EXECUTE "
                'FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_kept ON approvals_layoutsubmission;',
                'CREATE TRIGGER approvals_layoutsubmission_kept BEFORE DELETE ON approvals_layoutsubmission '
                'FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();'],
 'sqlite': ['DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen;',
            'CREATE TRIGGER approvals_layoutsubmission_frozen BEFORE UPDATE ON approvals_layoutsubmission '
            'WHEN (OLD.name IS NOT NEW.name OR OLD.features IS NOT NEW.features OR OLD.content_hash IS NOT '
            'NEW.content_hash OR OLD.property_id IS NOT NEW.property_id OR OLD.game IS NOT NEW.game OR '
            'OLD.created_by_id IS NOT NEW.created_by_id OR OLD.created_at IS NOT NEW.created_at) OR '
            "OLD.status <> 'pending' BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct a "
            "mistake with a new, signed record (UPDATE on approvals_layoutsubmission)'); END;",
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_kept;',
            'CREATE TRIGGER approvals_layoutsubmission_kept BEFORE DELETE ON approvals_layoutsubmission '
            "BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct a mistake with a new, signed "
            "record (DELETE on approvals_layoutsubmission)'); END;"]}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def restore(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("approvals", "0003_layout_artwork")]

    operations = [migrations.RunPython(install, restore)]
