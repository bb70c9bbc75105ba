"""Every append-only table of the project, for tests that must drop and put back the triggers."""

from compliance import append_only
from compliance.models import APPEND_ONLY_TABLES as COMPLIANCE_TABLES
from inspections.models import APPEND_ONLY_TABLES as LOGBOOK_TABLES

ALL_TABLES = (*LOGBOOK_TABLES, *COMPLIANCE_TABLES)


def drop(connection) -> None:
    append_only.drop(connection, ALL_TABLES)


def install(connection) -> None:
    append_only.install(connection, ALL_TABLES)
