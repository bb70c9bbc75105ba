"""`make bench-report`: the § 617a.2(e) register as a PDF, 10,000 and 100,000 entries, next to bare WeasyPrint.

    .venv/bin/python bench/report.py

1. Seeds (once; a re-run reuses it) a PostgreSQL database, logbook_bench_report on DATABASE_URL's
   server, created and migrated if missing: one Pennsylvania property, 8 Roulette tables, its
   staff and a regulator (unusable passwords: nobody logs in), and 100,000 logbook entries over
   about four years of floor days (unlock, an adjustment or replacement now and then signed by
   two people, inspections, a failed one now and then, opening, no-spins, closing, covering, and
   a few amendments), with their signatures. They form ONE property's hash chain with real
   hashes (inspections.logbook.chain), written with COPY; chain_verify must find it intact. The first
   10,000 entries end on a day of their own: the period up to that day is the 10,000-entry
   register, the whole history the 100,000-entry one.
2. The baseline (issue 22's competent bare rendering): the same 10,000 rows (the Register kind's
   own rows, all its columns) as a plain HTML table cut into pieces of REPORT_CHUNK_ROWS rows, the
   pieces rendered by WeasyPrint in 2 processes at once, joined with pypdf, in a subprocess: its
   wall time and peak RSS.
3. Ours at 10,000 entries, as production makes it: the register asked for through report_request
   (as the reports page asks) and rendered by a Celery worker on the reports queue (prefork, 2
   processes; and, for the scale-out, 1), started beforehand (its start is not timed) and stopped
   when the Report row says done. At 100,000 entries (whose period is longer than REPORT_MAX_DAYS
   allows a request): `manage.py render_report --processes 2` (the same steps in a forked local
   pool). Every 0.2 s the bench reads /proc for the measured process and all its descendants
   (VmHWM: the kernel's own peak RSS of each process; and, once a second, the tree's total PSS),
   and every 0.5 s the Report row's progress, from which it derives each step's time and the
   longest time progress stood still. It checks the PDF: "Page N of N" on its last page,
   "Verified: intact" on the cover. For every run it also says how much CPU the rest of the
   machine used meanwhile (/proc/stat): the machine is shared.
4. The chain lock: 40 signed inspections of one table through the service, the time each holds
   its property's chain head row locked (a property's ceiling of signed entries a second).
5. Prints the figures and the goals: ours (10,000, 2 worker processes) at most 0.9 x the
   baseline's time; 2 worker processes at most 0.7 x 1's; 100,000 entries within 400 MB per
   process, progress moving at least every 5 s. Writes them for bench/summary.py
   (register_pdf_10k, scale_out_workers).

Environment: DATABASE_URL (the server; the database is its name if that contains "bench", else
logbook_bench_report), REDIS_URL (the workers' broker; default redis://127.0.0.1:6379/11),
BENCH_REPORT_ROUNDS (1: rounds of the 10,000-entry sides, alternating their order; medians
compared), BENCH_REPORT_ENTRIES (100000), BENCH_REPORT_SMALL (10000), BENCH_REPORT_PROCESSES (2),
BENCH_REPORT_SKIP (comma-separated: baseline, celery, celery1, small, large, chainlock; default
small, and large too with BENCH_QUICK=1; "small" is render_report at 10,000), BENCH_CHAIN_LOCK_ENTRIES
(40), BENCH_KEEP (1: keep the temporary MEDIA_ROOT and say where). REPORT_CHUNK_ROWS, like any
other setting read from the environment, reaches the workers and render_report.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    QUICK,
    database_name,
    database_switch,
    database_url,
    env_number,
    goal,
    goals_write,
    load,
    log,
    run_lock_or_say,
)

DATABASE_NAME = "logbook_bench_report"
META_TABLE = "bench_report_meta"
SEED_VERSION = 1  # bump when the seeding changes: a database seeded otherwise is seeded afresh
LICENCE = "PA-BENCH-REPORT"
REGULATOR = "bench-report-regulator"
FIRST_DAY = date(2021, 1, 4)
TABLES = 8
BATCH = 10_000

GOAL_RATIO = 0.9  # ours (10,000 entries, 2 processes) / the competent bare rendering (pieces, 2 processes, pypdf)
# Scale-out (issue 22, goal 7): a worker of 2 processes takes at most this much of one of 1's time.
GOAL_SCALE_OUT = 0.7
GOAL_MB = 400  # 100,000 entries: the peak of each process
GOAL_GAP = 5.0  # 100,000 entries: the longest time progress may stand still, in seconds

SAMPLE_EVERY = 0.2  # /proc
POLL_EVERY = 0.5  # the Report row
PSS_EVERY = 1.0  # /proc/<pid>/smaps_rollup (the tree's total PSS)

# The baseline's plain table has every column of the register (11 since the part, the failed
# checklist items and the notes were added), so both sides lay out the same cells.


# --- seeding ----------------------------------------------------------------------------------

PEOPLE = [  # username, full name, role, credential
    ("bench-report-floor-1", "Maria Alvarez", "floorperson", "PA-GEB-0041187"),
    ("bench-report-floor-2", "Daniel O'Connor", "floorperson", "PA-GEB-0052290"),
    ("bench-report-security-1", "Kevin Walsh", "security", "PA-GEB-0038814"),
    ("bench-report-security-2", "Aisha Rahman", "security", "PA-GEB-0060173"),
    ("bench-report-maintenance", "Tomasz Nowak", "maintenance", "PA-GEB-0047735"),
]
ADJUSTMENTS = [
    ("rotor", "Ball track cleaned and rotor re-levelled"),
    ("wheel_head", "Wheel head re-levelled after the rotor bearing check"),
    ("frets", "Loose fret between 17 and 34 re-seated and secured"),
]
REPLACEMENTS = [
    ("ball", "Ball replaced: chipped after a drop"),
    ("ball", "Ball replaced with a new non-metallic ball from the locked stock"),
]
NOTES = ["", "", "", "", "Pockets wiped after a spill", "Rotor noise checked, none heard", "Level read 0.1 degree"]
IRREGULARITIES = [
    ("same_direction", "ball spun in the same direction as the wheel (§ 617a.6(a))"),
    ("under_four_revolutions", "ball did not complete four revolutions (§ 617a.6(b))"),
    ("ball_left_wheel", "ball left the wheel during the spin (§ 617a.6(c))"),
    ("foreign_object", "a foreign object entered the wheel (§ 617a.6(d))"),
]
EVENT_DESCRIPTIONS = {
    "unlock": "Wheel cover unlocked and removed",
    "open": "Table opened for play",
    "close": "Table closed",
    "cover": "Wheel covered and the cover securely locked",
}


@dataclass
class Event:
    at: datetime
    order: int  # within a table's day
    table: object
    kind: str
    signers: list  # [(User, meaning)]
    description: str = ""
    passed: bool | None = None
    details: dict = field(default_factory=dict)
    amends: Event | None = None
    seq: int = 0


def _day(day: date, tables, people: dict, checklist: list[str], zone, rng: random.Random) -> list[Event]:
    """One floor day of every table, in time order: local times 09:00–22:30, never across midnight."""
    floors, guards, fixer = people["floorperson"], people["security"], people["maintenance"][0]
    events: list[Event] = []
    for index, table in enumerate(tables):
        start = datetime.combine(day, datetime.min.time(), tzinfo=zone) + timedelta(hours=9, minutes=7 * index)
        floor, guard = rng.choice(floors), rng.choice(guards)
        order = iter(range(100))

        def add(
            minutes: float, kind: str, signers, description: str, *, table=table, order=order, start=start, **more
        ) -> Event:
            at = start + timedelta(minutes=minutes, seconds=rng.randint(0, 59))
            event = Event(at, next(order), table, kind, signers, description, **more)
            events.append(event)
            return event

        add(0, "unlock", [(guard, "recorded")], EVENT_DESCRIPTIONS["unlock"])
        roll = rng.random()
        if roll < 0.10:
            part, text = rng.choice(ADJUSTMENTS)
            add(2, "adjustment", [(fixer, "performed"), (guard, "witnessed")], text, details={"part": part})
        elif roll < 0.13:
            part, text = rng.choice(REPLACEMENTS)
            add(2, "replacement", [(fixer, "performed"), (guard, "witnessed")], text, details={"part": part})
        minute = 5
        if rng.random() < 0.02:  # a failed item, fixed and inspected again
            items = dict.fromkeys(checklist, True)
            failed = rng.choice(checklist)
            items[failed] = False
            add(
                minute,
                "inspection",
                [(floor, "inspected")],
                f"Inspection FAILED: {failed.replace('_', ' ')}",
                passed=False,
                details={"items": items, "notes": "Reported to table games maintenance"},
            )
            part, text = ADJUSTMENTS[0]
            add(minute + 3, "adjustment", [(fixer, "performed"), (guard, "witnessed")], text, details={"part": part})
            minute += 7
        inspection = add(
            minute,
            "inspection",
            [(floor, "inspected")],
            "Inspection passed",
            passed=True,
            details={"items": dict.fromkeys(checklist, True), "notes": rng.choice(NOTES)},
        )
        add(minute + 10, "open", [(floor, "recorded")], EVENT_DESCRIPTIONS["open"])
        for minutes in sorted(rng.randint(30, 700) for _ in range(rng.randint(1, 5))):
            code, label = rng.choice(IRREGULARITIES)
            replaced = rng.random() < 0.2
            add(
                minutes,
                "irregularity",
                [(floor, "recorded")],
                f"No spin: {label}" + ("; ball replaced" if replaced else ""),
                details={"irregularity": code, "ball_replaced": replaced, "notes": ""},
            )
        add(720, "close", [(floor, "recorded")], EVENT_DESCRIPTIONS["close"])
        add(725, "cover", [(guard, "recorded")], EVENT_DESCRIPTIONS["cover"])
        if rng.random() < 0.005:  # the inspector amends the day's inspection after the shift
            reason = "Notes completed after the shift"
            correction = {"notes": "Rotor noise checked, none heard; pockets wiped"}
            add(
                745,
                "amendment",
                [(inspection.signers[0][0], "amended")],
                reason,  # the description is finished once the original's seq is known
                details={"reason": reason, "correction": correction},
                amends=inspection,
            )
    events.sort(key=lambda event: (event.at, event.table.number, event.order))
    return events


def _history(tables, people: dict, checklist: list[str], zone, *, entries: int, small: int):
    """Day by day, the events in time order; the day holding the `small`-th entry is cut after
    it (so a period of whole days holds exactly `small`), and the last day after the `entries`-th."""
    rng = random.Random(6172)  # the same history every time
    count, day = 0, FIRST_DAY
    small_last_day = None
    while count < entries:
        events = _day(day, tables, people, checklist, zone, rng)
        for cut in (small, entries):
            if count < cut <= count + len(events):
                events = events[: cut - count]
                if cut == small:
                    small_last_day = day
        count += len(events)
        yield day, events
        day += timedelta(days=1)
    assert small_last_day is not None


def seed(*, entries: int, small: int) -> dict:
    """Seed an empty, migrated database: one property's chain of `entries`; returns the meta row."""
    from django.db import connection

    from compliance.accounts.models import Role, User
    from compliance.casinos.models import Game, GamingTable, Jurisdiction, Property, TableState, WheelType
    from compliance.rulebook.jurisdictions.pennsylvania import CHECKLIST
    from inspections.logbook import chain
    from inspections.logbook.models import ChainHead, Entry, Signature

    started = time.perf_counter()
    prop = Property.objects.create(
        name="Report Bench Casino", licence_number=LICENCE, jurisdiction=Jurisdiction.PA, time_zone="America/New_York"
    )
    zone = prop.zone
    tables = [
        GamingTable.objects.create(
            property=prop,
            number=f"R-{n:02d}",
            game=Game.ROULETTE,
            wheel_type=WheelType.DOUBLE_ZERO,
            has_external_movable_parts=True,
        )
        for n in range(1, TABLES + 1)
    ]
    people: dict[str, list] = {}
    for username, name, role, credential in PEOPLE:
        user = User(username=username, full_name=name, role=role, credential_number=credential, property=prop)
        user.set_unusable_password()
        user.save()
        people.setdefault(role, []).append(user)
    regulator = User(
        username=REGULATOR,
        full_name="Janet Brooks",
        role=Role.REGULATOR,
        credential_number="PGCB-AGENT-2217",
        jurisdiction=Jurisdiction.PA,
    )
    regulator.set_unusable_password()
    regulator.save()
    checklist = [item.code for item in CHECKLIST[:4]]

    entry_columns = (
        "id, property_id, seq, table_id, table_number, kind, occurred_at, recorded_at, recorded_by_id, "
        "description, passed, details, amends_id, prev_hash, entry_hash"
    )
    signature_columns = "id, entry_id, signer_id, signer_name, credential_number, meaning, signed_at, content_hash"
    entry_rows, signature_rows = [], []

    def flush() -> None:
        # Entries first: a signature's foreign key needs its entry (each COPY commits on its own).
        with connection.cursor() as cursor:
            with cursor.cursor.copy(f"COPY logbook_entry ({entry_columns}) FROM STDIN") as copy:
                for row in entry_rows:
                    copy.write_row(row)
            with cursor.cursor.copy(f"COPY logbook_signature ({signature_columns}) FROM STDIN") as copy:
                for row in signature_rows:
                    copy.write_row(row)
        entry_rows.clear()
        signature_rows.clear()

    # Ids are given here (the database is fresh): an amendment's hashed body names its original's id.
    prev_hash, seq, signature_id = chain.GENESIS, 0, 0
    first_day = small_last_day = last_day = None
    for day, events in _history(tables, people, checklist, zone, entries=entries, small=small):
        first_day = first_day or day
        last_day = day
        for event in events:
            seq += 1
            event.seq = seq
            if seq == small:
                small_last_day = day
            if event.amends is not None:
                event.description = f"Amends entry #{event.amends.seq}: {event.description}"
            recorded_at = event.at + timedelta(seconds=30 + seq % 60)
            entry = Entry(
                id=seq,
                property_id=prop.pk,
                seq=seq,
                table_id=event.table.pk,
                table_number=event.table.number,
                kind=event.kind,
                occurred_at=event.at,
                recorded_at=recorded_at,
                recorded_by_id=event.signers[0][0].pk,
                description=event.description,
                passed=event.passed,
                details=event.details,
                amends_id=event.amends.seq if event.amends is not None else None,
                prev_hash=prev_hash,
            )
            signed_content = chain.content_hash(entry)
            signatures = []
            for user, meaning in event.signers:
                signature_id += 1
                signatures.append(
                    Signature(
                        id=signature_id,
                        entry_id=seq,
                        signer_id=user.pk,
                        signer_name=user.display_name,
                        credential_number=user.credential_number,
                        meaning=meaning,
                        signed_at=recorded_at,
                        content_hash=signed_content,
                    )
                )
            entry.entry_hash = chain.entry_hash(prev_hash=prev_hash, entry=entry, signatures=signatures)
            prev_hash = entry.entry_hash
            entry_rows.append(
                (
                    entry.id,
                    entry.property_id,
                    entry.seq,
                    entry.table_id,
                    entry.table_number,
                    entry.kind,
                    entry.occurred_at,
                    entry.recorded_at,
                    entry.recorded_by_id,
                    entry.description,
                    entry.passed,
                    json.dumps(entry.details),
                    entry.amends_id,
                    entry.prev_hash,
                    entry.entry_hash,
                )
            )
            signature_rows.extend(
                (
                    s.id,
                    s.entry_id,
                    s.signer_id,
                    s.signer_name,
                    s.credential_number,
                    s.meaning,
                    s.signed_at,
                    s.content_hash,
                )
                for s in signatures
            )
        if len(entry_rows) >= BATCH:
            flush()
            log(f"  {seq:,} entries hashed and copied ({time.perf_counter() - started:.0f} s)")
    flush()
    assert seq == entries, (seq, entries)

    ChainHead.objects.update_or_create(property=prop, defaults={"length": seq, "head": prev_hash})
    with connection.cursor() as cursor:
        for name in ("logbook_entry", "logbook_signature"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT max(id) FROM {name}))")
        # Every day ends covered and locked; each table's latest moments, from its entries.
        cursor.execute(
            "UPDATE logbook_tablestatus t SET state = %s, last_entry_at = a.last_entry, "
            "last_inspection_at = a.inspection, last_adjustment_at = a.adjustment, "
            "last_replacement_at = a.replacement, last_opened_at = a.opened, last_closed_at = a.closed "
            "FROM (SELECT table_id, max(occurred_at) AS last_entry, "
            "  max(occurred_at) FILTER (WHERE kind = 'inspection') AS inspection, "
            "  max(occurred_at) FILTER (WHERE kind = 'adjustment') AS adjustment, "
            "  max(occurred_at) FILTER (WHERE kind = 'replacement') AS replacement, "
            "  max(occurred_at) FILTER (WHERE kind = 'open') AS opened, "
            "  max(occurred_at) FILTER (WHERE kind = 'close') AS closed "
            "  FROM logbook_entry GROUP BY table_id) a WHERE a.table_id = t.table_id",
            [TableState.LOCKED],
        )
        cursor.execute("VACUUM ANALYZE")
        seconds = time.perf_counter() - started
        cursor.execute(
            f"CREATE TABLE {META_TABLE} (version int, entries int, small int, first_day date, small_last_day date, "
            "last_day date, seed_seconds float8, seeded_at timestamptz DEFAULT now())"
        )
        cursor.execute(
            f"INSERT INTO {META_TABLE} (version, entries, small, first_day, small_last_day, last_day, seed_seconds) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            [SEED_VERSION, entries, small, first_day, small_last_day, last_day, seconds],
        )
    log(f"  seeded, with {signature_id:,} signatures, and vacuumed in {seconds:.1f} s")
    return {"first_day": first_day, "small_last_day": small_last_day, "last_day": last_day, "seconds": seconds}


