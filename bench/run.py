"""`make bench`: the logbook's two busiest endpoints under gunicorn, next to a bare DRF baseline.

    .venv/bin/python bench/run.py

1. Creates a fresh PostgreSQL database (bench_logbook, or the bench_* one DATABASE_URL names),
   migrates it with bench.settings and seeds 100,000 hash-chained logbook entries and 100,000
   rows of the baseline's plain table (bench/seed.py), and verifies the chain.
2. Starts gunicorn on a free port of 127.0.0.1.
3. For each scenario, alternates short rounds of the logbook's endpoint and the baseline's, with the
   same number of closed-loop clients (bench/loadgen.py), and prints requests, errors, req/s,
   p50 and p99 of each side and the logbook/baseline throughput ratio. The goal: at least 0.5.
4. Writes the same to bench/results/latest.json, stops gunicorn, and verifies the chain again.

Environment: BENCH_SECONDS (measured seconds per side and scenario, default 30), BENCH_ROUNDS
(default 3), BENCH_CLIENTS (default 4), BENCH_WORKERS (default 3), BENCH_WARMUP (seconds, default
3), BENCH_ENTRIES (default 100000), DATABASE_URL (a PostgreSQL server; the database's name is
bench_logbook unless it names a bench_* one).
"""

from __future__ import annotations

import collections
import http.client
import json
import os
import platform
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    database_migrated,
    database_name,
    database_url,
    env_number,
    goal,
    goals_write,
    log,
    run_lock_or_say,
)
from bench.loadgen import Request, Side, run_round  # noqa: E402

DATABASE_NAME = "bench_logbook"
RESULTS = ROOT / "bench" / "results" / "latest.json"
HOST = "127.0.0.1"
GOAL = 0.5


# --- gunicorn ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn in a session of its own: Ctrl-C reaches the runner, which stops it gracefully."""

    def __init__(self, *, port: int, workers: int, env: dict[str, str], app: str = "config.wsgi:application"):
        self.port = port
        self.output: collections.deque[str] = collections.deque(maxlen=200)
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            app,
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            str(workers),
            "--worker-class",
            "sync",
            "--timeout",
            "120",
            "--graceful-timeout",
            "10",
            "--log-level",
            "warning",
        ]
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.process.stdout:
            self.output.append(line.rstrip("\n"))

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n" + "\n".join(self.output))
            try:
                connection = http.client.HTTPConnection(HOST, self.port, timeout=5)
                connection.request("GET", "/api/")
                connection.getresponse().read()
                connection.close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer within a minute:\n" + "\n".join(self.output))

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # graceful: the workers finish their request
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _terminate(signum, frame):
    raise KeyboardInterrupt


# --- the scenarios ----------------------------------------------------------------------------


def scenarios(seeded) -> list[tuple[str, Side, Side]]:
    from bench.seed import ITEMS

    headers = {"Authorization": f"Token {seeded.token}", "Accept": "application/json"}
    post_headers = {**headers, "Content-Type": "application/json"}
    floor = seeded.floorperson
    inspection = {
        "table": seeded.hot_table.pk,
        "items": ITEMS,
        "notes": "",
        "signature": {"username": floor.username, "password": seeded.password},
    }
    # As wide as an entry, and one password to check: what a signed POST costs, without the logbook.
    baseline = {
        "property": seeded.property.pk,
        "seq": 1,
        "table": seeded.hot_table.pk,
        "table_number": seeded.hot_table.number,
        "kind": "inspection",
        "occurred_at": "2026-01-01T12:00:00+00:00",
        "recorded_at": "2026-01-01T12:00:30+00:00",
        "recorded_by": floor.pk,
        "description": "Inspection passed",
        "passed": True,
        "details": {"items": ITEMS, "notes": ""},
        "amends": None,
        "prev_hash": "0" * 64,
        "entry_hash": "f" * 64,
        "password": seeded.password,
    }
    read = seeded.read_table.pk
    return [
        (
            "POST (signed)",
            Side("logbook", Request("POST", "/api/inspections/", json.dumps(inspection).encode(), post_headers)),
            Side("baseline", Request("POST", "/bench/baseline/", json.dumps(baseline).encode(), post_headers)),
        ),
        (
            "GET list",
            Side("logbook", Request("GET", f"/api/logbook/?table={read}", None, headers)),
            Side("baseline", Request("GET", f"/bench/baseline/?table={read}", None, headers)),
        ),
    ]


