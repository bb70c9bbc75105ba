"""A Rules Submission's configurations (compliance.rulebook.configurations) are part of its content:
the trigger that freezes a filed submission (0002) is re-created to refuse a change of them too. On
SQLite, adding the column may rebuild the table (dropping its triggers); this puts them back.

The statements are written out here, per database, so that this migration never changes with the
code: config/append_only.py is where they were written (frozen_once_filed_statements); backwards puts
back 0002's.
"""

from django.db import migrations, models

FORWARDS = {'postgresql': ['\n'
                'CREATE OR REPLACE FUNCTION logbook_refuse_change() RETURNS trigger AS $$\n'
                'BEGIN\n'
                "    RAISE EXCEPTION 'signed records are append-only: correct a mistake with a new, signed "
                "record (% on %)', TG_OP, TG_TABLE_NAME\n"
                "        USING ERRCODE = 'insufficient_privilege';\n"
                'END;\n'
                '$$ LANGUAGE plpgsql;\n',
                'DROP TRIGGER IF EXISTS approvals_rulessubmission_frozen ON approvals_rulessubmission;',
                'CREATE TRIGGER approvals_rulessubmission_frozen BEFORE UPDATE ON approvals_rulessubmission '
                "FOR EACH ROW WHEN ((OLD.status <> 'draft' AND (OLD.effective_from IS DISTINCT FROM "
                'NEW.effective_from OR OLD.wheel_types IS DISTINCT FROM NEW.wheel_types OR OLD.payout_odds '
                'IS DISTINCT FROM NEW.payout_odds OR OLD.options IS DISTINCT FROM NEW.options OR '
                'OLD.configurations IS DISTINCT FROM NEW.configurations OR OLD.content_hash IS DISTINCT FROM '
                'NEW.content_hash OR OLD.property_id IS DISTINCT FROM NEW.property_id OR OLD.game IS '
                'DISTINCT FROM NEW.game OR OLD.version IS DISTINCT FROM NEW.version)) OR OLD.status IN '
                "('approved', 'rejected')) EXECUTE FUNCTION logbook_refuse_change();",
                'DROP TRIGGER IF EXISTS approvals_rulessubmission_kept ON approvals_rulessubmission;',
                'CREATE TRIGGER approvals_rulessubmission_kept BEFORE DELETE ON approvals_rulessubmission '
                "FOR EACH ROW WHEN (OLD.status <> 'draft') EXECUTE FUNCTION logbook_refuse_change();"],
 'sqlite': ['DROP TRIGGER IF EXISTS approvals_rulessubmission_frozen;',
            'CREATE TRIGGER approvals_rulessubmission_frozen BEFORE UPDATE ON approvals_rulessubmission WHEN '
            "(OLD.status <> 'draft' AND (OLD.effective_from IS NOT NEW.effective_from OR OLD.wheel_types IS "
            'NOT NEW.wheel_types OR OLD.payout_odds IS NOT NEW.payout_odds OR OLD.options IS NOT NEW.options '
            'OR OLD.configurations IS NOT NEW.configurations OR OLD.content_hash IS NOT NEW.content_hash OR '
            'OLD.property_id IS NOT NEW.property_id OR OLD.game IS NOT NEW.game OR OLD.version IS NOT '
            "NEW.version)) OR OLD.status IN ('approved', 'rejected') BEGIN SELECT RAISE(ABORT, 'signed "
            'records are append-only: correct a mistake with a new, signed record (UPDATE on '
            "approvals_rulessubmission)'); END;",
            'DROP TRIGGER IF EXISTS approvals_rulessubmission_kept;',
            'CREATE TRIGGER approvals_rulessubmission_kept BEFORE DELETE ON approvals_rulessubmission WHEN '
            "OLD.status <> 'draft' BEGIN SELECT RAISE(ABORT, 'signed records are append-only: correct a "
            "mistake with a new, signed record (DELETE on approvals_rulessubmission)'); END;"]}

BACKWARDS = {'postgresql': ['\n'
                'CREATE OR REPLACE FUNCTION logbook_refuse_change() RETURNS trigger AS $$\n'
                'BEGIN\n'
                "    RAISE EXCEPTION 'signed records are append-only: correct a mistake with a new, signed "
                "record (% on %)', TG_OP, TG_TABLE_NAME\n"
                "        USING ERRCODE = 'insufficient_privilege';\n"
                'END;\n'
                '$$ LANGUAGE plpgsql;\n',
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
                "FOR EACH ROW WHEN (OLD.status <> 'draft') EXECUTE FUNCTION logbook_refuse_change();"],
 'sqlite': ['DROP TRIGGER IF EXISTS approvals_rulessubmission_frozen;',
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
            "mistake with a new, signed record (DELETE on approvals_rulessubmission)'); END;"]}


def install(apps, schema_editor):
    for sql in FORWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


def restore(apps, schema_editor):
    for sql in BACKWARDS[schema_editor.connection.vendor]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("approvals", "0004_layout_artwork_frozen"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulessubmission",
            name="configurations",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(install, restore),
    ]
