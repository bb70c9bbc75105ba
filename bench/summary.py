"""bench/results/summary.json: one row a goal of the performance issue, in its order (a goal no
benchmark measured in this run is listed unmet); prints the table; exits 1 while a goal is unmet."""

import json
import sys

from common import QUICK, RESULTS, load

GOALS = [
    "1_signed_step_alone",
    "1_signed_step_20_clients",
    "2_property_ceiling",
    "4_older_week_register",
    "5_register_pdf",
    "5_memory_per_process",
    "5_longest_silence",
    "6_overdue_scan_first_pass",
    "7_floor_api_beside_heavy_page",
    "8_two_report_processes",
]


def main() -> int:
    rows = []
    for goal in GOALS:
        path = RESULTS / "goals" / f"{goal}.json"
        rows.append(json.loads(path.read_text()) if path.exists() else {"goal": goal, "met": False, "note": "not run"})
    (RESULTS / "summary.json").write_text(json.dumps({"quick": QUICK, "load": load(), "goals": rows}, indent=1))
    print(f"{'goal':32} {'figure':>10} {'baseline':>10} {'ratio':>7} {'target':>7}  met  load")
    for row in rows:
        loads = f"{row.get('load_before')}→{row.get('load_after')}" if "load_before" in row else ""
        print(
            f"{row['goal']:32} {row.get('figure', ''):>10} {row.get('baseline') or '':>10} {row.get('ratio', ''):>7} "
            f"{row.get('target', ''):>7}  {'yes' if row['met'] else 'NO ':3}  {loads}  {row.get('note', '')}"
        )
    print("Query counts (goal 3, the signed POST's twelve): tests/, run by make test.")
    return 0 if all(row["met"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