def measure(pairs, *, port: int, clients: int, seconds: float, rounds: int, warmup: float) -> None:
    for name, logbook, baseline in pairs:
        log(f"\n{name}: warming up {warmup:g} s per side")
        for side in (logbook, baseline):
            warm = run_round(host=HOST, port=port, request=side.request, clients=clients, seconds=warmup)
            report_errors(f"{name} {side.name} (warm-up)", side, warm)
        per_round = seconds / rounds
        for index in range(rounds):
            # A B, B A, A B...: a slow patch of the shared machine falls on both sides.
            order = (logbook, baseline) if index % 2 == 0 else (baseline, logbook)
            for side in order:
                result = run_round(host=HOST, port=port, request=side.request, clients=clients, seconds=per_round)
                side.rounds.append(result)
                report_errors(f"{name} {side.name}", side, result)
                log(f"  round {index + 1}/{rounds} {side.name:8} {result.ok / result.seconds:8.2f} req/s")


def report_errors(label: str, side: Side, result) -> None:
    if not result.errors:
        return
    log(f"  !! {label}: errors {dict(result.errors)} on {side.request.method} {side.request.path}")
    for body in result.error_bodies:
        log(f"     {body}")


def table(pairs) -> tuple[str, list[dict]]:
    rows = []
    header = f"{'scenario':14} {'side':9} {'requests':>8} {'errors':>6} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}  ratio"
    lines = [header, "-" * len(header)]
    for name, logbook, baseline in pairs:
        a, b = logbook.summary(), baseline.summary()
        ratio = a["rps"] / b["rps"] if b["rps"] else None
        round_ratios = [x.ok / y.ok if y.ok else None for x, y in zip(logbook.rounds, baseline.rounds, strict=True)]
        for side, summary in (("logbook", a), ("baseline", b)):
            ratio_text = ""
            if side == "logbook" and ratio is not None:
                ratio_text = f"{ratio:5.2f} {'ok' if ratio >= GOAL else 'BELOW GOAL'}"
            lines.append(
                f"{name:14} {side:9} {summary['requests']:8} {summary['errors']:6} {summary['rps']:8.2f} "
                f"{summary['p50_ms'] or 0:8.1f} {summary['p99_ms'] or 0:8.1f}  {ratio_text}"
            )
        rows.append(
            {
                "scenario": name,
                "logbook": a,
                "baseline": b,
                "ratio": round(ratio, 3) if ratio is not None else None,
                "ratio_by_round": [round(r, 3) if r is not None else None for r in round_ratios],
                "goal": GOAL,
                "meets_goal": ratio is not None and ratio >= GOAL,
            }
        )
    return "\n".join(lines), rows


def goals(rows: list[dict]) -> list[dict]:
    """The performance issue's goals this run measures (bench/summary.py lists them)."""
    by_name = {row["scenario"]: row for row in rows}
    post, read = by_name["POST (signed)"], by_name["GET list"]
    return [
        goal(
            "register_page",
            figure=read["logbook"]["rps"],
            baseline=read["baseline"]["rps"],
            target=1.0,
            higher_is_better=True,
            unit="req/s",
            rounds=read["ratio_by_round"],
        ),
        goal(
            "signed_post_real_hasher",
            figure=post["logbook"]["rps"],
            baseline=post["baseline"]["rps"],
            target=0.95,
            higher_is_better=True,
            unit="req/s",
            rounds=post["ratio_by_round"],
            part_of="signed_post_own_work",
            note="the benchmark itself: gunicorn, the real password hasher (Argon2) on both sides",
        ),
    ]


# --- main -------------------------------------------------------------------------------------