def seeded(*, entries: int, small: int) -> dict | None:
    """The meta row, if the database holds exactly what this benchmark seeds."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s)", [META_TABLE])
        if cursor.fetchone()[0] is None:
            return None
        cursor.execute(
            f"SELECT version, entries, small, first_day, small_last_day, last_day, seed_seconds FROM {META_TABLE}"
        )
        row = cursor.fetchone()
        if row is None or row[:3] != (SEED_VERSION, entries, small):
            return None
        # chain_lock() appends inspections dated after both periods: more entries than seeded is fine.
        cursor.execute("SELECT count(*) FROM logbook_entry WHERE occurred_at < %s", [row[5] + timedelta(days=2)])
        if cursor.fetchone()[0] != entries:
            return None
        cursor.execute(
            "SELECT h.length FROM logbook_chainhead h JOIN casinos_property p ON p.id = h.property_id "
            "WHERE p.licence_number = %s",
            [LICENCE],
        )
        found = cursor.fetchone()
        if found is None or found[0] < entries:
            return None
    return {"first_day": row[3], "small_last_day": row[4], "last_day": row[5], "seconds": row[6]}


def prepare(url: str, name: str, *, entries: int, small: int) -> tuple[dict, float | None]:
    """The database seeded (reused if it already is); its meta row and this run's seeding seconds."""
    from django.db import connection

    database_switch(url, name)
    meta = seeded(entries=entries, small=small)
    if meta is not None:
        log(f"Database {name}: {entries:,} entries already seeded (in {meta['seconds']:.0f} s, then): reused")
        return meta, None
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM casinos_property)")
        dirty = cursor.fetchone()[0]
    if dirty:  # a different size, or an interrupted seeding: the entries can't be deleted, start afresh
        log(f"Database {name}: holds something else, created afresh")
        database_switch(url, name, fresh=True)
    log(f"Database {name}: seeding {entries:,} entries in one property's chain")
    meta = seed(entries=entries, small=small)
    return meta, meta["seconds"]


