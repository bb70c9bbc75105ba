"""The last step of `make bench`: bench/results/summary.json, one object per goal of the performance issue.

    .venv/bin/python bench/summary.py

Each benchmark script leaves the goals it measured in bench/results/goals/<script>.json
(bench.common.goals_write). This lists the seven goals in order, each as
`{"goal", "figure", "baseline", "ratio", "target", "met", …}`; a goal no script measured in this run
is still listed, `met: false`, with a `note` saying why. A measurement that is a condition of
another goal (`part_of`) is listed in that goal's `checks`, and the goal is met only if they all are.
It prints the table and exits 1 when a goal is unmet.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import GOALS, QUICK, RESULTS, load, log  # noqa: E402

# The goals, in the order, and what stands in the way of those not measured yet.
EXPECTED = [
    ("week_register_100k", "bench/week.py did not run or did not finish"),
    ("week_register_1m", "bench/week.py did not run or did not finish"),
    ("register_pdf_10k", "bench/report.py did not run or did not finish"),
    ("register_page", "bench/run.py did not run or did not finish"),
    ("jurisdiction_flat", "bench/jurisdiction.py did not run or did not finish"),
    ("signed_post_own_work", "bench/post_profile.py did not run or did not finish"),
    ("overdue_scan_first_pass", "bench/scan.py did not run or did not finish"),
    ("scale_out_workers", "bench/report.py did not run or did not finish (or BENCH_REPORT_SKIP left celery1 out)"),
]


def collect() -> tuple[dict[str, dict], dict[str, list[dict]], list[str]]:
    main: dict[str, dict] = {}
    parts: dict[str, list[dict]] = {}
    sources = []
    for path in sorted(GOALS.glob("*.json")):
        document = json.loads(path.read_text())
        sources.append(f"{document['script']} ({document['when']}, {document['load']})")
        for entry in document["goals"]:
            entry = {**entry, "source": document["script"]}
            if "part_of" in entry:
                parts.setdefault(entry["part_of"], []).append(entry)
            else:
                main[entry["goal"]] = entry
    return main, parts, sources


def summarise() -> list[dict]:
    main, parts, _ = collect()
    summary = []
    for name, missing in EXPECTED:
        entry = main.get(name)
        if entry is None:
            entry = {"goal": name, "figure": None, "baseline": None, "ratio": None, "target": None, "met": False}
            entry["note"] = missing
        checks = parts.get(name, [])
        if checks:
            entry = {**entry, "checks": checks, "met": entry["met"] and all(check["met"] for check in checks)}
        summary.append(entry)
    known = {name for name, _ in EXPECTED}
    summary.extend(entry for name, entry in main.items() if name not in known)
    return summary


def _number(value) -> str:
    return "-" if value is None else f"{value:,.4g}"


def main() -> int:
    summary = summarise()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    _, _, sources = collect()
    log(f"\nSummary{' (BENCH_QUICK=1: smaller data)' if QUICK else ''}; {load()} now")
    for source in sources:
        log(f"  from {source}")
    header = f"{'goal':26} {'figure':>11} {'baseline':>11} {'ratio':>7} {'target':>8}  met"
    log(header + "\n" + "-" * len(header))
    for entry in summary:
        for row, label in [(entry, entry["goal"])] + [(c, f"  {c['goal']}") for c in entry.get("checks", [])]:
            sign = ">=" if row.get("higher_is_better") else "<="
            target = f"{sign}{row['target']:g}" if row.get("target") is not None else "-"
            log(
                f"{label:26} {_number(row['figure']):>11} {_number(row['baseline']):>11} {_number(row['ratio']):>7} "
                f"{target:>8}  {'yes' if row['met'] else 'no'}"
            )
            if row.get("note"):
                log(f"{'':28}{row['note']}")
    log(f"Written to {(RESULTS / 'summary.json').relative_to(ROOT)}")
    return 0 if all(entry["met"] for entry in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