def main() -> int:
    seconds = env_number("BENCH_SECONDS", "30", float, quick="8")
    rounds = env_number("BENCH_ROUNDS", "3", quick="2")
    clients = env_number("BENCH_CLIENTS", "4")
    # Sync workers, 3 of them on this 2-core machine (cores + 1): the signed POST is CPU-bound
    # (Argon2, about 0.11 s of CPU a check), so more workers than that would only time-slice the same
    # two cores, while one more than the cores keeps a core busy when a worker waits for PostgreSQL or the network.
    # Sync, not threads or gevent: what the project deploys, and the hashing holds the GIL anyway.
    workers = env_number("BENCH_WORKERS", "3")
    warmup = env_number("BENCH_WARMUP", "3", float, quick="2")
    entries = env_number("BENCH_ENTRIES", "100000", quick="10000")

    url = database_url(DATABASE_NAME)
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    signal.signal(signal.SIGTERM, _terminate)
    # A shell that starts a job in the background ignores SIGINT for it; `kill -INT` should still stop a run.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    name = database_name(url)
    lock = run_lock_or_say(url)
    if lock is None:
        return 2
    log(f"Database {name}: created afresh")
    server_version = database_migrated(url, fresh=True)
    from django.db import connections

    from bench.seed import seed
    from inspections.logbook.chain import chain_verify
    from inspections.logbook.models import Entry

    log(f"Seeding {entries:,} entries (hash-chained) and {entries:,} baseline rows")
    started = time.perf_counter()
    seeded = seed(entries=entries, log=log)
    seed_seconds = time.perf_counter() - started
    log(f"  seeded in {seed_seconds:.0f} s")
    started = time.perf_counter()
    report = chain_verify(property_id=seeded.property.pk)
    log(f"Chain before: {report.as_text()} ({time.perf_counter() - started:.0f} s)")
    if not report.ok:
        return 1
    log(
        f"Inspections go to table {seeded.hot_table.number} (state {seeded.hot_table.state}); "
        f"the register is read for table {seeded.read_table.number}"
    )
    if seeded.hot_table.state == "locked":
        log("The inspected table is locked: an inspection would be refused.")
        return 1
    connections.close_all()

    pairs = scenarios(seeded)
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.settings", "DATABASE_URL": url}
    log(
        f"\ngunicorn: {workers} sync workers on {HOST}:{port}; {clients} clients; "
        f"{seconds:g} s per side in {rounds} rounds"
    )
    server = Server(port=port, workers=workers, env=env)
    try:
        server.wait_ready()
        measure(pairs, port=port, clients=clients, seconds=seconds, rounds=rounds, warmup=warmup)
    except KeyboardInterrupt:
        log("\nInterrupted: stopping gunicorn")
        return 130
    finally:
        server.stop()
        if any(side.errors for _, *sides in pairs for side in sides):
            log("\ngunicorn's last lines:\n" + "\n".join(list(server.output)[-40:]))

    text, rows = table(pairs)
    log("\n" + text)
    goals_write("run", goals(rows))

    added = Entry.objects.count() - seeded.entries
    report_after = chain_verify(property_id=seeded.property.pk)
    log(f"\nChain after: {report_after.as_text()} ({added} inspections added by the run)")

    import django as dj
    import gunicorn
    import rest_framework

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "config": {
                    "entries": seeded.entries,
                    "baseline_rows": seeded.baseline_rows,
                    "tables": len(seeded.tables),
                    "seconds_per_side": seconds,
                    "rounds": rounds,
                    "clients": clients,
                    "workers": workers,
                    "warmup_seconds": warmup,
                    "database": name,
                },
                "environment": {
                    "cpus": os.cpu_count(),
                    "python": platform.python_version(),
                    "django": dj.get_version(),
                    "djangorestframework": rest_framework.VERSION,
                    "gunicorn": gunicorn.__version__,
                    "postgresql": server_version,
                },
                "seed_seconds": round(seed_seconds, 1),
                "chain_before": report.as_text(),
                "chain_after": report_after.as_text(),
                "scenarios": rows,
            },
            indent=2,
        )
        + "\n"
    )
    log(f"Written to {RESULTS.relative_to(ROOT)}")
    return 0 if report_after.ok else 1


if __name__ == "__main__":
    sys.exit(main())
