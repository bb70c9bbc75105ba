"""`make bench-proof` (and `make bench`): what the proof outside the database costs.

    .venv/bin/python bench/proof.py

1. A fresh PostgreSQL database, bench_proof on DATABASE_URL's server (bench/common.py), migrated with
   bench.settings, seeded like bench/run.py's (BENCH_ENTRIES hash-chained entries), with a checkpoint
   key ring and a report certificate made in a temporary directory; the first checkpoint is signed
   (it checks the whole chain once).
2. The signed POST (`POST /api/inspections/`, bench/run.py's request) under gunicorn, in rounds
   that alternate two sides in the same run: "no checkpoints", and "checkpointing", where a thread
   of this process (standing in for the Celery worker) signs a checkpoint of every grown logbook
   every BENCH_CHECKPOINT_SECONDS (default 5: sixty times production's five minutes), each taking
   the chain's lock as production's does. Goal: checkpointing costs at most 5 % of the throughput
   (ratio ≥ 0.95).
3. A register of the last days holding at least BENCH_REGISTER_ENTRIES entries (default 10,000) is
   rendered and signed, then checked by scripts/verify_report.py in a process of its own, as a
   regulator runs it (its wall time, Python's start included; the best of BENCH_VERIFY_RUNS).
   Goal: under 2 s.
4. Prints the figures and writes them to bench/results/proof.json (git-ignored).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    database_migrated,
    database_name,
    database_url,
    env_number,
    log,
    run_lock_or_say,
)
from bench.loadgen import Request, Side, run_round  # noqa: E402
from bench.run import HOST, Server, free_port  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "proof.json"
POST_GOAL = 0.95
VERIFY_GOAL_SECONDS = 2.0


class Checkpointer(threading.Thread):
    """Beat's task, every `every` seconds while `active` is set: a checkpoint of each grown logbook."""

    def __init__(self, every: float):
        super().__init__(daemon=True)
        self.every, self.active, self.stopped = every, threading.Event(), threading.Event()
        self.signed, self.seconds = 0, []

    def run(self) -> None:
        from django.db import connection

        from inspections.logbook import services

        while not self.stopped.is_set():
            if self.active.wait(timeout=0.2):
                started = time.perf_counter()
                self.signed += len(services.checkpoint_grown(every=timedelta(0))["signed"])
                self.seconds.append(time.perf_counter() - started)
                self.stopped.wait(self.every)
        connection.close()


def measure_post(
    request: Request, *, port: int, clients: int, seconds: float, rounds: int, warmup: float, checkpointer
):
    without, with_checkpoints = Side("no checkpoints", request), Side("checkpointing", request)
    run_round(host=HOST, port=port, request=request, clients=clients, seconds=warmup)
    per_round = seconds / rounds
    for index in range(rounds):
        order = (without, with_checkpoints) if index % 2 == 0 else (with_checkpoints, without)
        for side in order:
            if side is with_checkpoints:
                checkpointer.active.set()
            result = run_round(host=HOST, port=port, request=request, clients=clients, seconds=per_round)
            checkpointer.active.clear()
            side.rounds.append(result)
            if result.errors:
                log(f"  !! {side.name}: errors {dict(result.errors)}: {result.error_bodies[:2]}")
            log(f"  round {index + 1}/{rounds} {side.name:15} {result.ok / result.seconds:8.2f} req/s")
    return without, with_checkpoints


