"""Goals 1, 2 and 7 through HTTP: gunicorn on 127.0.0.1 and PostgreSQL, the clients of
bench/locustfile.py run headless, the hasher alone measured in the same run on the same cores."""

import csv
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import threading
import time

from common import RESULTS, ROOT, django_on, load, median, record, size

SECONDS = size(60, 15, "seconds")
ENTRIES = size(100_000, 5_000, "entries")
# gunicorn's workers as `make serve` runs them (WEB_CONCURRENCY, default 3), on the machine's cores.
WORKERS = int(os.getenv("BENCH_WORKERS", os.getenv("WEB_CONCURRENCY", "3")))
CORES = os.cpu_count() or 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def gunicorn(settings: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings,
        "DB_CONN_MAX_AGE": "60",
        "API_THROTTLE_USER": "100000/minute",
        "LOG_LEVEL": "WARNING",
        "SECURE_SSL_REDIRECT": "false",
    }
    argv = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi",
        "-w",
        str(WORKERS),
        "-b",
        f"127.0.0.1:{port}",
        "-c",
        "config/gunicorn.conf.py",
        "--log-level",
        "warning",
    ]
    server = subprocess.Popen(argv, cwd=ROOT, env=env)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start")


def locust(host: str, users: int, *classes: str, seconds: int = SECONDS) -> dict[str, dict]:
    """Each request name's row of locust's CSV: requests a second, median and 95th percentile (ms);
    for the signed step, its median and 95th percentile from the steps' own times (unrounded)."""
    prefix = RESULTS / f"locust-{users}-{'-'.join(classes)}"
    steps_file = RESULTS / f"steps-{users}-{'-'.join(classes)}.json"
    steps_file.unlink(missing_ok=True)
    argv = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        "bench/locustfile.py",
        "--headless",
        "--host",
        host,
        "-u",
        str(users),
        "-r",
        str(users),
        "-t",
        f"{seconds + 2 + users // 4}s",  # and the time to sign everyone in, not measured
        "--csv",
        str(prefix),
        "--only-summary",
        "--loglevel",
        "WARNING",
        *classes,
    ]
    env = {**os.environ, "BENCH_STEPS_FILE": str(steps_file)}
    subprocess.run(argv, cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL)
    with open(f"{prefix}_stats.csv") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    for name, row in rows.items():
        if int(row["Failure Count"]) and name != "Aggregated":
            raise SystemExit(f"{name}: {row['Failure Count']} failures (see {prefix}_failures.csv)")
    figures = {
        name: {
            "rps": float(row["Requests/s"]),
            "p50": float(row["Median Response Time"]),
            "p95": float(row["95%"]),
            "count": int(row["Request Count"]),
        }
        for name, row in rows.items()
        if int(row["Request Count"])
    }
    if "FloorSigner" in classes and "signed step" not in figures:
        raise SystemExit(
            f"no signed step finished in {seconds} s with {users} clients: the run is too short for this machine"
        )
    if "signed step" in figures and steps_file.exists():
        steps = sorted(json.loads(steps_file.read_text()))
        figures["signed step"].update(p50=median(steps), p95=steps[int(len(steps) * 0.95)])
    return figures


class LockWaits(threading.Thread):
    """While a run lasts, samples PostgreSQL every 20 ms for the benchmark's sessions waiting on a lock
    (the chain's and the tables' row locks): the mean number waiting and the share of samples with
    one or more. A chain lock that limits a property shows as clients queued on it."""

    def __init__(self):
        super().__init__(daemon=True)
        self.stop, self.samples = threading.Event(), []

    def run(self):
        import psycopg

        with psycopg.connect(os.environ["DATABASE_URL"]) as db:  # bench_http, as django_on set it
            while not self.stop.wait(0.02):
                waiting = db.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
                ).fetchone()[0]
                self.samples.append(waiting)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.join()

    def said(self) -> str:
        if not self.samples:
            return "no lock samples"
        queued = sum(1 for waiting in self.samples if waiting) / len(self.samples)
        return f"waiting on a lock: {sum(self.samples) / len(self.samples):.2f} clients on average, {queued:.0%} of the time"


def hash_loop(seconds: float) -> int:
    from django.contrib.auth.hashers import check_password
    from seed import PASSWORD

    encoded, done, end = HASHED, 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        check_password(PASSWORD, encoded)
        done += 1
    return done


