"""Database triggers that make tables append-only, on PostgreSQL and SQLite.

The application never updates or deletes a logbook entry or a signature; these make the database
itself refuse it, so a bug, a shell session or the admin site cannot either. Whoever can drop a
trigger can still change a row: the hash chain (inspections.logbook.chain) is what makes that visible.
Each app's migrations install the triggers of its own tables.
"""

from collections.abc import Iterable

MESSAGE = "signed records are append-only: correct a mistake with a new, signed record"

POSTGRES_FUNCTION = f"""
CREATE OR REPLACE FUNCTION logbook_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '{MESSAGE} (% on %)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def _postgres_install(table: str) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};",
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();",
        f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};",
        f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION logbook_refuse_change();",
    ]


def _sqlite_install(table: str) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {table}_no_update;",
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE} (UPDATE on {table})'); END;",
        f"DROP TRIGGER IF EXISTS {table}_no_delete;",
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE} (DELETE on {table})'); END;",
    ]


def install_statements(vendor: str, tables: Iterable[str]) -> list[str]:
    if vendor == "postgresql":
        return [POSTGRES_FUNCTION] + [sql for table in tables for sql in _postgres_install(table)]
    if vendor == "sqlite":
        return [sql for table in tables for sql in _sqlite_install(table)]
    raise NotImplementedError(f"append-only triggers are written for PostgreSQL and SQLite, not {vendor}")


def drop_statements(vendor: str, tables: Iterable[str]) -> list[str]:
    if vendor == "postgresql":
        return [
            f"DROP TRIGGER IF EXISTS {table}_{suffix} ON {table};"
            for table in tables
            for suffix in ("append_only", "no_truncate")
        ]
    return [f"DROP TRIGGER IF EXISTS {table}_{suffix};" for table in tables for suffix in ("no_update", "no_delete")]


def install(connection, tables: Iterable[str]) -> None:
    with connection.cursor() as cursor:
        for sql in install_statements(connection.vendor, tables):
            cursor.execute(sql)


def drop(connection, tables: Iterable[str]) -> None:
    with connection.cursor() as cursor:
        for sql in drop_statements(connection.vendor, tables):
            cursor.execute(sql)


def frozen_once_filed_statements(vendor: str) -> list[str]:
    """A Rules Submission's content is frozen once filed, and its status once decided (§ 601a.2)."""
    table = "approvals_rulessubmission"
    content = (
        "effective_from",
        "wheel_types",
        "payout_odds",
        "options",
        "configurations",
        "content_hash",
        "property_id",
        "game",
        "version",
    )
    if vendor == "postgresql":
        changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in content)
        return [
            POSTGRES_FUNCTION,
            f"DROP TRIGGER IF EXISTS {table}_frozen ON {table};",
            f"CREATE TRIGGER {table}_frozen BEFORE UPDATE ON {table} FOR EACH ROW "
            f"WHEN ((OLD.status <> 'draft' AND ({changed})) OR OLD.status IN ('approved', 'rejected')) "
            "EXECUTE FUNCTION logbook_refuse_change();",
            f"DROP TRIGGER IF EXISTS {table}_kept ON {table};",
            f"CREATE TRIGGER {table}_kept BEFORE DELETE ON {table} FOR EACH ROW "
            "WHEN (OLD.status <> 'draft') EXECUTE FUNCTION logbook_refuse_change();",
        ]
    changed = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in content)
    return [
        f"DROP TRIGGER IF EXISTS {table}_frozen;",
        f"CREATE TRIGGER {table}_frozen BEFORE UPDATE ON {table} "
        f"WHEN (OLD.status <> 'draft' AND ({changed})) OR OLD.status IN ('approved', 'rejected') "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE} (UPDATE on {table})'); END;",
        f"DROP TRIGGER IF EXISTS {table}_kept;",
        f"CREATE TRIGGER {table}_kept BEFORE DELETE ON {table} WHEN OLD.status <> 'draft' "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE} (DELETE on {table})'); END;",
    ]


def layout_frozen_statements(vendor: str) -> list[str]:
    """A layout is filed when submitted: its content never changes, its status only from pending once."""
    table = "approvals_layoutsubmission"
    content = (
        "name",
        "features",
        "artwork",
        "artwork_kind",
        "artwork_sha256",
        "content_hash",
        "property_id",
        "game",
        "created_by_id",
        "created_at",
    )
    if vendor == "postgresql":
        changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in content)
        return [
            POSTGRES_FUNCTION,
            f"DROP TRIGGER IF EXISTS {table}_frozen ON {table};",
            f"CREATE TRIGGER {table}_frozen BEFORE UPDATE ON {table} FOR EACH ROW "
            f"WHEN (({changed}) OR OLD.status <> 'pending') EXECUTE FUNCTION logbook_refuse_change();",
            f"DROP TRIGGER IF EXISTS {table}_kept ON {table};",
            f"CREATE TRIGGER {table}_kept BEFORE DELETE ON {table} FOR EACH ROW EXECUTE FUNCTION logbook_refuse_change();",
        ]
    changed = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in content)
    return [
        f"DROP TRIGGER IF EXISTS {table}_frozen;",
        f"CREATE TRIGGER {table}_frozen BEFORE UPDATE ON {table} WHEN ({changed}) OR OLD.status <> 'pending' "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE} (UPDATE on {table})'); END;",
        f"DROP TRIGGER IF EXISTS {table}_kept;",
        f"CREATE TRIGGER {table}_kept BEFORE DELETE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{MESSAGE} (DELETE on {table})'); END;",
    ]


# The frozen tables and the statements that freeze each.
FROZEN = {
    "approvals_rulessubmission": frozen_once_filed_statements,
    "approvals_layoutsubmission": layout_frozen_statements,
}


def frozen_statements(vendor: str) -> list[str]:
    return [sql for statements in FROZEN.values() for sql in statements(vendor)]


def frozen_drop_statements(vendor: str, tables: Iterable[str] = tuple(FROZEN)) -> list[str]:
    on = " ON {table}" if vendor == "postgresql" else ""
    return [
        f"DROP TRIGGER IF EXISTS {table}_{name}{on.format(table=table)};"
        for table in tables
        for name in ("frozen", "kept")
    ]