# --- measuring processes ----------------------------------------------------------------------


def _children_of(pid: int) -> list[int]:
    """The process's children, from each of its threads' /proc children list (any thread may fork)."""
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(child) for child in handle.read().split())
        except OSError:
            continue
    return found


def _tree(root: int) -> list[tuple[int, int | None]]:
    """The process and all its descendants, each with its parent."""
    found, stack = [], [(root, None)]
    while stack:
        pid, parent = stack.pop()
        found.append((pid, parent))
        stack.extend((child, pid) for child in _children_of(pid))
    return found


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except OSError:
        return "?"


def _status_kb(pid: int, keys: tuple[str, ...]) -> dict[str, int]:
    found = {}
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                key = line.split(":", 1)[0]
                if key in keys:
                    found[key] = int(line.split()[1])
    except OSError:
        pass
    return found


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Run:
    label: str
    seconds: float = 0.0
    returncode: int = 0
    peak_kb: dict[int, int] = field(default_factory=dict)  # pid -> VmHWM, the last seen
    role: dict[int, str] = field(default_factory=dict)
    tree_maxrss_kb: int = 0  # wait4's ru_maxrss: the largest of the process and its waited-for descendants
    peak_pss_kb: int = 0  # the tree's total PSS, the largest sample
    progress: list[tuple[float, int, int, int, str]] = field(default_factory=list)  # (t, progress, done, total, status)
    output: str = ""
    report_id: int | None = None
    cpu_seconds: float = 0.0  # the process and its waited-for descendants (wait4's rusage)
    other_cpu_seconds: float = 0.0  # the rest of the machine meanwhile (PostgreSQL included), not this script
    steal_seconds: float = 0.0  # taken by the hypervisor

    @property
    def load_note(self) -> str:
        return (
            f"CPU {self.cpu_seconds:.0f} s ({self.cpu_seconds / self.seconds:.2f} cores); the rest of the machine "
            f"{self.other_cpu_seconds:.0f} s ({self.other_cpu_seconds / self.seconds:.2f} cores), stolen "
            f"{self.steal_seconds:.0f} s"
        )

    @property
    def max_peak_mb(self) -> float:
        return max([*self.peak_kb.values(), self.tree_maxrss_kb]) / 1024


