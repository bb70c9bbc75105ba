"""The signed POST's own work, with the password hash taken out: a profile, not the benchmark.

    .venv/bin/python bench/post_profile.py

bench/run.py compares `POST /api/inspections/` with a bare DRF POST under gunicorn with the real
password hasher (Argon2) on both sides; the hash is most of either request, so that ratio says
little about the logbook's own work. This bench mode takes the hash out of both sides alike
(bench/profile_settings.py: MD5, as the tests use) and measures, in one process through Django's
whole request stack (middleware, authentication, the throttle, the view, the service):

- the logbook: `POST /api/inspections/` to the 24-hour table (the table lock, the rules, the hash
  chain, the signature, the table's state and deadlines);
- the baseline: `POST /bench/baseline/`, a plain ModelSerializer.save() of a row as wide as an entry,
  after the same password check.

Rounds alternate the two sides. It prints each side's median milliseconds a request, their ratio
(goal: at most 1.25) and each side's queries (goal: at most 12 for the logbook), the statements
themselves with BENCH_SHOW_QUERIES=1, and a cProfile of the logbook's requests with BENCH_CPROFILE=1.

Environment: BENCH_ROUNDS (default 6), BENCH_REPEATS (requests per side and round, default 40),
BENCH_ENTRIES (the logbook's history, default 5000), DATABASE_URL (the server; the database is
bench_post_profile, dropped and created afresh).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    alternated,
    client,
    counted,
    env_number,
    goal,
    goals_write,
    in_process,
    load,
    log,
    median,
)

GOAL_RATIO = 1.25
GOAL_QUERIES = 12


def main() -> int:
    rounds = env_number("BENCH_ROUNDS", "6", quick="4")
    repeats = env_number("BENCH_REPEATS", "40", quick="25")
    entries = env_number("BENCH_ENTRIES", "5000", quick="2000")
    lock = in_process("bench_post_profile", "bench.profile_settings")
    if lock is None:
        return 2

    from bench.run import scenarios
    from bench.seed import seed

    seeded = seed(entries=entries, log=lambda message: None)
    (post_name, logbook, baseline), _ = scenarios(seeded)
    browser = client(token=seeded.token)

    def poster(side):
        def post():
            response = browser.post(side.request.path, side.request.body, content_type="application/json")
            assert response.status_code == 201, (response.status_code, response.content[:500])

        return post

    sides = {"logbook": poster(logbook), "baseline": poster(baseline)}
    for post in sides.values():  # warm-up: imports, caches, the first connection
        for _ in range(5):
            post()
    queries = {name: counted(post)[1] for name, post in sides.items()}
    if os.getenv("BENCH_SHOW_QUERIES"):
        for name, statements in queries.items():
            log(f"\n{name}: {len(statements)} queries")
            for sql in statements:
                log("  " + (sql if os.getenv("BENCH_SHOW_QUERIES") == "full" else sql[:160]))
    if os.getenv("BENCH_CPROFILE"):
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(lambda: [sides["logbook"]() for _ in range(repeats)])
        pstats.Stats(profile).sort_stats(os.getenv("BENCH_CPROFILE_SORT", "cumulative")).print_stats(40)

    times = alternated(sides, rounds=rounds, repeats=repeats)
    ours, bare = median(times["logbook"]), median(times["baseline"])
    ratio = ours / bare
    log(f"\n{post_name} without the password hash (MD5 on both sides): {rounds} rounds of {repeats}; {load()}")
    log(f"{'':10} {'median ms':>10} {'queries':>8}")
    for name in sides:
        log(f"{name:10} {median(times[name]):10.2f} {len(queries[name]):8}")
    log(f"ratio logbook / baseline: {ratio:.2f} (goal <= {GOAL_RATIO}) {'ok' if ratio <= GOAL_RATIO else 'ABOVE GOAL'}")
    count = len(queries["logbook"])
    log(f"the logbook's queries: {count} (goal <= {GOAL_QUERIES}) {'ok' if count <= GOAL_QUERIES else 'ABOVE GOAL'}")
    goals_write(
        "post_profile",
        [
            goal(
                "signed_post_own_work",
                figure=ours,
                baseline=bare,
                target=GOAL_RATIO,
                unit="ms",
                note="a profile: in-process, the password hash taken out of both sides (MD5)",
            ),
            goal(
                "signed_post_queries",
                figure=count,
                baseline=len(queries["baseline"]),
                target=GOAL_QUERIES / len(queries["baseline"]),
                unit="queries",
                part_of="signed_post_own_work",
                note=f"at most {GOAL_QUERIES} queries: the target is {GOAL_QUERIES} / the baseline's count",
                statements=[sql.split(None, 1)[0] for sql in queries["logbook"]],
            ),
        ],
    )
    lock.close()
    return 0 if ratio <= GOAL_RATIO and count <= GOAL_QUERIES else 1


if __name__ == "__main__":
    sys.exit(main())
