"""Each table's logbook state, copied from the casinos' table row to its own TableStatus row (the
next casinos migration removes the columns there); back again when unapplied."""

from django.db import migrations

COLUMNS = (
    "state",
    "inspection_void_reason",
    "last_entry_at",
    "last_inspection_at",
    "last_adjustment_at",
    "last_replacement_at",
    "last_opened_at",
    "last_closed_at",
    "last_deck_change_at",
    "next_due",
    "uninspected_since",
    "adjusted_since",
    "replaced_since",
    "cover_due_at",
    "inspection_due_at",
    "decks_due_at",
    "approval_due_at",
)


def status_copied(apps, schema_editor):
    GamingTable = apps.get_model("casinos", "GamingTable")
    TableStatus = apps.get_model("logbook", "TableStatus")
    rows = GamingTable.objects.order_by("pk").values("pk", *COLUMNS).iterator(chunk_size=2000)
    batch = []
    for row in rows:
        batch.append(TableStatus(table_id=row.pop("pk"), **row))
        if len(batch) == 2000:
            TableStatus.objects.bulk_create(batch)
            batch = []
    TableStatus.objects.bulk_create(batch)


def status_copied_back(apps, schema_editor):
    GamingTable = apps.get_model("casinos", "GamingTable")
    TableStatus = apps.get_model("logbook", "TableStatus")
    for row in TableStatus.objects.order_by("pk").values("table_id", *COLUMNS).iterator(chunk_size=2000):
        GamingTable.objects.filter(pk=row.pop("table_id")).update(**row)


class Migration(migrations.Migration):
    dependencies = [("logbook", "0013_table_status")]

    operations = [migrations.RunPython(status_copied, status_copied_back)]
