"""`make bench-table-page`: a table's page in the browser as its history grows (issue: the browser).

For 100, 1,000 and 10,000 entries on one table (PostgreSQL, a fresh bench_table_page database for
each size, the same seeding as bench/run.py), the server time of GET /tables/<id>/ (its first page
and its last, oldest page) through Django's full request stack in-process, and its query count.
The figure that matters is the ratio between sizes: it should stay near 1 (flat).

    .venv/bin/python bench/table_page.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import QUICK, database_url, env_number  # noqa: E402

SIZES = (100, 1_000) if QUICK else (100, 1_000, 10_000)
REPEATS = env_number("BENCH_REPEATS", "40", quick="15")


def main() -> int:
    url = database_url("bench_table_page")
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    import django

    from bench.common import database_ensure

    django.setup()
    from django.core.management import call_command
    from django.db import connection, connections
    from django.test import Client

    from bench.seed import seed
    from inspections.logbook.models import Entry

    rows = []
    for size in SIZES:
        connections.close_all()
        database_ensure(url, fresh=True)
        call_command("migrate", verbosity=0)
        seeded = seed(entries=size, tables=1, log=lambda message: None)
        table = seeded.hot_table
        client = Client()
        client.force_login(seeded.floorperson)
        oldest = Entry.objects.filter(table=table).order_by("seq").values_list("seq", flat=True)[25]
        for label, path in (
            ("first page", f"/tables/{table.pk}/"),
            ("last page", f"/tables/{table.pk}/?before={oldest}"),
        ):
            assert client.get(path).status_code == 200
            queries = []

            def count(execute, sql, params, many, context, queries=queries):
                started = time.perf_counter()
                try:
                    return execute(sql, params, many, context)
                finally:
                    queries.append(((time.perf_counter() - started) * 1000, sql[:90]))

            with connection.execute_wrapper(count):
                client.get(path)
            if os.getenv("BENCH_SHOW_QUERIES"):
                for ms, sql in queries:
                    print(f"      {ms:6.2f} ms  {sql}")
            timings = []
            for _ in range(REPEATS):
                started = time.perf_counter()
                client.get(path)
                timings.append((time.perf_counter() - started) * 1000)
            rows.append(
                (size, label, statistics.median(timings), sorted(timings)[int(0.9 * len(timings))], len(queries))
            )
            print(
                f"{size:>7,} entries  {label:<10}  median {rows[-1][2]:6.1f} ms  p90 {rows[-1][3]:6.1f} ms  {len(queries)} queries",
                flush=True,
            )
    connections.close_all()
    base = {label: median for size, label, median, _, _ in rows if size == SIZES[0]}
    print("\nRatio of the median to the 100-entry table's (flat = 1.0):")
    for size, label, median, _, queries in rows:
        print(f"{size:>7,} entries  {label:<10}  x{median / base[label]:.2f}  ({queries} queries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