def _machine_cpu() -> tuple[float, float]:
    """Seconds of CPU busy on the whole machine since boot (all cores), and seconds stolen."""
    with open("/proc/stat") as handle:
        fields = [int(value) for value in handle.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def _self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measured(
    label: str,
    argv: list[str],
    env: dict,
    *,
    report_after: int | None = None,
    ready: Callable[[], bool] | None = None,
    then: Callable[[], None] | None = None,
) -> Run:
    """Run argv to its end, sampling its process tree's memory and (with report_after, the largest
    Report id before it started) the progress of the report it creates.

    A server (a Celery worker): `ready` says when it is up (its start is not timed), `then` asks it
    for the report; the time runs from then to the report's end, when the server is stopped."""
    import psycopg

    run = Run(label)
    poll = None
    if report_after is not None:
        poll = psycopg.connect(env["DATABASE_URL"].replace("postgres://", "postgresql://", 1), autocommit=True)
    out = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed below, after the process)
    process = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, text=True)
    next_poll, next_pss, last_logged, status, ended = 0.0, 0.0, -100, None, None
    try:
        waited = time.perf_counter()
        while ready is not None and not ready():
            if process.poll() is not None or time.perf_counter() - waited > 120:
                raise RuntimeError(f"{label}: the server did not start")
            time.sleep(SAMPLE_EVERY)
        (busy_before, steal_before), self_before = _machine_cpu(), _self_cpu()
        started = time.perf_counter()
        if then is not None:
            then()
        while status is None:
            now = time.perf_counter() - started
            pss, pss_due = 0, now >= next_pss
            for pid, parent in _tree(process.pid):
                hwm = _status_kb(pid, ("VmHWM",)).get("VmHWM")
                if hwm is None:  # a zombie, or gone
                    continue
                run.peak_kb[pid] = max(run.peak_kb.get(pid, 0), hwm)
                if pid not in run.role:
                    # The pool's processes are the main one's children; theirs are helpers (ctypes'
                    # find_library runs gcc and ld when WeasyPrint loads its libraries).
                    run.role[pid] = (
                        "main"
                        if parent is None
                        else "pool worker"
                        if parent == process.pid
                        else f"helper ({_comm(pid)})"
                    )
                if pss_due:  # smaps_rollup walks the page tables: once a second is enough
                    pss += _pss_kb(pid)
            if pss_due:
                next_pss = now + PSS_EVERY
                run.peak_pss_kb = max(run.peak_pss_kb, pss)
            if poll is not None and now >= next_poll:
                next_poll = now + POLL_EVERY
                row = poll.execute(
                    "SELECT id, progress, chunks_done, chunks_total, status FROM reports_report "
                    "WHERE id > %s ORDER BY id LIMIT 1",
                    [report_after],
                ).fetchone()
                if row is not None:
                    run.report_id = row[0]
                    if not run.progress or run.progress[-1][1:] != row[1:]:
                        run.progress.append((now, *row[1:]))
                        if row[1] >= last_logged + 20 or row[4] != "running":
                            last_logged = row[1]
                            log(f"    {now:6.1f} s: progress {row[1]:5.1f} %, pieces {row[2]}/{row[3]}, {row[4]}")
                    if ready is not None and ended is None and row[4] in ("done", "failed"):
                        ended = now  # the report is over: the server is stopped (a warm shutdown)
                        process.send_signal(signal.SIGTERM)
            # Reaped here, not by Popen: wait4 gives its rusage (ru_maxrss: the largest peak RSS of
            # the process and of its waited-for descendants, the pool's processes).
            pid, code, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                status = code
                run.tree_maxrss_kb = usage.ru_maxrss
                run.cpu_seconds = usage.ru_utime + usage.ru_stime
                busy, steal = _machine_cpu()
                run.steal_seconds = steal - steal_before
                run.other_cpu_seconds = max(0.0, busy - busy_before - run.cpu_seconds - (_self_cpu() - self_before))
            else:
                time.sleep(SAMPLE_EVERY)
        run.seconds = ended if ended is not None else time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if poll is not None and run.report_id is not None:  # the final state, whatever the last poll saw
            row = poll.execute(
                "SELECT progress, chunks_done, chunks_total, status FROM reports_report WHERE id = %s",
                [run.report_id],
            ).fetchone()
            if not run.progress or run.progress[-1][1:] != row:
                run.progress.append((run.seconds, *row))
    finally:
        if status is None:  # interrupted: the subprocess and its pool go too
            for pid, _ in reversed(_tree(process.pid)):
                with contextlib.suppress(OSError):
                    os.kill(pid, 15)
            process.wait()
        if poll is not None:
            poll.close()
    run.returncode = process.returncode
    out.seek(0)
    run.output = out.read()
    out.close()
    return run