def hash_rate() -> float:
    """Password checks a second of the hasher alone on the same cores: the better of one process a
    core and one a gunicorn worker (Argon2 is bound by memory as much as by the cores)."""
    rates = []
    for processes in sorted({CORES, WORKERS}):
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            rates.append(sum(pool.map(hash_loop, [SECONDS / 4] * processes)) / (SECONDS / 4))
    return max(rates)


def main() -> None:
    global HASHED
    django_on("http")
    from django.contrib.auth.hashers import MD5PasswordHasher, check_password
    from seed import ITEMS, PASSWORD, seed

    from compliance.accounts.models import User

    world = seed(entries=ENTRIES, tables=8, staff=20)
    people = [user.username for user in world["people"][:-1]]
    os.environ.update(
        BENCH_PEOPLE=",".join(people),
        BENCH_PASSWORD=PASSWORD,
        BENCH_TABLE=str(world["hot"].pk),
        BENCH_ITEMS=",".join(ITEMS),
        BENCH_MANAGER=world["people"][-1].username,
    )
    HASHED = world["people"][0].password
    size_text = f"{ENTRIES:,} entries, 8 tables, {WORKERS} gunicorn workers, {SECONDS} s a run"

    # Goal 1: one person, then 20, on the project's hasher (Argon2); the hasher alone beside it.
    loads = [load()]
    server, host = gunicorn("config.settings")
    try:
        # Each baseline measured just before and just after its side, so that both see the same machine.
        checks = [timed_check(check_password, PASSWORD, HASHED) for _ in range(15)]
        alone = locust(host, 1, "FloorSigner")["signed step"]
        check = median(checks + [timed_check(check_password, PASSWORD, HASHED) for _ in range(15)]) * 1000
        hashes = hash_rate()
        crowd = locust(host, 20, "FloorSigner")["signed step"]
        hashes = (hashes + hash_rate()) / 2
        # Goal 7: the floor API alone, then with the heaviest pages requested in a loop.
        quiet = locust(host, 1, "FloorReader")["floor API"]
        busy = locust(host, 2, "FloorReader", "HeavyPage")["floor API"]
    finally:
        server.terminate()
        server.wait()
    loads.append(load())
    record(
        "1_signed_step_alone",
        figure=alone["p50"],
        baseline=check,
        target=1.2,
        unit="ms (median)",
        size=size_text,
        loads=tuple(loads),
        note=f"the step (POST, redirect, table page) ÷ the password check; p95 {alone['p95']:.0f} ms",
    )
    record(
        "1_signed_step_20_clients",
        figure=crowd["rps"],
        baseline=hashes,
        target=0.9,
        higher_is_better=True,
        unit="steps/s",
        size=size_text,
        loads=tuple(loads),
        note=f"median {crowd['p50']:.0f} ms, p95 {crowd['p95']:.0f} ms; ÷ the hasher alone on {CORES} cores",
    )
    record(
        "7_floor_api_beside_heavy_page",
        figure=busy["p50"],
        baseline=quiet["p50"],
        target=2.0,
        unit="ms (median)",
        size=size_text,
        loads=tuple(loads),
        note=f"p95 {busy['p95']:.0f} ms beside, {quiet['p95']:.0f} ms alone",
    )

    # Goal 2: a property's ceiling with a fast hasher (tests.settings: MD5), so that the chain lock shows.
    md5 = MD5PasswordHasher()
    User.objects.filter(pk__in=[user.pk for user in world["people"]]).update(password=md5.encode(PASSWORD, "bench"))
    loads = [load()]
    server, host = gunicorn("tests.settings")
    try:
        with LockWaits() as waits_8:
            eight = locust(host, 8, "FloorSigner")["signed step"]
        with LockWaits() as waits_16:
            sixteen = locust(host, 16, "FloorSigner")["signed step"]
    finally:
        server.terminate()
        server.wait()
    loads.append(load())
    record(
        "2_property_ceiling",
        figure=sixteen["rps"],
        baseline=eight["rps"],
        target=0.9,
        higher_is_better=True,
        unit="steps/s",
        size=size_text,
        loads=tuple(loads),
        note=f"16 clients ÷ 8 (MD5 hasher): {eight['rps']:.1f} and {sixteen['rps']:.1f} steps/s; "
        f"p95 {eight['p95']:.0f} and {sixteen['p95']:.0f} ms; at 8 {waits_8.said()}; at 16 {waits_16.said()}",
    )


def timed_check(check, password, encoded) -> float:
    started = time.perf_counter()
    check(password, encoded)
    return time.perf_counter() - started


HASHED = ""

if __name__ == "__main__":
    main()
