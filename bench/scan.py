"""Goal 6: the overdue scan's first pass over many tables ÷ a bare INSERT … SELECT writing the same
flag rows into the same table (its foreign keys, unique constraint and indexes), in alternated
rounds; and the scan again with PostgreSQL's JIT off, to show what the JIT costs it."""

from datetime import timedelta

from common import django_on, load, median, record, size, timed

TABLES = size(100_000, 10_000, "tables")
PROPERTIES = 100
ROUNDS = size(5, 5, "rounds")


def seed() -> None:
    """PROPERTIES properties (Pennsylvania, New Jersey and Section 4 in turn), TABLES tables (each
    game in turn), one in a hundred past a deadline (each kind in turn): the flags' citations differ
    by kind, jurisdiction and game, as the scan must write them."""
    from django.utils import timezone

    from compliance.casinos.models import Game, GamingTable, Jurisdiction, Property, WheelType
    from compliance.rulebook.flags import DEADLINE_COLUMNS
    from inspections.logbook.models import TableStatus

    now = timezone.now()
    props = Property.objects.bulk_create(
        Property(
            name=f"Scan {n:03d}",
            licence_number=f"{jurisdiction}-SCAN-{n:03d}",
            jurisdiction=jurisdiction,
            time_zone="America/New_York",
        )
        for n, jurisdiction in ((n, Jurisdiction.values[n % len(Jurisdiction.values)]) for n in range(PROPERTIES))
    )
    tables, deadlines = [], []
    for n in range(TABLES):
        late = n % 100 == 0
        column = DEADLINE_COLUMNS[(n // 100) % len(DEADLINE_COLUMNS)]
        due = now - timedelta(minutes=5 + n % 600) if late else now + timedelta(hours=1 + n % 48)
        tables.append(
            GamingTable(
                # The late tables (n = 100 m) too: at property m % 100 (its jurisdiction m % 3), of game
                # (m // 3) % 3, past deadline m % 7: every pair of jurisdiction and game, every kind.
                property=props[(n + n // 100) % PROPERTIES],
                number=f"S-{n:06d}",
                game=Game.values[(n // 300) % len(Game.values)],
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


def bare(now, *, one_citation: bool = False) -> int:
    """A competent bare job: one INSERT … SELECT … UNION ALL over the deadline columns of the real
    tables, into the real flags table, ON CONFLICT DO NOTHING; no lock. It writes the scan's rows:
    each flag cites what the rulebook says for its kind, its property's jurisdiction and its table's
    game, a CASE over the jurisdictions (and the games, where the jurisdiction cites them apart): a
    CASE over all nine pairs took 1.1 × as long at 10,000 tables, a join to a VALUES list of them
    1.2 × (inline) to 25 × (a CTE). `one_citation`: the baseline before 27 November, one
    citation for every flag and no property read, fewer columns than the scan must write."""
    from django.db import connection

    from compliance.casinos.models import Game
    from compliance.rulebook import LOGBOOK_PROCEDURE
    from compliance.rulebook.flags import DEADLINE_OF

    selects, params = [], []
    for kind, column in DEADLINE_OF.items():
        if one_citation:
            citation, cited, join = "'58 Pa. Code'", [], ""
        else:
            whens, cited = [], []
            for jurisdiction, module in LOGBOOK_PROCEDURE.items():
                by_game = {game: module.FLAG_KINDS_BY_CODE[kind].citation_for(game) for game in Game.values}
                if len(set(by_game.values())) == 1:  # one citation for every game of the jurisdiction
                    whens.append("WHEN p.jurisdiction = %s THEN %s")
                    cited += [jurisdiction, by_game[Game.ROULETTE]]
                    continue
                for game, game_citation in by_game.items():
                    whens.append("WHEN p.jurisdiction = %s AND t.game = %s THEN %s")
                    cited += [jurisdiction, game, game_citation]
            citation = f"CASE {' '.join(whens)} END"
            join = " JOIN casinos_property p ON p.id = t.property_id"
        selects.append(
            f"SELECT t.property_id, s.table_id, '{kind}', {citation}, s.{column}, %s, 'open' "
            f"FROM logbook_tablestatus s JOIN casinos_gamingtable t ON t.id = s.table_id{join} WHERE s.{column} <= %s"
        )
        params += [*cited, now, now]
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO flags_complianceexception (property_id, table_id, kind, citation, due_at, detected_at, "
            f"status) {' UNION ALL '.join(selects)} ON CONFLICT DO NOTHING",
            params,
        )
        return cursor.rowcount


def flag_rows() -> set[tuple]:
    """The flags written, as the scan and the bare job must both write them (all but the id)."""
    from inspections.flags.models import ComplianceException

    return set(
        ComplianceException.objects.values_list(
            "property_id", "table_id", "kind", "citation", "due_at", "detected_at", "status"
        )
    )


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
    loads = [load()]
    runs = {
        "scan": lambda: scan(now=now),
        "bare": lambda: bare(now),
        "scan, JIT off": lambda: scan(now=now),
        "bare, one citation": lambda: bare(now, one_citation=True),
    }
    sides: dict[str, list[float]] = {side: [] for side in runs}
    rows: dict[str, set[tuple]] = {}
    expected = TABLES // 100
    for _ in range(ROUNDS):
        for side, run in runs.items():
            jit(side != "scan, JIT off")
            vacuum()
            sides[side].append(timed(run))
            written = flag_rows()
            assert len(written) == expected, (side, len(written))
            rows.setdefault(side, written)
    # The baseline does the scan's work, no more and no less: the same flag rows.
    assert rows["bare"] == rows["scan"] == rows["scan, JIT off"], "the bare job wrote other flags than the scan"
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
        note=(
            f"with JIT off the scan took {ms['scan, JIT off']:.1f} ms; the bare job with one citation for "
            f"every flag and no property read {ms['bare, one citation']:.1f} ms "
            f"(ratio {ms['scan'] / ms['bare, one citation']:.2f})"
        ),
    )


if __name__ == "__main__":
    main()