# --- the two sides ----------------------------------------------------------------------------

# The competent bare rendering (issue 22): the same rows as a plain table, cut into pieces of
# REPORT_CHUNK_ROWS rows, the pieces laid out by `processes` forked processes at once, then joined
# in order with pypdf. Nothing else: no running headers, no page numbers, no PDF/A, no CSV.
BASELINE_SCRIPT = textwrap.dedent(
    """
    import json, multiprocessing, sys, time
    started = time.perf_counter()
    from weasyprint import HTML
    from pypdf import PdfReader, PdfWriter
    imported = time.perf_counter()
    pieces, output, processes = sys.argv[1:-2], sys.argv[-2], int(sys.argv[-1])

    def render(path):
        document = HTML(filename=path).render()
        document.write_pdf(path[:-5] + ".pdf")
        return path[:-5] + ".pdf", len(document.pages)

    with multiprocessing.get_context("fork").Pool(processes) as pool:
        rendered = pool.map(render, pieces, chunksize=1)
    laid_out = time.perf_counter()
    writer = PdfWriter()
    for path, _ in rendered:
        writer.append(PdfReader(path))
    with open(output, "wb") as handle:
        writer.write(handle)
    done = time.perf_counter()
    print(json.dumps({"import": imported - started, "layout": laid_out - imported, "write": done - laid_out,
                      "pages": sum(pages for _, pages in rendered)}))
    """
)


def baseline_pieces(prop, small: int, chunk: int, folder: Path) -> list[Path]:
    """The first `small` entries as the Register kind makes their rows, all its columns, each piece
    of `chunk` rows one plain HTML table in a file of its own: the same page size, font and cell
    borders as the register; no running headers, no fixed layout, no page numbers, no PDF/A."""
    from html import escape

    from inspections.logbook.models import Entry
    from inspections.reports.kinds import REGISTER_COLUMNS, Register
    from inspections.reports.models import Report

    keys = list(Entry.objects.filter(property=prop).order_by("occurred_at", "seq").values_list("pk", flat=True)[:small])
    columns = REGISTER_COLUMNS
    head = "".join(f"<th>{escape(column.label)}</th>" for column in columns)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, at in enumerate(range(0, len(keys), chunk)):
        rows = Register().rows(Report(property=prop), keys[at : at + chunk])
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(str(row[column.key]))}</td>" for column in columns) + "</tr>" for row in rows
        )
        path = folder / f"piece-{number:05d}.html"
        path.write_text(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><style>'
            "@page { size: Letter landscape; margin: 1.4cm 1.2cm; } "
            'html { font-family: "DejaVu Sans", sans-serif; font-size: 7.5pt; } '
            "table { width: 100%; border-collapse: collapse; } "
            "th, td { border: 0.5pt solid #999; padding: 2pt 3pt; vertical-align: top; text-align: left; }"
            f"</style></head><body><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></body></html>",
            encoding="utf-8",
        )
        paths.append(path)
    return paths


def pdf_check(path: Path) -> tuple[int, bool, bool, str]:
    """Pages, whether the last says "Page N of N" and the cover "intact", and the last page's footer."""
    from pypdf import PdfReader

    reader = PdfReader(path)
    pages = len(reader.pages)
    last = reader.pages[-1].extract_text() or ""
    cover = reader.pages[0].extract_text() or ""
    footer = re.search(r"Page \d+ of \d+", last)
    footer = footer.group(0) if footer else ""
    return pages, footer == f"Page {pages} of {pages}", "Verified: intact" in cover, footer


@dataclass
class Steps:
    """What the Report row's progress says of a run."""

    phases: list[tuple[str, float]]  # (step, seconds), as first seen by the 0.5 s poll
    gap: float  # the longest time progress (the percentage) stood still
    gap_where: str
    piece_gap: float  # the longest time no piece finished (pieces counted by chunks_done)
    piece_gap_where: str
    pieces: int


def steps(run: Run) -> Steps:
    """The steps as the Report row shows them: planning up to progress 10, then one chunk per
    piece and pass (the last pass, one chunk a piece and the cover: the page numbers), then the
    join. chunks_total is twice the pieces (cover included), plus the chain's verification and
    its segment's entries, a chunk each."""
    points = run.progress
    total = points[-1][3] if points else 0
    pieces = max(total - 2, 0) // 2  # the cover and the rows' pieces (the other 2: the chain's steps)

    def first(test) -> float | None:
        return next((t for t, progress, done, _, status in points if test(progress, done, status)), None)

    marks = [
        ("start: Python, Django, the Report row", 0.0),
        ("plan, up to progress 5 (the rows' keys)", first(lambda p, d, s: p >= 1)),
        ("plan: the CSV of every row (5 -> 10)", first(lambda p, d, s: p >= 5)),
        ("pass 1: each piece laid out, its PDF", first(lambda p, d, s: p >= 10)),
        ("pass 2: Page X of Y stamped on each", first(lambda p, d, s: pieces and d >= total - pieces)),
        ("join, hash, publish (95 -> 100)", first(lambda p, d, s: pieces and d >= total)),
        ("exit", first(lambda p, d, s: s == "done")),
    ]
    marks = [(label, t) for label, t in marks if t is not None]
    phases = [(label, marks[i + 1][1] - t) for i, (label, t) in enumerate(marks[:-1])]
    phases.append(("exit", run.seconds - marks[-1][1]))

    def longest(values) -> tuple[float, str]:
        best, where = 0.0, ""
        last_t, last_v = 0.0, None
        for t, value in [*values, (run.seconds, "exit")]:
            if value != last_v:
                if t - last_t > best:
                    best, where = t - last_t, f"{'start' if last_v is None else last_v} -> {value}"
                last_t, last_v = t, value
        return best, where

    # Progress as the reports page shows it (to a tenth of a percent; whole percents before that).
    gap, gap_where = longest([(t, f"{p:.1f} %") for t, p, *_ in points])
    piece_gap, piece_gap_where = longest([(t, f"{d}/{total}") for t, _, d, *_ in points])
    return Steps(phases, gap, gap_where, piece_gap, piece_gap_where, pieces)


# --- main -------------------------------------------------------------------------------------


