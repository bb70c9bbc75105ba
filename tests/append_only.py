"""Every append-only or frozen table of the project, for tests that must drop and put back the
triggers (a transactional test's flush deletes every row)."""

from compliance import append_only
from compliance.models import APPEND_ONLY_TABLES as COMPLIANCE_TABLES
from inspections.models import APPEND_ONLY_TABLES as LOGBOOK_TABLES

ALL_TABLES = (*LOGBOOK_TABLES, *COMPLIANCE_TABLES)


def drop(connection) -> None:
    append_only.drop(connection, ALL_TABLES)
    with connection.cursor() as cursor:
        for sql in append_only.frozen_drop_statements(connection.vendor):
            cursor.execute(sql)


def install(connection) -> None:
    append_only.install(connection, ALL_TABLES)
    with connection.cursor() as cursor:
        for sql in append_only.frozen_statements(connection.vendor):
            cursor.execute(sql)
