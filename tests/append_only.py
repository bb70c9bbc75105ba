"""Every append-only or frozen table of the project, for tests that must drop and put back the
triggers (a transactional test's flush deletes every row)."""

from django.apps import apps

from config import append_only

# Each app's models module names its own append-only tables.
ALL_TABLES = tuple(
    table for config in apps.get_app_configs() for table in getattr(config.models_module, "APPEND_ONLY_TABLES", ())
)


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