def main() -> int:
    entries = env_number("BENCH_REPORT_ENTRIES", "100000", quick="10000")
    small = env_number("BENCH_REPORT_SMALL", "10000", quick="2000")
    processes = env_number("BENCH_REPORT_PROCESSES", "2")
    rounds = env_number("BENCH_REPORT_ROUNDS", "1")
    # BENCH_QUICK=1 leaves the large register out: its point is the memory over hours of pages.
    # render_report's 10,000 ("small") is the Celery path's steps in a local pool: left out unless asked.
    skip_default = "small,large" if QUICK else "small"
    skip = {item.strip() for item in os.getenv("BENCH_REPORT_SKIP", skip_default).split(",") if item.strip()}
    keep = os.getenv("BENCH_KEEP") == "1"
    if small >= entries:
        raise SystemExit("BENCH_REPORT_SMALL must be less than BENCH_REPORT_ENTRIES")

    # DATABASE_URL's own database when its name says it is a benchmark's (one of several people's
    # on a shared server), else logbook_bench_report.
    given = database_name(os.getenv("DATABASE_URL") or "")
    url = database_url(given if "bench" in given else DATABASE_NAME)
    name = database_name(url)
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-never-used-outside-bench")
    # The Celery workers' broker: REDIS_URL, else a database of its own on the local Redis.
    os.environ["REDIS_URL"] = os.getenv("REDIS_URL") or "redis://127.0.0.1:6379/11"

    lock = run_lock_or_say(url)
    if lock is None:
        return 2
    # Stopped with SIGTERM as with Ctrl-C: the `finally` clauses end the subprocess being measured
    # (and its pool), release the lock and remove the temporary MEDIA_ROOT.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    media = Path(tempfile.mkdtemp(prefix="bench-report-"))
    os.environ["MEDIA_ROOT"] = str(media)
    try:
        return _main(url, name, media, entries=entries, small=small, processes=processes, rounds=rounds, skip=skip)
    finally:
        lock.close()
        if keep:
            log(f"PDFs kept in {media}")
        else:
            shutil.rmtree(media, ignore_errors=True)


def _main(
    url: str, name: str, media: Path, *, entries: int, small: int, processes: int, rounds: int, skip: set[str]
) -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from compliance.casinos.models import Property
    from inspections.logbook.chain import chain_verify

    meta, seed_seconds = prepare(url, name, entries=entries, small=small)
    prop = Property.objects.get(licence_number=LICENCE)
    chunk = settings.REPORT_CHUNK_ROWS
    log(
        f"{os.cpu_count()} CPUs; {entries:,} entries from {meta['first_day']} to {meta['last_day']}, the first "
        f"{small:,} up to {meta['small_last_day']}; render_report --processes {processes}, REPORT_CHUNK_ROWS {chunk}"
    )
    if seed_seconds is not None:
        started = time.perf_counter()
        verified = chain_verify(property_id=prop.pk)
        log(f"chain_verify after seeding: {verified.as_text()} ({time.perf_counter() - started:.1f} s)")
        if not verified.ok:
            return 1
    pieces: list[Path] = []
    if "baseline" not in skip:
        pieces = baseline_pieces(prop, small, chunk, media / "baseline")
    connection.close()  # the subprocesses use the database; this process only reads the Report rows

    env = dict(os.environ)
    baselines: list[tuple[Run, dict]] = []
    ours: dict[str, list[Run]] = {"small": [], "large": [], "celery": [], "celery1": []}
    checks: dict[int, tuple] = {}  # by Report id

    def baseline() -> bool:
        log(
            f"\nBaseline: bare WeasyPrint, {small:,} rows (every column of the register) as a plain table in "
            f"{len(pieces)} pieces of {chunk} rows, {processes} processes, joined with pypdf, in a subprocess"
        )
        argv = [sys.executable, "-c", BASELINE_SCRIPT, *map(str, pieces), str(media / "baseline.pdf"), str(processes)]
        run = measured("baseline", argv, env)
        if run.returncode != 0:
            log(run.output)
            return False
        info = json.loads(run.output.strip().splitlines()[-1])
        baselines.append((run, info))
        log(
            f"  {run.seconds:.1f} s (import {info['import']:.1f}, layout {info['layout']:.1f}, PDF "
            f"{info['write']:.1f}), {info['pages']:,} pages, peak RSS {run.max_peak_mb:,.0f} MB; {run.load_note}"
        )
        return True

    def kept(key: str, run: Run, row: dict, output: Path) -> None:
        """Our run's PDF checked (then removed), the run kept beside its checks, and said."""
        pages, last_ok, cover_ok, footer = pdf_check(output)
        output.unlink(missing_ok=True)
        checks[run.report_id] = (row, pages, last_ok, cover_ok, footer)
        ours[key].append(run)
        log(
            f"  {run.seconds:.1f} s, {pages:,} pages, rows {row['rows']:,}, last page: {footer!r} "
            f"({'ok' if last_ok else 'WRONG'}), cover: {'intact' if cover_ok else 'NOT INTACT'}; {run.load_note}"
        )

    def render(key: str) -> bool:
        last_day, rows = (meta["small_last_day"], small) if key == "small" else (meta["last_day"], entries)
        log(f"\nOurs: render_report, {rows:,} entries, {processes} processes")
        before = latest_report_id()
        output = media / f"register-{rows}.pdf"
        argv = [sys.executable, str(ROOT / "manage.py"), "render_report", "--property", LICENCE]
        argv += ["--from", str(meta["first_day"]), "--to", str(last_day), "--as", REGULATOR]
        argv += ["--processes", str(processes), "--output", str(output)]
        run = measured(key, argv, env, report_after=before)
        log("  " + run.output.strip().replace("\n", "\n  "))
        if run.returncode != 0 or run.report_id is None:
            return False
        row = report_row(run.report_id)
        kept(key, run, row, output)
        if rows != row["rows"]:
            log(f"  the report has {row['rows']:,} rows, not {rows:,}")
            return False
        return True

    def celery(key: str) -> bool:
        """The register asked for as the reports page asks (report_request), rendered by a Celery
        worker of `processes` (key "celery") or of one (key "celery1") prefork processes on the
        reports queue: the production path. The worker's start is not timed; the time runs from the
        request to the Report row's "done", and the worker is stopped then."""
        from django.db import connection

        from compliance.accounts.models import User
        from config.celery import app
        from inspections.reports.models import Report, ReportKind
        from inspections.reports.services import report_request

        workers = processes if key == "celery" else 1
        name = f"bench-report-{workers}@{socket.gethostname()}"
        log(f"\nOurs: a Celery worker of {workers} process(es) on the reports queue, {small:,} entries")
        app.control.purge()  # nothing left over from an interrupted run
        from inspections.reports.render import failed

        # An interrupted run's reports would count against the regulator's reports waiting at once.
        for left in Report.objects.filter(status__in=("queued", "running")).values_list("pk", flat=True):
            failed(left, "left unfinished by an interrupted benchmark run")
        connection.close()
        before = latest_report_id()
        argv = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "reports", "-n", name]
        argv += ["--concurrency", str(workers), "--pool", "prefork", "-l", "warning", "--without-gossip"]
        argv += ["--without-mingle"]

        def ready() -> bool:
            return bool(app.control.ping(destination=[name], timeout=0.5))

        def then() -> None:
            report_request(
                requested_by=User.objects.get(username=REGULATOR),
                property=prop,
                kind=ReportKind.INSPECTION_REGISTER,
                format="pdf",
                period_from=meta["first_day"],
                period_to=meta["small_last_day"],
            )
            connection.close()

        run = measured(key, argv, env, report_after=before, ready=ready, then=then)
        if run.output.strip():
            log("  " + run.output.strip()[-3000:].replace("\n", "\n  "))
        if run.report_id is None:
            return False
        row = report_row(run.report_id)
        if row["status"] != "done":
            log(f"  report {run.report_id}: {row['status']}: {row['error']}")
            return False
        output = media / Report.objects.get(pk=run.report_id).file.name
        connection.close()
        kept(key, run, row, output)
        return row["rows"] == small

    # The baseline and ours at 10,000 entries alternate who goes first, round by round, so that a
    # slow patch of the shared machine falls on both; then the 100,000-entry register, once.
    sides = {"baseline": baseline, "celery": lambda: celery("celery"), "celery1": lambda: celery("celery1")}
    sides["small"] = lambda: render("small")
    for index in range(rounds):
        order = list(sides) if index % 2 == 0 else list(reversed(sides))
        for side in order:
            if side in skip:
                continue
            if not sides[side]():
                return 1
    if "large" not in skip and not render("large"):
        return 1
    held: list[float] = []
    if "chainlock" not in skip:
        count = env_number("BENCH_CHAIN_LOCK_ENTRIES", "40", quick="15")
        log(f"\nThe chain lock: {count} signed inspections of one table, one after the other, through the service")
        held = chain_lock(prop, count=count)
        log(f"  held {statistics.median(held):.1f} ms (median), {max(held):.1f} ms at most; {load()}")
    return summary(
        baselines,
        ours,
        checks,
        held=held,
        small=small,
        entries=entries,
        seed_seconds=seed_seconds,
        processes=processes,
        chunk=chunk,
    )


