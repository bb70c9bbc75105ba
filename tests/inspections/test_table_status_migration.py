"""The move of a table's logbook state from the casinos' table to the logbook's TableStatus
(logbook 0013, 0014; casinos 0008): every value arrives, and unapplied, goes back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("casinos", "0007_label_sheets"), ("logbook", "0012_entry_photo_append_only")]
AFTER = [("casinos", "0008_table_status_is_the_logbooks"), ("logbook", "0014_table_status_copied")]
NOON = datetime(2026, 11, 26, 12, tzinfo=UTC)
STATE = {
    "state": "open",
    "inspection_void_reason": "adjustment",
    "last_entry_at": NOON,
    "last_inspection_at": NOON - timedelta(hours=3),
    "last_adjustment_at": NOON - timedelta(hours=1),
    "last_replacement_at": None,
    "last_opened_at": NOON - timedelta(hours=2),
    "last_closed_at": NOON - timedelta(days=1),
    "last_deck_change_at": None,
    "next_due": NOON + timedelta(hours=21),
    "uninspected_since": None,
    "adjusted_since": NOON - timedelta(hours=1),
    "replaced_since": None,
    "cover_due_at": None,
    "inspection_due_at": NOON + timedelta(hours=21),
    "decks_due_at": None,
    "approval_due_at": NOON + timedelta(days=2),
}


def migrated(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def test_each_tables_state_moves_to_its_status_and_back(committed_db):
    apps = migrated(BEFORE)
    Property = apps.get_model("casinos", "Property")
    GamingTable = apps.get_model("casinos", "GamingTable")
    prop = Property.objects.create(name="Keystone", licence_number="PA-MIG-1", jurisdiction="PA")
    moved = GamingTable.objects.create(property=prop, number="R-01", **STATE)
    new = GamingTable.objects.create(property=prop, number="R-02")  # closed, nothing due
    try:
        apps = migrated(AFTER)
        TableStatus = apps.get_model("logbook", "TableStatus")
        assert TableStatus.objects.filter(pk=moved.pk).values(*STATE).get() == STATE
        assert TableStatus.objects.get(pk=new.pk).state == "closed"
        columns = {
            c.name for c in connection.introspection.get_table_description(connection.cursor(), "casinos_gamingtable")
        }
        assert not columns & set(STATE)

        apps = migrated(BEFORE)
        GamingTable = apps.get_model("casinos", "GamingTable")
        assert GamingTable.objects.filter(pk=moved.pk).values(*STATE).get() == STATE
    finally:
        migrated(MigrationExecutor(connection).loader.graph.leaf_nodes())
