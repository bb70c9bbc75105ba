"""Tampering: direct SQL on any append-only table is refused by the database's triggers."""

import pytest
from django.db import DatabaseError, connection, transaction

from compliance.approvals.models import APPEND_ONLY_TABLES as APPROVAL_TABLES
from inspections.logbook.models import APPEND_ONLY_TABLES as LOGBOOK_TABLES
from inspections.reports.models import Report, ReportDownload


@pytest.fixture
def one_row_each(casino):
    from compliance.approvals import services as approvals
    from inspections.logbook import services as logbook
    from tests.factories import RegulatorFactory, layout_submitted
    from tests.photos import image_bytes, upload
    from tests.support.logbook import ALL_PASS, inspect
    from tests.support.people import sign

    inspect(casino)
    who = casino.floorperson  # an entry with a photo: logbook_entryphoto has a row
    logbook.inspection_record(
        table_id=casino.table.pk, items=ALL_PASS, signature=sign(who), recorded_by=who, photos=[upload(image_bytes())]
    )
    logbook.checkpoint_sign(property_id=casino.property.pk)
    layout = layout_submitted(casino, name="Signed layout")
    regulator = RegulatorFactory()
    approvals.layout_decide(layout_id=layout.pk, decision="approved", reference="PGCB-T", signature=sign(regulator))
    report = Report.objects.create(
        property=casino.property,
        kind="inspection_register",
        period_from="2026-11-01",
        period_to="2026-11-02",
        requested_by=casino.compliance,
    )
    ReportDownload.objects.create(report=report, downloaded_by=casino.compliance, sha256="0" * 64)
    return casino


@pytest.mark.parametrize("table", [*LOGBOOK_TABLES, *APPROVAL_TABLES])
@pytest.mark.parametrize("statement", ["UPDATE {table} SET id = id", "DELETE FROM {table}"])
def test_direct_sql_on_an_append_only_table_is_refused(one_row_each, table, statement):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {table}")
        rows = cursor.fetchone()[0]
        assert rows > 0  # a statement that touches no row would fire no trigger
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            cursor.execute(statement.format(table=table))
        cursor.execute(f"SELECT COUNT(*) FROM {table}")
        assert cursor.fetchone()[0] == rows