def chain_lock(prop, *, count: int) -> list[float]:
    """How long a signed entry holds its property's chain lock (the ChainHead row, FOR UPDATE): from
    the moment that lock is granted to the end of the entry's transaction (its COMMIT), for `count`
    inspections of one table through the service (inspections.logbook.services.inspection_record),
    the signer's password checked with the real hasher (before the lock, so not in these times).
    Every entry of every table of a property waits on that lock, so 1 / this is the property's
    ceiling of signed entries a second. The table (R-08) is set open first, as bench/seed.py sets its
    24-hour table, so that it takes inspection after inspection; the entries are dated now, after
    both registers' periods, which they leave unchanged. In ms."""
    import secrets

    from django.db import connection

    from compliance.accounts.models import User
    from compliance.accounts.signatures import SignatureInput, Unattended
    from compliance.casinos.models import GamingTable, TableState
    from inspections.logbook.models import TableStatus
    from inspections.logbook.services import inspection_record

    table = GamingTable.objects.get(property=prop, number=f"R-{TABLES:02d}")
    TableStatus.objects.filter(table_id=table.pk).update(state=TableState.OPEN, inspection_void_reason="")
    table.refresh_from_db()
    inspector = User.objects.get(username=PEOPLE[0][0])
    password = secrets.token_urlsafe(16)
    inspector.set_password(password)  # the project's hasher, Argon2
    inspector.save(update_fields=["password"])
    items = {item.code: True for item in prop.rulebook().checklist_for(table)}
    granted: list[float] = []

    def watch(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if "logbook_chainhead" in sql and "FOR UPDATE" in sql:
            granted.append(time.perf_counter())
        return result

    held = []
    with connection.execute_wrapper(watch):
        for _ in range(count):
            granted.clear()
            inspection_record(
                table_id=table.pk,
                items=items,
                signature=SignatureInput(username=inspector.username, password=password, request=Unattended("bench")),
                recorded_by=inspector,
            )
            ended = time.perf_counter()  # the service returns when its transaction has committed
            held.append((ended - granted[0]) * 1000)
    inspector.set_unusable_password()
    inspector.save(update_fields=["password"])
    connection.close()
    return held


def latest_report_id() -> int:
    from django.db import connection

    from inspections.reports.models import Report

    found = Report.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    connection.close()
    return found


def report_row(report_id: int) -> dict:
    from django.db import connection

    from inspections.reports.models import Report

    row = Report.objects.values("rows", "pages", "size", "chain_intact", "status", "error").get(pk=report_id)
    connection.close()
    return row


def summary(baselines, ours, checks, *, held, small, entries, seed_seconds, processes, chunk) -> int:
    verdicts = []
    larges = ours["large"]
    # Ours at 10,000: the Celery workers (production's path) when they ran, else render_report.
    key = "celery" if ours["celery"] else "small"
    smalls = ours[key]
    base_time = statistics.median(run.seconds for run, _ in baselines) if baselines else None
    small_time = statistics.median(run.seconds for run in smalls) if smalls else None
    one_time = statistics.median(run.seconds for run in ours["celery1"]) if ours["celery1"] else None
    rounds = max(len(baselines), len(smalls))
    several = f" (median of {rounds} rounds)" if rounds > 1 else ""
    log(f"\nThe register as a PDF: {processes} processes, REPORT_CHUNK_ROWS {chunk}, {os.cpu_count()} CPUs{several}")
    header = f"{'':44} {'rows':>8} {'pages':>6} {'time s':>8} {'peak MB/process':>16} {'tree PSS MB':>12}"
    log(header + "\n" + "-" * len(header))
    if baselines:
        pages = baselines[0][1]["pages"]
        peak = max(run.max_peak_mb for run, _ in baselines)
        pss = max(run.peak_pss_kb for run, _ in baselines) / 1024
        label = f"baseline: bare, pieces, {processes} processes"
        log(f"{label:44} {small:8,} {pages:6,} {base_time:8.1f} {peak:16,.0f} {pss:12,.0f}")
    labels = {
        "celery": f"ours: Celery worker, {processes} processes",
        "celery1": "ours: Celery worker, 1 process",
        "small": f"ours: render_report --processes {processes}",
        "large": f"ours: render_report --processes {processes}",
    }
    for side in ("celery", "celery1", "small", "large"):
        runs = ours[side]
        if runs:
            rows = entries if side == "large" else small
            pages = checks[runs[0].report_id][1]
            peak = max(run.max_peak_mb for run in runs)
            pss = max(run.peak_pss_kb for run in runs) / 1024
            seconds = statistics.median(run.seconds for run in runs)
            log(f"{labels[side]:44} {rows:8,} {pages:6,} {seconds:8.1f} {peak:16,.0f} {pss:12,.0f}")
    log(
        "peak MB/process: the largest peak RSS (VmHWM) of any one process of the run; tree PSS: all its processes "
        "together (shared pages counted once), the largest sample"
    )

    log("\nGoals")
    checks_of_goal = []
    if baselines and smalls:
        ratio = small_time / base_time
        verdicts.append(ratio <= GOAL_RATIO)
        log(
            f"  {small:,} entries, time {labels[key]} / baseline: {small_time:.1f} / {base_time:.1f} s = "
            f"{ratio:.2f} (goal <= {GOAL_RATIO}) {'ok' if ratio <= GOAL_RATIO else 'ABOVE GOAL'}"
            + (
                "; round by round: "
                + ", ".join(f"{o.seconds / b.seconds:.2f}" for o, (b, _) in zip(smalls, baselines, strict=False))
                if rounds > 1
                else ""
            )
        )
        ours_peak = max(run.max_peak_mb for run in smalls)
        base_peak = max(run.max_peak_mb for run, _ in baselines)
        log(
            f"  {small:,} entries, peak per process ours / baseline: {ours_peak:,.0f} / {base_peak:,.0f} MB = "
            f"{ours_peak / base_peak:.2f}"
        )
    if small_time is not None and one_time is not None:
        ratio = small_time / one_time
        verdicts.append(ratio <= GOAL_SCALE_OUT)
        log(
            f"  {small:,} entries, {processes} worker processes / 1: {small_time:.1f} / {one_time:.1f} s = {ratio:.2f}, "
            f"a speed-up of {one_time / small_time:.2f} (goal <= {GOAL_SCALE_OUT}) "
            f"{'ok' if ratio <= GOAL_SCALE_OUT else 'ABOVE GOAL'}"
        )
    if larges:
        large = larges[0]
        peak = large.max_peak_mb
        verdicts.append(peak <= GOAL_MB)
        log(
            f"  {entries:,} entries, peak of each process: at most {peak:,.0f} MB (goal <= {GOAL_MB}) "
            f"{'ok' if peak <= GOAL_MB else 'ABOVE GOAL'}"
        )
        found = steps(large)
        verdicts.append(found.gap <= GOAL_GAP)
        log(
            f"  {entries:,} entries, longest time progress stood still: {found.gap:.1f} s ({found.gap_where}) "
            f"(goal <= {GOAL_GAP:g}) {'ok' if found.gap <= GOAL_GAP else 'ABOVE GOAL'}"
        )
        checks_of_goal += [
            goal("register_pdf_100k_peak_mb", figure=peak, baseline=GOAL_MB, target=1.0, unit="MB", rows=entries),
            goal("register_pdf_100k_progress_gap", figure=found.gap, baseline=GOAL_GAP, target=1.0, unit="s"),
        ]
    every_run = [run for side in ("celery", "celery1", "small", "large") for run in ours[side]]
    printed_ok = True
    for run in every_run:
        row, pages, last_ok, cover_ok, footer = checks[run.report_id]
        printed_ok = printed_ok and last_ok and cover_ok and bool(row["chain_intact"])
        log(
            f"  report {run.report_id}, {row['rows']:,} entries: {pages:,} pages, last page {footer!r} "
            f"{'ok' if last_ok else 'WRONG'}; chain "
            f"{ {True: 'intact', False: 'BROKEN', None: 'not verified'}[row['chain_intact']] } on the cover"
        )
    verdicts.append(printed_ok)
    if every_run:
        checks_of_goal.append(
            goal("register_pdf_page_x_of_y", figure=1.0 if printed_ok else 2.0, baseline=1.0, target=1.0)
            | {"note": "every report: 'Page N of N' on its last page, 'Verified: intact' on its cover"}
        )

    for run in every_run:
        rows = entries if run.label == "large" else small
        found = steps(run)
        log(
            f"\nOurs, {labels[run.label]}, {rows:,} entries (report {run.report_id}): {run.seconds:.1f} s, "
            f"{found.pieces - 1} pieces of up to {chunk} rows and the cover"
        )
        log("  steps (from the Report row's progress, polled every 0.5 s):")
        for label, seconds in found.phases:
            log(f"    {label:42} {seconds:7.1f} s")
        log(
            f"  longest time progress stood still: {found.gap:.1f} s ({found.gap_where}); "
            f"no piece finished for at most {found.piece_gap:.1f} s ({found.piece_gap_where})"
        )
        log("  processes (peak RSS, VmHWM):")
        for pid, kb in sorted(run.peak_kb.items()):
            log(f"    {pid:>7} {run.role[pid]:24} {kb / 1024:8,.0f} MB")
        log(f"    wait4 ru_maxrss of the tree: {run.tree_maxrss_kb / 1024:,.0f} MB")
        log(f"  {run.load_note}")
    for run, info in baselines:
        log(
            f"\nBaseline: {run.seconds:.1f} s in all, of which the imports {info['import']:.1f} s, "
            f"the pieces laid out and written {info['layout']:.1f} s, joined {info['write']:.1f} s; "
            f"{run.seconds / small * 1000:.1f} ms a row; "
            f"peak RSS {run.max_peak_mb:,.0f} MB; {run.load_note}"
        )
    lock_ms = statistics.median(held) if held else None
    if held:
        held_sorted = sorted(held)
        p90 = held_sorted[int(0.9 * (len(held_sorted) - 1))]
        log(
            f"\nThe chain lock of a signed entry (an inspection; {len(held)} in a row): held {lock_ms:.1f} ms "
            f"(median), {p90:.1f} ms (90th percentile): a property's ceiling is about {1000 / lock_ms:.0f} signed "
            f"entries a second whatever the machines, its entries queueing on that one row"
        )
    if seed_seconds is not None:
        log(f"Seeding this run: {seed_seconds:.1f} s")
    measured_note = "" if small_time is not None and base_time is not None else "not measured in this run"
    goals_write(
        "report",
        [
            goal(
                "register_pdf_10k",
                figure=small_time,
                baseline=base_time,
                target=GOAL_RATIO,
                unit="s",
                rows=small,
                ours=labels[key],
                processes=processes,
                chunk_rows=chunk,
                note=measured_note,
            ),
            *({**check, "part_of": "register_pdf_10k"} for check in checks_of_goal),
            goal(
                "scale_out_workers",
                figure=small_time if key == "celery" else None,
                baseline=one_time,
                target=GOAL_SCALE_OUT,
                unit="s",
                rows=small,
                note=f"the register's time with a Celery worker of {processes} processes / of 1"
                + ("" if one_time is not None and key == "celery" else ": not measured in this run"),
                chain_lock_ms=None if lock_ms is None else round(lock_ms, 2),
                property_ceiling_entries_per_s=None if lock_ms is None else round(1000 / lock_ms, 1),
            ),
        ],
    )
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
