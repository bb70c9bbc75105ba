"""Goal 6: the overdue scan's first pass over many tables ÷ a bare INSERT … SELECT writing the same
flag rows into the same table (its foreign keys, unique constraint and indexes), in alternated
rounds; and the scan again with PostgreSQL's JIT off, to show what the JIT costs it."""

from datetime import timedelta

from common import django_on, load, median, record, size, timed

TABLES = size(100_000, 10_000, "tables")
PROPERTIES = 100
ROUNDS = size(5, 5, "rounds")


def seed() -> None:
    """PROPERTIES properties, TABLES tables, one in a hundred past a deadline (each kind in turn)."""
    from django.utils import timezone

    from compliance.casinos.models import Game, GamingTable, Jurisdiction, Property, WheelType
    from compliance.rulebook.flags import DEADLINE_COLUMNS
    from inspections.logbook.models import TableStatus

    now = timezone.now()
    props = Property.objects.bulk_create(
        Property(
            name=f"Scan {n:03d}",
            licence_number=f"PA-SCAN-{n:03d}",
            jurisdiction=Jurisdiction.PA,
            time_zone="America/New_York",
        )
        for n in range(PROPERTIES)
    )
    tables, deadlines = [], []
    for n in range(TABLES):
        late = n % 100 == 0
        column = DEADLINE_COLUMNS[(n // 100) % len(DEADLINE_COLUMNS)]
        due = now - timedelta(minutes=5 + n % 600) if late else now + timedelta(hours=1 + n % 48)
        tables.append(
            GamingTable(
                property=props[n % PROPERTIES],
                number=f"S-{n:06d}",
                game=Game.ROULETTE,
                wheel_type=WheelType.DOUBLE_ZERO,
            )
        )
        deadlines.append({column: due})
    GamingTable.objects.bulk_create(tables, batch_size=5000)
    # Each table's logbook status holds its deadlines (bulk_create sends no post_save to make it).
    TableStatus.objects.bulk_create(
        (TableStatus(table=table, **due) for table, due in zip(tables, deadlines, strict=True)), batch_size=5000
    )
    vacuum()


def vacuum() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM flags_complianceexception")
        cursor.execute("VACUUM ANALYZE flags_complianceexception")
        # Every table the scan reads, as autovacuum would have them in production: a property table
        # never analyzed, estimated at one row, turned the raise's jurisdiction filter into a loop.
        cursor.execute("VACUUM ANALYZE casinos_property")
        cursor.execute("VACUUM ANALYZE casinos_gamingtable")
        cursor.execute("VACUUM ANALYZE logbook_tablestatus")


def bare(now) -> int:
    """A competent bare job: one INSERT … SELECT … UNION ALL over the deadline columns of the real
    tables, into the real flags table, ON CONFLICT DO NOTHING; no lock, one citation for all."""
    from django.db import connection

    from compliance.rulebook.flags import DEADLINE_OF

    selects = " UNION ALL ".join(
        f"SELECT t.property_id, s.table_id, '{kind}', '58 Pa. Code', s.{column}, %s, 'open' "
        f"FROM logbook_tablestatus s JOIN casinos_gamingtable t ON t.id = s.table_id WHERE s.{column} <= %s"
        for kind, column in DEADLINE_OF.items()
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO flags_complianceexception (property_id, table_id, kind, citation, due_at, detected_at, "
            f"status) {selects} ON CONFLICT DO NOTHING",
            [now, now] * len(DEADLINE_OF),
        )
        return cursor.rowcount


def jit(on: bool) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SET jit = {'on' if on else 'off'}")


def main() -> None:
    django_on(f"scan_{TABLES}")
    from django.utils import timezone

    from inspections.flags.services import scan

    seed()
    now = timezone.now()
    loads, sides = [load()], {"scan": [], "bare": [], "scan, JIT off": []}
    runs = {"scan": lambda: scan(now=now), "bare": lambda: bare(now), "scan, JIT off": lambda: scan(now=now)}
    expected = TABLES // 100
    for _ in range(ROUNDS):
        for side, run in runs.items():
            jit(side != "scan, JIT off")
            vacuum()
            sides[side].append(timed(run))
            from inspections.flags.models import ComplianceException

            assert ComplianceException.objects.count() == expected, (side, ComplianceException.objects.count())
    jit(True)
    loads.append(load())
    ms = {side: median(times) * 1000 for side, times in sides.items()}
    print({side: round(value, 1) for side, value in ms.items()})
    record(
        "6_overdue_scan_first_pass",
        figure=ms["scan"],
        baseline=ms["bare"],
        target=1.5,
        unit="ms",
        size=f"{TABLES:,} tables, {expected:,} flags raised, {ROUNDS} rounds",
        loads=tuple(loads),
        note=f"with JIT off the scan took {ms['scan, JIT off']:.0f} ms",
    )


if __name__ == "__main__":
    main()
