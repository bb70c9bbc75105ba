"""Approvals' signatures and layouts' tables are append-only; a Rules Submission is frozen once filed
(its status once decided), a layout once submitted (§ 601a.2, § 617a.1(f)).

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
                'DROP TRIGGER IF EXISTS approvals_approvalsignature_append_only ON '
                'approvals_approvalsignature;',
                'CREATE TRIGGER approvals_approvalsignature_append_only BEFORE UPDATE OR DELETE ON '
                'approvals_approvalsignature FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS approvals_approvalsignature_no_truncate ON '
                'approvals_approvalsignature;',
                'CREATE TRIGGER approvals_approvalsignature_no_truncate BEFORE TRUNCATE ON '
                'approvals_approvalsignature FOR EACH STATEMENT EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_append_only ON '
                'approvals_layoutsubmission_tables;',
                'CREATE TRIGGER approvals_layoutsubmission_tables_append_only BEFORE UPDATE OR DELETE ON '
                'approvals_layoutsubmission_tables FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_no_truncate ON '
                'approvals_layoutsubmission_tables;',
                'CREATE TRIGGER approvals_layoutsubmission_tables_no_truncate BEFORE TRUNCATE ON '
                'approvals_layoutsubmission_tables FOR EACH STATEMENT EXECUTE FUNCTION '
                'logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS approvals_rulessubmission_frozen ON approvals_rulessubmission;',
                'CREATE TRIGGER approvals_rulessubmission_frozen BEFORE UPDATE ON approvals_rulessubmission '
                "FOR EACH ROW WHEN ((OLD.status <> 'draft' AND (OLD.effective_from IS DISTINCT FROM "
                'NEW.effective_from OR OLD.wheel_types IS DISTINCT FROM NEW.wheel_types OR OLD.payout_odds '
                'IS DISTINCT FROM NEW.payout_odds OR OLD.options IS DISTINCT FROM NEW.options OR '
                'OLD.content_hash IS DISTINCT FROM NEW.content_hash OR OLD.property_id IS DISTINCT FROM '
                'NEW.property_id OR OLD.game IS DISTINCT FROM NEW.game OR OLD.version IS DISTINCT FROM '
                "NEW.version)) OR OLD.status IN ('approved', 'rejected')) EXECUTE FUNCTION "
                'logbook_refuse_change();',
                'DROP TRIGGER IF EXISTS approvals_rulessubmission_kept ON approvals_rulessubmission;',
                'CREATE TRIGGER approvals_rulessubmission_kept BEFORE DELETE ON approvals_rulessubmission '
                "FOR EACH ROW WHEN (OLD.status <> 'draft') EXECUTE FUNCTION logbook_refuse_change();",
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen ON approvals_layoutsubmission;',
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
 'sqlite': ['DROP TRIGGER IF EXISTS approvals_approvalsignature_no_update;',
            'CREATE TRIGGER approvals_approvalsignature_no_update BEFORE UPDATE ON '
            "approvals_approvalsignature BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct "
            "a mistake with a new, signed record (UPDATE on approvals_approvalsignature)'); END;",
            'DROP TRIGGER IF EXISTS approvals_approvalsignature_no_delete;',
            'CREATE TRIGGER approvals_approvalsignature_no_delete BEFORE DELETE ON '
            "approvals_approvalsignature BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct "
            "a mistake with a new, signed record (DELETE on approvals_approvalsignature)'); END;",
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_no_update;',
            'CREATE TRIGGER approvals_layoutsubmission_tables_no_update BEFORE UPDATE ON '
            "approvals_layoutsubmission_tables BEGIN SELECT RAISE(ABORT, 'signed records are append-only: "
            "correct a mistake with a new, signed record (UPDATE on approvals_layoutsubmission_tables)'); "
            'END;',
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_no_delete;',
            'CREATE TRIGGER approvals_layoutsubmission_tables_no_delete BEFORE DELETE ON '
            "approvals_layoutsubmission_tables BEGIN SELECT RAISE(ABORT, 'signed records are append-only: "
            "correct a mistake with a new, signed record (DELETE on approvals_layoutsubmission_tables)'); "
            'END;',
            'DROP TRIGGER IF EXISTS approvals_rulessubmission_frozen;',
            'CREATE TRIGGER approvals_rulessubmission_frozen BEFORE UPDATE ON approvals_rulessubmission WHEN '
            "(OLD.status <> 'draft' AND (OLD.effective_from IS NOT NEW.effective_from OR OLD.wheel_types IS "
            'NOT NEW.wheel_types OR OLD.payout_odds IS NOT NEW.payout_odds OR OLD.options IS NOT NEW.options '
            'OR OLD.content_hash IS NOT NEW.content_hash OR OLD.property_id IS NOT NEW.property_id OR '
            "OLD.game IS NOT NEW.game OR OLD.version IS NOT NEW.version)) OR OLD.status IN ('approved', "
            "'rejected') BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct a mistake with a "
            "new, signed record (UPDATE on approvals_rulessubmission)'); END;",
            'DROP TRIGGER IF EXISTS approvals_rulessubmission_kept;',
            'CREATE TRIGGER approvals_rulessubmission_kept BEFORE DELETE ON approvals_rulessubmission WHEN '
            "OLD.status <> 'draft' BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct a "
            "mistake with a new, signed record (DELETE on approvals_rulessubmission)'); END;",
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen;',
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

BACKWARDS = {'postgresql': ['DROP TRIGGER IF EXISTS approvals_approvalsignature_append_only ON '
                'approvals_approvalsignature;',
                'DROP TRIGGER IF EXISTS approvals_approvalsignature_no_truncate ON '
                'approvals_approvalsignature;',
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_append_only ON '
                'approvals_layoutsubmission_tables;',
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_no_truncate ON '
                'approvals_layoutsubmission_tables;',
                'DROP TRIGGER IF EXISTS approvals_rulessubmission_frozen ON approvals_rulessubmission;',
                'DROP TRIGGER IF EXISTS approvals_rulessubmission_kept ON approvals_rulessubmission;',
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen ON approvals_layoutsubmission;',
                'DROP TRIGGER IF EXISTS approvals_layoutsubmission_kept ON approvals_layoutsubmission;'],
 'sqlite': ['DROP TRIGGER IF EXISTS approvals_approvalsignature_no_update;',
            'DROP TRIGGER IF EXISTS approvals_approvalsignature_no_delete;',
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_no_update;',
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_tables_no_delete;',
            'DROP TRIGGER IF EXISTS approvals_rulessubmission_frozen;',
            'DROP TRIGGER IF EXISTS approvals_rulessubmission_kept;',
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_frozen;',
            'DROP TRIGGER IF EXISTS approvals_layoutsubmission_kept;']}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def drop(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("approvals", "0001_initial")]

    operations = [migrations.RunPython(install, drop)]
