"""What every benchmark shares: its own PostgreSQL database, the sizes, the load, and a goal's row."""

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
QUICK = os.getenv("BENCH_QUICK") == "1"
SERVER = os.getenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres").rsplit("/", 1)[0]
sys.path.insert(0, str(ROOT))


def size(full: int, quick: int, name: str = "") -> int:
    """A size: BENCH_<NAME> if set, else the full or the quick one."""
    return int(os.getenv(f"BENCH_{name.upper()}", quick if QUICK else full)) if name else (quick if QUICK else full)


def load() -> float:
    return round(os.getloadavg()[0], 2)


def django_on(database: str, *, fresh: bool = True, settings: str = "config.settings") -> str:
    """Django set up on the database `bench_<database>` (dropped and migrated afresh unless asked
    not to), with the project's own settings: its hashers (Argon2), DEBUG off. BENCH_DB_SUFFIX, if
    set, is appended to the name: two runs of one script at once each on its own database."""
    import psycopg

    database = f"{database}{os.getenv('BENCH_DB_SUFFIX', '')}"
    url = f"{SERVER}/bench_{database}"
    os.environ.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE=settings, DEBUG="false")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-never-used-outside-bench")
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [f"bench_{database}"]).fetchone()
        if fresh and exists:
            admin.execute(f'DROP DATABASE "bench_{database}" WITH (FORCE)')
        if fresh or not exists:
            admin.execute(f'CREATE DATABASE "bench_{database}"')
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return url


def timed(function, *args, **kwargs) -> float:
    started = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - started


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def record(
    goal: str,
    *,
    figure: float,
    baseline: float | None,
    target: float,
    size: str,
    loads: tuple,
    unit: str,
    higher_is_better: bool = False,
    note: str = "",
) -> dict:
    """Write a goal's row to bench/results/goals/<goal>.json; the ratio is figure ÷ baseline (the
    figure itself when there is no baseline: a target in the unit)."""
    ratio = figure / baseline if baseline else figure
    met = ratio >= target if higher_is_better else ratio <= target
    row = {
        "goal": goal,
        "figure": round(figure, 4),
        "baseline": baseline and round(baseline, 4),
        "ratio": round(ratio, 3),
        "target": target,
        "higher_is_better": higher_is_better,
        "met": met,
        "unit": unit,
        "size": size,
        "load_before": loads[0],
        "load_after": loads[1],
        "note": note,
    }
    (RESULTS / "goals").mkdir(parents=True, exist_ok=True)
    (RESULTS / "goals" / f"{goal}.json").write_text(json.dumps(row, indent=1))
    print(
        f"{goal}: {row['figure']} {unit} ÷ {row['baseline']} = {row['ratio']} (target {target}) "
        f"{'met' if met else 'NOT MET'}; {size}; load {loads[0]} → {loads[1]}"
    )
    return row
