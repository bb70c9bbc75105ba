"""A week's register from a long logbook, request to download link (issue 22, goal 1).

    .venv/bin/python bench/week.py

1. **One database, `bench_week`** on DATABASE_URL's server (bench/common.py), migrated with
   bench.settings, holding one property per size: a logbook of BENCH_WEEK_SIZES entries (100,000 and
   1,000,000; quick 100,000 and 200,000) and the baseline's, which holds only about a week of
   entries. Each chain is per property, so the properties do not disturb each other, and one Celery
   worker serves them all. **The database is kept between runs** with its checkpoint key ring
   (`bench/results/week-keys/`, git-ignored, a benchmark-only key): a property already seeded (its
   row in `bench_week_meta`, written in the seeding's transaction) is reused as long as the schema's
   migrations and the key are those it was seeded with; otherwise the database is made afresh.
2. **Seeding, fast.** A history of 45 entries a day at five tables (unlock, an adjustment signed by
   two people or a no-spin, inspection, open, three no-spins, close, cover), hashed and chained in
   Python with inspections.logbook.chain's own functions (`body_of`, `body_hash`,
   `signature_record_of`, `record_hash`) and written with COPY. Beside it, the checkpoints production's
   beat would have left: one at every five-minute tick in which the logbook grew, signed with the
   ring's key (`checkpoints.checkpoint_message`), about one per entry. The last entry is yesterday's.
3. **The measure.** The week ending on the last entry's day (about 315 entries): `POST /api/reports/`
   (the compliance manager's token, Django's whole request stack in this process), a Celery worker
   (its own processes, `--concurrency` 2, the reports and control queues on Redis) plans it, signs
   its checkpoint, verifies the chain from the newest checkpoint before the week, renders and signs
   the PDF; this process polls `GET /api/reports/<id>/` every 50 ms until it answers a `download`
   link. Rounds alternate the sizes and the baseline (BENCH_ROUNDS, 3; quick 2); the median of each.
4. **Goals.** `week_register_100k` and `week_register_1m`: each size's median seconds against the
   baseline's (the same pipeline for a week from a logbook holding only that week: what the period's
   rows cost alone), ratio at most 1.25 (the time grows with the period, not with the history), with
   the check `…_seconds` (part of it): the median at most 3 s. BENCH_QUICK's larger size stands in
   for 1,000,000 and says so. Also printed: the verification's own rows read (`chain_rows_read`) and
   where it started.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    QUICK,
    RESULTS,
    database_migrated,
    database_name,
    database_switch,
    database_url,
    env_number,
    goal,
    goals_write,
    load,
    log,
    run_lock_or_say,
    timed,
)

KEYS = RESULTS / "week-keys"
TABLES = 5
PER_TABLE_DAY = 9  # unlock, adjustment or no-spin, inspection, open, 3 no-spins, close, cover
BASELINE_ENTRIES = 7 * TABLES * PER_TABLE_DAY + 3 * TABLES  # a week and a little
BATCH = 20_000
TICK = timedelta(minutes=5)
EPOCH = datetime(1900, 1, 1, tzinfo=UTC)
SECONDS_GOAL = 3.0
RATIO_GOAL = 1.25
POLL = 0.05
# Which property holds which size, seeded when, with which schema and key: a kept seeding is reused only
# while they are this run's.
META_CREATE = (
    "CREATE TABLE IF NOT EXISTS bench_week_meta (name text PRIMARY KEY, entries bigint, checkpoints bigint,"
    " stamp text, key_id text, property_id bigint, token text)"
)


def sizes() -> list[int]:
    raw = os.getenv("BENCH_WEEK_SIZES") or ("100000,200000" if QUICK else "100000,1000000")
    try:
        values = [int(value) for value in raw.split(",")]
    except ValueError:
        raise SystemExit(f"BENCH_WEEK_SIZES is a comma-separated list of entry counts, not {raw!r}") from None
    return values


def label(size: int) -> str:
    return f"{size // 1_000_000}m" if size % 1_000_000 == 0 else f"{size // 1000}k"


# --- seeding -----------------------------------------------------------------------------------


def schema_stamp() -> str:
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    return ",".join(sorted(f"{app}.{name}" for app, name in loader.graph.leaf_nodes()))


def days_of(count: int) -> int:
    return -(-count // (TABLES * PER_TABLE_DAY))


def history(*, tables, people, count: int, last_day: date):
    """`count` events in time order, 45 a day, the last day being `last_day` (UTC)."""
    from bench.seed import EVENT_DESCRIPTIONS, IRREGULARITY_LABELS, ITEMS
    from inspections.logbook.models import EntryKind, SignatureMeaning

    def no_spin() -> dict:
        return {"irregularity": rng.choice(list(IRREGULARITY_LABELS)), "ball_replaced": False, "notes": ""}

    rng = random.Random(count)  # the same history for the same size, every run
    floor, security, maintenance = people["floorperson"], people["security"], people["maintenance"]
    recorded, inspected = [(floor, SignatureMeaning.RECORDED)], [(floor, SignatureMeaning.INSPECTED)]
    adjusted = [(maintenance, SignatureMeaning.PERFORMED), (security, SignatureMeaning.WITNESSED)]
    first_day = last_day - timedelta(days=days_of(count) - 1)
    made = 0
    day = first_day
    while made < count:
        events = []
        for index, table in enumerate(tables):
            t0 = datetime(day.year, day.month, day.day, 12, tzinfo=UTC) + timedelta(minutes=7 * index)

            def add(at, kind, signers, description, passed=None, details=None, table=table, events=events):
                events.append((at, table.number, table, kind, signers, description, passed, details or {}))

            add(t0, EntryKind.UNLOCK, recorded, EVENT_DESCRIPTIONS[EntryKind.UNLOCK])
            if rng.random() < 0.1:
                add(
                    t0 + timedelta(minutes=3),
                    EntryKind.ADJUSTMENT,
                    adjusted,
                    "Ball track cleaned",
                    None,
                    {"part": "rotor"},
                )
            else:
                minute = rng.randint(10, 700)
                add(t0 + timedelta(minutes=minute), EntryKind.IRREGULARITY, recorded, "No spin", None, no_spin())
            add(t0 + timedelta(minutes=5), EntryKind.INSPECTION, inspected, "Inspection passed", True,
                {"items": dict(ITEMS), "notes": ""})  # fmt: skip
            add(t0 + timedelta(minutes=6), EntryKind.OPEN, recorded, EVENT_DESCRIPTIONS[EntryKind.OPEN])
            for _ in range(3):
                minute, second = rng.randint(10, 700), rng.randint(0, 59)
                add(t0 + timedelta(minutes=minute, seconds=second), EntryKind.IRREGULARITY, recorded, "No spin",
                    None, no_spin())  # fmt: skip
            add(t0 + timedelta(hours=12), EntryKind.CLOSE, recorded, EVENT_DESCRIPTIONS[EntryKind.CLOSE])
            add(t0 + timedelta(hours=12, minutes=5), EntryKind.COVER, recorded, EVENT_DESCRIPTIONS[EntryKind.COVER])
        events.sort(key=lambda event: (event[0], event[1]))
        yield from events[: count - made]
        made += len(events)
        day += timedelta(days=1)


def seed_property(name: str, count: int, *, key, last_day: date, stamp: str) -> None:
    """One property's logbook of `count` chained entries and its beat checkpoints, in one transaction."""
    from django.db import connection, transaction
    from knox.models import AuthToken
    from psycopg.types.json import Jsonb

    from compliance.accounts.models import Role, User
    from compliance.casinos.models import Game, GamingTable, Jurisdiction, Property, WheelType
    from inspections.logbook import chain, checkpoints
    from inspections.logbook.models import ChainHead

    started = time.perf_counter()
    with transaction.atomic():
        prop = Property.objects.create(
            name=name, licence_number=f"PA-{name.upper().replace(' ', '-')}", jurisdiction=Jurisdiction.PA,
            time_zone="America/New_York",
        )  # fmt: skip
        tables = [
            GamingTable.objects.create(property=prop, number=f"R-{n:02d}", game=Game.ROULETTE,
                                       wheel_type=WheelType.DOUBLE_ZERO, has_external_movable_parts=True)
            for n in range(1, TABLES + 1)
        ]  # fmt: skip
        people = {}
        for role in (Role.FLOORPERSON, Role.SECURITY, Role.MAINTENANCE, Role.COMPLIANCE):
            user = User(username=f"{name.lower().replace(' ', '-')}-{role}", full_name=f"{name} {Role(role).label}",
                        role=role, credential_number=f"WEEK-{prop.pk}-{role.upper()}", property=prop)  # fmt: skip
            user.set_unusable_password()  # nobody signs here: the register is read through a token
            user.save()
            people[str(role)] = user
        _, token = AuthToken.objects.create(user=people["compliance"], expiry=timedelta(days=3650))
        with connection.cursor() as cursor:
            cursor.execute("SELECT COALESCE(MAX(id), 0) FROM logbook_entry")
            base = cursor.fetchone()[0]
        raw = connection.connection
        entries, signatures, marks = [], [], []
        prev_hash, seq, checkpoint_seq = chain.GENESIS, 0, 0
        pending_tick = None

        def flush() -> None:
            with raw.cursor() as cur:
                with cur.copy(
                    "COPY logbook_entry (id, property_id, seq, table_id, table_number, kind, occurred_at, recorded_at,"
                    " recorded_by_id, description, passed, details, amends_id, prev_hash, entry_hash) FROM STDIN"
                ) as copy:
                    for row in entries:
                        copy.write_row(row)
                with cur.copy(
                    "COPY logbook_signature (entry_id, signer_id, signer_name, credential_number, meaning, signed_at,"
                    " content_hash) FROM STDIN"
                ) as copy:
                    for row in signatures:
                        copy.write_row(row)
                with cur.copy(
                    "COPY logbook_checkpoint (property_id, licence_number, jurisdiction, seq, entry_id, entry_seq, head,"
                    " signed_at, reason, key_id, signature, timestamp_token, timestamp_note) FROM STDIN"
                ) as copy:
                    for row in marks:
                        copy.write_row(row)
            entries.clear()
            signatures.clear()
            marks.clear()

        def checkpoint(tick: datetime) -> None:
            nonlocal checkpoint_seq
            checkpoint_seq += 1
            signed_at = tick + timedelta(seconds=1)
            message = checkpoints.checkpoint_message(property_id=prop.pk, licence=prop.licence_number,
                                                     jurisdiction=prop.jurisdiction, seq=checkpoint_seq, entry_seq=seq,
                                                     head=prev_hash, signed_at=signed_at, key_id=key.key_id)  # fmt: skip
            signature = key.private_key.sign(message).hex()
            marks.append((prop.pk, prop.licence_number, prop.jurisdiction, checkpoint_seq, base + seq, seq, prev_hash,
                          signed_at, "interval", key.key_id, signature, None,
                          "no timestamp authority is configured (LOGBOOK_TSA_URL)"))  # fmt: skip

        for at, number, table, kind, signers, description, passed, details in history(
            tables=tables, people=people, count=count, last_day=last_day
        ):
            recorded_at = at + timedelta(seconds=30)
            tick = EPOCH + TICK * -(-(recorded_at - EPOCH) // TICK)  # beat's next run after the entry
            if pending_tick is not None and tick != pending_tick:
                checkpoint(pending_tick)
            pending_tick = tick
            seq += 1
            row = {
                "property_id": prop.pk, "seq": seq, "table_id": table.pk, "table_number": number, "kind": str(kind),
                "occurred_at": at, "recorded_at": recorded_at, "recorded_by_id": signers[0][0].pk,
                "description": description, "passed": passed, "details": details, "amends_id": None,
            }  # fmt: skip
            body = chain.body_of(row)
            signed_content = chain.body_hash(body)
            records = [
                {"signer_id": user.pk, "signer_name": user.display_name, "credential_number": user.credential_number,
                 "meaning": str(meaning), "signed_at": recorded_at, "content_hash": signed_content}
                for user, meaning in signers
            ]  # fmt: skip
            entry_hash = chain.record_hash(
                prev_hash=prev_hash, body=body, signatures=[chain.signature_record_of(r) for r in records]
            )
            entries.append((base + seq, prop.pk, seq, table.pk, number, str(kind), at, recorded_at,
                            signers[0][0].pk, description, passed, Jsonb(details), None, prev_hash, entry_hash))  # fmt: skip
            signatures.extend((base + seq, r["signer_id"], r["signer_name"], r["credential_number"], r["meaning"],
                               r["signed_at"], r["content_hash"]) for r in records)  # fmt: skip
            prev_hash = entry_hash
            if len(entries) >= BATCH:
                flush()
                log(f"    {seq:,} entries")
        checkpoint(pending_tick)
        flush()
        with connection.cursor() as cursor:
            cursor.execute("SELECT setval(pg_get_serial_sequence('logbook_entry', 'id'), MAX(id)) FROM logbook_entry")
            cursor.execute(
                "INSERT INTO bench_week_meta (name, entries, checkpoints, stamp, key_id, property_id, token)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                [name, count, checkpoint_seq, stamp, key.key_id, prop.pk, token],
            )
        ChainHead.objects.create(property=prop, length=seq, head=prev_hash)
    log(f"  seeded {name}: {count:,} entries, {checkpoint_seq:,} checkpoints, in {time.perf_counter() - started:.0f} s")


def seeded(name: str, count: int, *, key, stamp: str) -> dict | None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT property_id, token, checkpoints FROM bench_week_meta WHERE name = %s AND entries = %s"
            " AND stamp = %s AND key_id = %s",
            [name, count, stamp, key.key_id],
        )
        row = cursor.fetchone()
    return {"property_id": row[0], "token": row[1], "checkpoints": row[2]} if row else None


