"""Database triggers that make the logbook tables append-only, on PostgreSQL and SQLite.

The application never updates or deletes an entry; these make the database itself refuse it, so
a bug, a shell session or the admin site cannot either. Whoever can drop a trigger can still
change a row: the hash chain (inspections.chain) is what makes that visible.
"""

from inspections.models import APPEND_ONLY_TABLES

MESSAGE = "logbook entries are append-only: correct a mistake with an amendment entry"

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


def install_statements(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [POSTGRES_FUNCTION] + [sql for table in APPEND_ONLY_TABLES for sql in _postgres_install(table)]
    if vendor == "sqlite":
        return [sql for table in APPEND_ONLY_TABLES for sql in _sqlite_install(table)]
    raise NotImplementedError(f"append-only triggers are written for PostgreSQL and SQLite, not {vendor}")


def drop_statements(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [
            f"DROP TRIGGER IF EXISTS {table}_{suffix} ON {table};"
            for table in APPEND_ONLY_TABLES
            for suffix in ("append_only", "no_truncate")
        ]
    return [
        f"DROP TRIGGER IF EXISTS {table}_{suffix};"
        for table in APPEND_ONLY_TABLES
        for suffix in ("no_update", "no_delete")
    ]


def install(connection) -> None:
    with connection.cursor() as cursor:
        for sql in install_statements(connection.vendor):
            cursor.execute(sql)


def drop(connection) -> None:
    with connection.cursor() as cursor:
        for sql in drop_statements(connection.vendor):
            cursor.execute(sql)
