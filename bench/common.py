"""What every benchmark of `make bench` shares: the databases, the one-run-at-a-time lock, timing,
the knobs (and BENCH_QUICK's smaller defaults), and the goals' results for bench/summary.py.

Nothing here imports Django at module level: a runner sets DATABASE_URL and DJANGO_SETTINGS_MODULE
first, then sets Django up.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "bench" / "results"
GOALS = RESULTS / "goals"  # one file per benchmark script: the goals it measured
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/"

# BENCH_QUICK=1: every benchmark with smaller data and fewer rounds (a first look in under 15 minutes).
QUICK = os.getenv("BENCH_QUICK") == "1"


def log(message: str = "") -> None:
    print(message, flush=True)


def env_number(name: str, default: str, kind: Callable[[str], Any] = int, *, quick: str | None = None):
    """A positive number from the environment; `quick` is the default under BENCH_QUICK=1."""
    value = os.getenv(name) or (quick if QUICK and quick is not None else default)
    try:
        number = kind(value)
    except ValueError:
        raise SystemExit(f"{name} must be a number, not {value!r}") from None
    if number <= 0:
        raise SystemExit(f"{name} must be positive, not {value!r}")
    return number


# --- the databases ----------------------------------------------------------------------------


def database_url(name: str) -> str:
    """DATABASE_URL's server (default: the local one) with the benchmark's own database `name`: each
    benchmark has its own, and never creates, seeds or drops any other."""
    assert "bench" in name, name
    parts = urlsplit(os.getenv("DATABASE_URL") or DEFAULT_SERVER)
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        raise SystemExit(f"The benchmarks run on PostgreSQL; DATABASE_URL is a {parts.scheme!r} URL.")
    return urlunsplit(parts._replace(path=f"/{name}", query=""))


def database_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def server(url: str):
    """An autocommit connection to the server's maintenance database."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    params = {
        "host": config.get("HOST") or None,
        "port": config.get("PORT") or None,
        "user": config.get("USER") or None,
        "password": config.get("PASSWORD") or None,
    }
    return psycopg.connect(dbname="postgres", autocommit=True, **{k: v for k, v in params.items() if v})


# One key for every benchmark: two at once would share the two cores (and could drop each other's database).
LOCK_KEY = zlib.crc32(b"logbook bench run")


def run_lock(url: str):
    """The server-wide advisory lock of a benchmark run, on a connection kept open for the run
    (the lock goes with it, so a killed run leaves none behind); None when another run holds it."""
    conn = server(url)
    if conn.execute("SELECT pg_try_advisory_lock(%s)", [LOCK_KEY]).fetchone()[0]:
        return conn
    conn.close()
    return None


def database_ensure(url: str, name: str | None = None, *, fresh: bool = False) -> str:
    """Create the database if missing (dropped first when `fresh`: only ever a bench database);
    the server's version."""
    from psycopg import sql

    name = name or database_name(url)
    assert "bench" in name, name
    with server(url) as conn:
        if fresh:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return conn.execute("SHOW server_version").fetchone()[0]


def run_lock_or_say(url: str):
    """run_lock, saying so when another run holds it (the caller then exits with status 2, as every
    runner does)."""
    lock = run_lock(url)
    if lock is None:
        log("Another benchmark run holds the lock on this server: wait for it to finish.")
    return lock


def database_migrated(url: str, *, fresh: bool = False) -> str:
    """DATABASE_URL's database created if missing (afresh when `fresh`), Django set up (with the
    DJANGO_SETTINGS_MODULE the runner set) and the project's migrations applied; the server's version."""
    version = database_ensure(url, fresh=fresh)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return version


def database_switch(url: str, name: str, *, fresh: bool = False) -> None:
    """Django's default connection moved to the server's database `name` (Django already set up),
    created if missing (afresh when `fresh`) and migrated."""
    from django.core.management import call_command
    from django.db import connection

    connection.close()  # before a drop: the database must have no connection of ours
    database_ensure(url, name, fresh=fresh)
    use_database(name)
    call_command("migrate", verbosity=0)


def in_process(name: str, settings: str = "bench.settings"):
    """The set-up of a benchmark that runs Django in its own process (through the test client): its
    own database `name` on DATABASE_URL's server, created afresh and migrated with `settings`, the
    run lock taken first. Returns the lock (keep it open for the run, close it at the end), or None
    when another run holds it: the caller exits with status 2, as every runner does."""
    url = database_url(name)
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = settings
    lock = run_lock_or_say(url)
    if lock is None:
        return None
    database_migrated(url, fresh=True)
    return lock


def client(*, user=None, token: str | None = None):
    """Django's test client through the whole request stack (middleware, authentication, throttles):
    signed in as `user` (a session), or sending the API `token` with every request."""
    from django.test import Client

    browser = Client(headers={"Authorization": f"Token {token}"} if token else None)
    if user is not None:
        browser.force_login(user)
    return browser


def use_database(name: str) -> None:
    """Point Django's default connection at another database of the same server (as the test runner does)."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = name


# --- timing -----------------------------------------------------------------------------------


def timed(function: Callable, *args, **kwargs) -> tuple[Any, float]:
    """The function's result and its wall time in milliseconds."""
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return result, (time.perf_counter() - started) * 1000


def counted(function: Callable, *args, **kwargs) -> tuple[Any, list[str]]:
    """The function's result and the SQL of every query it sent on the default connection."""
    from django.db import connection

    statements: list[str] = []

    def record(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        result = function(*args, **kwargs)
    return result, statements


def alternated(sides: dict[str, Callable[[], Any]], *, rounds: int, repeats: int) -> dict[str, list[float]]:
    """Each side's `repeats` calls per round, timed in ms, rounds alternating which side goes first
    (A B, B A, …) so that a slow patch of the shared machine falls on all of them."""
    times: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for index in range(rounds):
        for name in names if index % 2 == 0 else reversed(names):
            for _ in range(repeats):
                times[name].append(timed(sides[name])[1])
    return times


def median(values: list[float]) -> float:
    return statistics.median(values)


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes) and its CPUs."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


# --- the goals --------------------------------------------------------------------------------


def goal(
    name: str,
    *,
    figure: float | None,
    baseline: float | None,
    target: float,
    higher_is_better: bool = False,
    unit: str = "",
    note: str = "",
    **extra: Any,
) -> dict:
    """One goal's result as summary.json lists it: the ratio is figure / baseline, met when it is
    at most the target (at least, when higher is better)."""
    ratio = figure / baseline if figure is not None and baseline else None
    met = ratio is not None and (ratio >= target if higher_is_better else ratio <= target)
    entry: dict[str, Any] = {
        "goal": name,
        "figure": _round(figure),
        "baseline": _round(baseline),
        "ratio": _round(ratio),
        "target": target,
        "met": met,
    }
    if unit:
        entry["unit"] = unit
    if higher_is_better:
        entry["higher_is_better"] = True
    entry.update(extra)
    if note:
        entry["note"] = note
    return entry


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def goals_write(script: str, goals: list[dict]) -> None:
    """The goals a benchmark script measured, for bench/summary.py (bench/results/ is git-ignored)."""
    GOALS.mkdir(parents=True, exist_ok=True)
    document = {"script": script, "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "quick": QUICK, "load": load()}
    (GOALS / f"{script}.json").write_text(json.dumps({**document, "goals": goals}, indent=2) + "\n")