# --- the measure -------------------------------------------------------------------------------


class Worker:
    """A Celery worker of the project, in processes of its own, on the benchmark's Redis database."""

    def __init__(self, env: dict[str, str]):
        self.log = (RESULTS / "week-worker.log").open("w")
        argv = [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", "reports,control",
                "--concurrency", os.getenv("BENCH_WEEK_CONCURRENCY", "2"), "--pool", "prefork",
                "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"]  # fmt: skip
        self.process = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)

    def cpu(self) -> float:
        """CPU seconds (user + system) the worker and its pool's processes have used so far (Linux
        /proc): a report's share of the machine, which a busy machine's other processes do not inflate."""
        parents, times = {}, {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid = int(stat.parent.name)
            parents[pid], times[pid] = int(fields[1]), int(fields[11]) + int(fields[12])
        tree, grown = {self.process.pid}, True
        while grown:
            more = {pid for pid, parent in parents.items() if parent in tree} - tree
            tree |= more
            grown = bool(more)
        return sum(times.get(pid, 0) for pid in tree) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def week_of(property_id: int) -> tuple[date, date]:
    from compliance.casinos.clock import local_date
    from compliance.casinos.models import Property
    from inspections.logbook.models import Entry

    prop = Property.objects.get(pk=property_id)
    last = Entry.objects.filter(property_id=property_id).order_by("-seq").values_list("occurred_at", flat=True)[0]
    end = local_date(last, prop.zone)
    return end - timedelta(days=6), end


def requested_to_link(
    client, *, property_id: int, token: str, week: tuple[date, date], timeout: float
) -> tuple[float, int]:
    """POST the request, poll until the API gives the download link: the seconds, and the report's id."""
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"}
    body = {"kind": "inspection_register", "property": property_id, "from": week[0].isoformat(),
            "to": week[1].isoformat(), "format": "pdf"}  # fmt: skip
    started = time.perf_counter()
    answer = client.post("/api/reports/", body, content_type="application/json", **headers)
    if answer.status_code != 201:
        raise SystemExit(f"POST /api/reports/ answered {answer.status_code}: {answer.content[:500]!r}")
    report_id = answer.json()["id"]
    while time.perf_counter() - started < timeout:
        shown = client.get(f"/api/reports/{report_id}/", **headers).json()
        if shown.get("download"):
            return time.perf_counter() - started, report_id
        if shown.get("status") == "failed":
            raise SystemExit(f"report {report_id} failed: {shown.get('error')}")
        time.sleep(POLL)
    raise SystemExit(
        f"report {report_id} gave no download link in {timeout:.0f} s (is the worker up? see {RESULTS / 'week-worker.log'})"
    )


def main() -> int:
    rounds = env_number("BENCH_ROUNDS", "3", quick="2")
    timeout = env_number("BENCH_WEEK_TIMEOUT", "300", float)
    wanted = sizes()
    url = database_url("bench_week")
    name = database_name(url)
    media = RESULTS / "week-media"
    media.mkdir(parents=True, exist_ok=True)
    KEYS.mkdir(parents=True, exist_ok=True)
    from config import keyring

    ring = KEYS / "ring.json"
    if not ring.exists():
        # Valid from long before the oldest seeded entry (a million entries at 45 a day: 61 years).
        keyring.checkpoint_key_add(ring, now=datetime(1940, 1, 1, tzinfo=UTC))
        keyring.report_certificate_make(KEYS / "report.key", KEYS / "report.pem", common_name="Bench Week Casino",
                                        now=datetime.now(UTC) - timedelta(days=1))  # fmt: skip
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "LOGBOOK_CHECKPOINT_KEYRING": str(ring),
        "LOGBOOK_REPORT_SIGNING_KEY": str(KEYS / "report.key"),
        "LOGBOOK_REPORT_SIGNING_CERT": str(KEYS / "report.pem"),
        "LOGBOOK_TSA_URL": "",
        "MEDIA_ROOT": str(media),
        "REDIS_URL": os.getenv("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7"),
    }
    os.environ.update(env)
    lock = run_lock_or_say(url)
    if lock is None:
        return 2
    log(f"bench/week.py: {load()}")
    version = database_migrated(url)
    from django.db import connection, connections
    from django.test import Client

    from inspections.logbook.checkpoints import checkpoint_keys
    from inspections.reports.models import Report

    stamp = schema_stamp()
    with connection.cursor() as cursor:
        cursor.execute(META_CREATE)
        cursor.execute("SELECT name FROM bench_week_meta WHERE stamp <> %s", [stamp])
        stale = cursor.fetchall()
    if stale:
        log(f"The schema changed since {[row[0] for row in stale]} were seeded: {name} is made afresh")
        database_switch(url, name, fresh=True)
        with connection.cursor() as cursor:
            cursor.execute(META_CREATE)
    (key,) = [k for k in checkpoint_keys() if k.private_key is not None][:1]
    last_day = datetime.now(UTC).date() - timedelta(days=1)
    sides: dict[str, dict] = {}
    for side, count in [("baseline", BASELINE_ENTRIES)] + [(label(size), size) for size in wanted]:
        prop_name = f"Week {label(count) if side != 'baseline' else 'baseline'} {count}"
        found = seeded(prop_name, count, key=key, stamp=stamp)
        if found is None:
            log(f"Seeding {prop_name}: {count:,} entries")
            seed_property(prop_name, count, key=key, last_day=last_day, stamp=stamp)
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE logbook_entry")
                cursor.execute("VACUUM ANALYZE logbook_signature")
                cursor.execute("VACUUM ANALYZE logbook_checkpoint")
            found = seeded(prop_name, count, key=key, stamp=stamp)
        else:
            log(f"Reusing {prop_name} ({count:,} entries, {found['checkpoints']:,} checkpoints)")
        sides[side] = {
            **found,
            "entries": count,
            "week": week_of(found["property_id"]),
            "seconds": [],
            "cpu": [],
            "reports": [],
        }
    connections.close_all()

    worker = Worker(env)
    client = Client(HTTP_HOST="localhost")
    try:
        time.sleep(3)
        # A warm-up report of each side: the worker's processes import WeasyPrint and open connections.
        for side in sides.values():
            requested_to_link(
                client, property_id=side["property_id"], token=side["token"], week=side["week"], timeout=timeout
            )
        names = list(sides)
        for index in range(rounds):
            for side_name in names if index % 2 == 0 else list(reversed(names)):
                side = sides[side_name]
                cpu_before = worker.cpu()
                seconds, report_id = requested_to_link(
                    client, property_id=side["property_id"], token=side["token"], week=side["week"], timeout=timeout
                )
                side["seconds"].append(seconds)
                side["cpu"].append(worker.cpu() - cpu_before)
                side["reports"].append(report_id)
                log(
                    f"  round {index + 1}/{rounds} {side_name:9} {seconds:6.2f} s, the worker's CPU {side['cpu'][-1]:5.2f} s"
                )
    finally:
        worker.stop()

    # The verification alone, in this process (what the report's `verify` step does), and once, for the
    # first size, the whole chain from entry #1 as verify_logbook walks it (what every report did before).
    from inspections.logbook.chain import chain_verify, chain_verify_period
    from inspections.reports.render import period_seqs

    for side in sides.values():
        report = Report.objects.select_related("checkpoint").get(pk=side["reports"][-1])
        first_seq, last_seq = period_seqs(report)
        side["verify_ms"] = statistics.median(
            timed(chain_verify_period, property_id=side["property_id"], first_seq=first_seq, last_seq=last_seq,
                  end=report.checkpoint)[1]
            for _ in range(5)
        )  # fmt: skip
    first_side = sides[label(wanted[0])]
    full, full_ms = timed(chain_verify, property_id=first_side["property_id"])
    log(f"The whole chain of {first_side['entries']:,} entries from entry #1 (verify_logbook): {full_ms / 1000:.1f} s, "
        f"{full.rows_read:,} rows read, {full.checkpoints_checked:,} checkpoints checked")  # fmt: skip

    lines = [
        f"{'logbook':10} {'entries':>10} {'week':>23} {'rows':>5} {'read':>5} {'from':>22} {'verify ms':>9} "
        f"{'CPU s':>6} {'median s':>9} {'ratio':>6}"
    ]
    baseline = statistics.median(sides["baseline"]["seconds"])
    results = {}
    for side_name, side in sides.items():
        report = Report.objects.select_related("chain_from").get(pk=side["reports"][-1])
        median = statistics.median(side["seconds"])
        start = (
            f"checkpoint #{report.chain_from.seq} (#{report.chain_from.entry_seq})"
            if report.chain_from
            else "the first entry"
        )
        lines.append(
            f"{side_name:10} {side['entries']:>10,} {side['week'][0]} – {side['week'][1]} {report.rows:>5} "
            f"{report.chain_rows_read or 0:>5} {start:>22} {side['verify_ms']:9.1f} {statistics.median(side['cpu']):6.2f} {median:9.2f} {median / baseline:6.2f}"
        )
        results[side_name] = {
            "entries": side["entries"], "checkpoints": side["checkpoints"], "week": [d.isoformat() for d in side["week"]],
            "rows": report.rows, "pages": report.pages, "chain_rows_read": report.chain_rows_read,
            "chain_from_checkpoint": report.chain_from.seq if report.chain_from else None,
            "chain_intact": report.chain_intact, "seconds": [round(s, 3) for s in side["seconds"]],
            "median_seconds": round(median, 3), "worker_cpu_seconds": [round(c, 2) for c in side["cpu"]], "verify_ms": round(side["verify_ms"], 1),
        }  # fmt: skip
    log("\n" + "\n".join(lines))
    log(f"(PostgreSQL {version}; {load()})")

    results["full_chain"] = {
        "entries": first_side["entries"],
        "seconds": round(full_ms / 1000, 2),
        "rows_read": full.rows_read,
    }
    goals = []
    # The first size is the 100,000-entry goal's, the last the 1,000,000-entry goal's (any between are printed only).
    for goal_name, side_name in (("week_register_100k", label(wanted[0])), ("week_register_1m", label(wanted[-1]))):
        side = results[side_name]
        stand_in = goal_name == "week_register_1m" and side["entries"] != 1_000_000
        note = f"BENCH_QUICK: {side['entries']:,} entries stand in for 1,000,000" if stand_in else ""
        common = {
            "unit": "s",
            "entries": side["entries"],
            "rows": side["rows"],
            "chain_rows_read": side["chain_rows_read"],
        }
        goals.append(goal(goal_name, figure=side["median_seconds"], baseline=results["baseline"]["median_seconds"],
                          target=RATIO_GOAL, note=note, baseline_is="the same pipeline for the same kind of week "
                          "from a logbook holding only about that week", **common))  # fmt: skip
        goals.append(goal(f"{goal_name}_seconds", figure=side["median_seconds"], baseline=SECONDS_GOAL, target=1.0,
                          part_of=goal_name, baseline_is="the 3 s limit", **common))  # fmt: skip
    goals_write("week", goals)
    (RESULTS / "week.json").write_text(
        json.dumps(
            {
                "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "load": load(),
                "quick": QUICK,
                "rounds": rounds,
                "sides": results,
                "goals": goals,
            },
            indent=2,
        )
        + "\n"
    )
    log(f"Written to {(RESULTS / 'week.json').relative_to(ROOT)}")
    lock.close()
    return 0 if all(entry["met"] for entry in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