def main() -> int:
    seconds = env_number("BENCH_SECONDS", "30", float)
    rounds = env_number("BENCH_ROUNDS", "4")
    clients = env_number("BENCH_CLIENTS", "4")
    workers = env_number("BENCH_WORKERS", "3")
    warmup = env_number("BENCH_WARMUP", "3", float)
    entries = env_number("BENCH_ENTRIES", "100000")
    every = env_number("BENCH_CHECKPOINT_SECONDS", "5", float)
    register_entries = env_number("BENCH_REGISTER_ENTRIES", "10000")
    verify_runs = env_number("BENCH_VERIFY_RUNS", "3")

    url = database_url("bench_proof")
    keys = Path(tempfile.mkdtemp(prefix="bench-proof-keys-"))
    media = Path(tempfile.mkdtemp(prefix="bench-proof-media-"))
    from config import keyring

    keyring.checkpoint_key_add(keys / "ring.json", now=datetime.now(UTC) - timedelta(days=1))
    keyring.report_certificate_make(
        keys / "report.key", keys / "report.pem", common_name="Bench Casino", now=datetime.now(UTC)
    )
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="bench.settings",
        LOGBOOK_CHECKPOINT_KEYRING=str(keys / "ring.json"),
        LOGBOOK_REPORT_SIGNING_KEY=str(keys / "report.key"),
        LOGBOOK_REPORT_SIGNING_CERT=str(keys / "report.pem"),
        MEDIA_ROOT=str(media),
    )
    name = database_name(url)
    lock = run_lock_or_say(url)
    if lock is None:
        return 2
    log(f"Database {name}: created afresh")
    database_migrated(url, fresh=True)
    from django.db import connections

    from bench.run import scenarios
    from bench.seed import seed
    from inspections.logbook import services
    from inspections.logbook.models import Checkpoint, Entry

    log(f"Seeding {entries:,} entries")
    seeded = seed(entries=entries, log=log)
    started = time.perf_counter()
    first = services.checkpoint_sign(property_id=seeded.property.pk)
    first_seconds = time.perf_counter() - started
    log(
        f"First checkpoint (the whole chain checked once): #{first.seq} over entry #{first.entry_seq}, {first_seconds:.1f} s"
    )
    connections.close_all()

    (_, post, _baseline), _ = scenarios(seeded)
    checkpointer = Checkpointer(every)
    checkpointer.start()
    port = free_port()
    server = Server(port=port, workers=workers, env=dict(os.environ))
    log(f"\ngunicorn: {workers} sync workers; {clients} clients; {seconds:g} s per side in {rounds} rounds; "
        f"a checkpoint every {every:g} s on the checkpointing side")  # fmt: skip
    try:
        server.wait_ready()
        without, with_checkpoints = measure_post(
            post.request,
            port=port,
            clients=clients,
            seconds=seconds,
            rounds=rounds,
            warmup=warmup,
            checkpointer=checkpointer,
        )
    finally:
        checkpointer.stopped.set()
        checkpointer.join(timeout=30)
        server.stop()
    a, b = with_checkpoints.summary(), without.summary()
    ratio = a["rps"] / b["rps"] if b["rps"] else 0.0

    # The regulator's check of a register of at least `register_entries` entries.
    from compliance.accounts.models import Role, User
    from compliance.casinos.clock import local_date
    from inspections.reports import render
    from inspections.reports.models import Report

    newest = list(
        Entry.objects.filter(property=seeded.property)
        .order_by("-occurred_at")
        .values_list("occurred_at", flat=True)[:register_entries]
    )
    zone = seeded.property.zone
    period_from, period_to = local_date(newest[-1], zone), local_date(newest[0], zone)
    report = Report.objects.create(
        property=seeded.property,
        kind="inspection_register",
        period_from=period_from,
        period_to=period_to,
        requested_by=User.objects.filter(property=seeded.property, role=Role.COMPLIANCE).first(),
    )
    log(f"\nRendering the register {period_from} to {period_to}")
    started = time.perf_counter()
    report = render.generate_locally(report.pk, processes=os.cpu_count() or 2)
    render_seconds = time.perf_counter() - started
    log(
        f"  {report.rows:,} rows, {report.pages} pages, {report.size / 1e6:.1f} MB, signed by {report.signed_by}, in {render_seconds:.0f} s"
    )
    published = keys / "published.pem"
    published.write_text("".join(key.public_pem for key in keyring.keyring_load(keys / "ring.json")))
    runs, cpu, output = [], [], ""
    for _ in range(verify_runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "verify_report.py"), report.file.path, "--key", str(published), "--cert", str(keys / "report.pem")],
            capture_output=True, text=True, check=False, cwd="/", env={"PATH": os.environ.get("PATH", "")},
        )  # fmt: skip
        runs.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # Its CPU time too: on a shared machine the wall time also counts the other processes' turns.
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        output = result.stdout + result.stderr
        if result.returncode != 0:
            log(output)
            return 1
    checkpoints = Checkpoint.objects.filter(property=seeded.property).count()

    lines = [
        f"{'measure':44} {'value':>12}  goal",
        "-" * 66,
        f"{'signed POST, no checkpoints (req/s)':44} {b['rps']:12.2f}",
        f"{'signed POST, checkpointing (req/s)':44} {a['rps']:12.2f}",
        f"{'  ratio (checkpointing / none)':44} {ratio:12.3f}  ≥ {POST_GOAL} {'ok' if ratio >= POST_GOAL else 'BELOW GOAL'}",
        f"{'  p50 ms, none / checkpointing':44} {b['p50_ms'] or 0:6.0f} / {a['p50_ms'] or 0:.0f}",
        f"{'  checkpoints signed while measured':44} {checkpointer.signed:12}",
        f"{'  one checkpoint, median s':44} {statistics.median(checkpointer.seconds or [0]):12.3f}",
        f"{f'offline verifier, {report.rows:,}-row register (s)':44} {min(runs):12.2f}  < {VERIFY_GOAL_SECONDS} s {'ok' if min(runs) < VERIFY_GOAL_SECONDS else 'ABOVE GOAL'}",
        f"{'  its CPU time, user + system (s)':44} {min(cpu):12.2f}",
        f"{'  rendering that register and signing it (s)':44} {render_seconds:12.0f}",
    ]  # fmt: skip
    log("\n" + "\n".join(lines))
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "config": {
                    "entries": seeded.entries,
                    "seconds_per_side": seconds,
                    "rounds": rounds,
                    "clients": clients,
                    "workers": workers,
                    "checkpoint_every_seconds": every,
                },
                "first_checkpoint_seconds": round(first_seconds, 2),
                "post": {
                    "no_checkpoints": b,
                    "checkpointing": a,
                    "ratio": round(ratio, 3),
                    "goal": POST_GOAL,
                    "ratio_by_round": [
                        round(x.ok / y.ok, 3) if y.ok else None
                        for x, y in zip(with_checkpoints.rounds, without.rounds, strict=True)
                    ],
                },
                "checkpoints": {
                    "signed_while_measured": checkpointer.signed,
                    "total": checkpoints,
                    "median_seconds": round(statistics.median(checkpointer.seconds or [0]), 4),
                },
                "verifier": {
                    "rows": report.rows,
                    "pages": report.pages,
                    "bytes": report.size,
                    "render_seconds": round(render_seconds, 1),
                    "runs_seconds": [round(r, 3) for r in runs],
                    "runs_cpu_seconds": [round(c, 3) for c in cpu],
                    "goal_seconds": VERIFY_GOAL_SECONDS,
                    "output": output,
                },
            },
            indent=2,
        )
        + "\n"
    )
    log(f"Written to {RESULTS.relative_to(ROOT)}")
    return 0 if ratio >= POST_GOAL and min(runs) < VERIFY_GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
