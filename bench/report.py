"""Goals 5 and 8: the register of ENTRIES entries as a PDF, rendered by the product (its local pool,
as `manage.py render_report` does: the same steps a Celery worker runs) with 2 processes and with 1,
beside a competent bare WeasyPrint rendering of the same rows (pieces of 400 rows, 2 processes,
pypdf join), in alternated rounds; each run's peak memory a process and longest time without
visible progress (the report's progress as its page polls it)."""

import multiprocessing
import resource
import threading
import time
from pathlib import Path

from common import RESULTS, django_on, load, median, record, size, timed

ENTRIES = size(10_000, 2_000, "entries")
ROUNDS = size(2, 1, "rounds")
CHUNK = 400
HTML = """<html><head><style>@page {{ size: A4 landscape; margin: 1.5cm }} body {{ font: 8pt sans-serif }}
table {{ width: 100%; border-collapse: collapse }} td, th {{ border-bottom: 0.5pt solid #999; padding: 2pt }}
</style></head><body><h1>Inspection register</h1><table><thead><tr><th>#</th><th>When</th><th>Table</th>
<th>Kind</th><th>What</th><th>Signed by</th><th>Hash</th></tr></thead><tbody>{rows}</tbody></table></body></html>"""


def bare_piece(args: tuple) -> str:
    from django.utils.html import escape
    from weasyprint import HTML as Page

    rows, path = args
    cells = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    Page(string=HTML.format(rows=cells)).write_pdf(path)
    return path


def bare(prop, folder: Path) -> None:
    """The same rows, read once, laid out in pieces by 2 processes, joined with pypdf."""
    from pypdf import PdfWriter

    from inspections.logbook.models import Entry

    rows = [
        (str(seq), at.isoformat(timespec="minutes"), table, kind, text, name or "", digest[:16])
        for seq, at, table, kind, text, name, digest in Entry.objects.filter(property=prop)
        .order_by("seq")
        .values_list(
            "seq", "occurred_at", "table_number", "kind", "description", "signatures__signer_name", "entry_hash"
        )
    ]
    pieces = [(rows[at : at + CHUNK], str(folder / f"piece-{at:06d}.pdf")) for at in range(0, len(rows), CHUNK)]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        paths = pool.map(bare_piece, pieces)
    writer = PdfWriter()
    for path in paths:
        writer.append(path)
    writer.write(folder / "bare.pdf")


def ours(prop, person, processes: int) -> tuple[float, tuple]:
    """The product's report from its request: the seconds, and the longest silence of its progress
    (seconds, and the progress it stayed at)."""
    from django.db import connection

    from inspections.reports.models import Report
    from inspections.reports.render import generate_locally
    from inspections.reports.services import report_request_local

    first, last = prop.entries.order_by("seq").first(), prop.entries.order_by("seq").last()
    report = report_request_local(
        requested_by=person,
        property=prop,
        kind="inspection_register",
        period_from=first.occurred_at.date(),
        period_to=last.occurred_at.date(),
        format="pdf",
    )
    silences, done = [], threading.Event()

    def watch():
        seen, since = None, time.perf_counter()
        while not done.is_set():
            progress = Report.objects.filter(pk=report.pk).values_list("progress", flat=True).first()
            if progress != seen:
                silences.append((time.perf_counter() - since, seen))
                seen, since = progress, time.perf_counter()
            time.sleep(0.1)
        silences.append((time.perf_counter() - since, seen))
        connection.close()

    watcher = threading.Thread(target=watch)
    watcher.start()
    seconds = timed(generate_locally, report.pk, processes=processes)
    done.set()
    watcher.join()
    assert Report.objects.get(pk=report.pk).status == "done", Report.objects.get(pk=report.pk).error
    return seconds, max(silences, key=lambda silence: silence[0])


def peak_mb() -> float:
    """The largest resident set of this process and of any process it waited for (the pools')."""
    kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return kb / 1024


def main() -> None:
    django_on("report")
    from seed import seed

    world = seed(entries=ENTRIES, tables=8)
    prop, person = world["property"], world["people"][-1]
    folder = RESULTS / "bare-report"
    folder.mkdir(parents=True, exist_ok=True)
    loads, times, silences = [load()], {"ours, 2": [], "ours, 1": [], "bare, 2": []}, []
    for _ in range(ROUNDS):
        seconds, silence = ours(prop, person, 2)
        times["ours, 2"].append(seconds)
        silences.append(silence)
        times["bare, 2"].append(timed(bare, prop, folder))
        seconds, silence = ours(prop, person, 1)
        times["ours, 1"].append(seconds)
        silences.append(silence)
    loads.append(load())
    at = {side: median(values) for side, values in times.items()}
    print({side: round(value, 2) for side, value in at.items()})
    text = f"{ENTRIES:,} entries, {ROUNDS} rounds"
    record(
        "5_register_pdf",
        figure=at["ours, 2"],
        baseline=at["bare, 2"],
        target=0.9,
        unit="s",
        size=text,
        loads=tuple(loads),
        note="ours (2 processes) ÷ bare WeasyPrint (400-row pieces, 2 processes, pypdf)",
    )
    record(
        "5_memory_per_process",
        figure=peak_mb(),
        baseline=None,
        target=400,
        unit="MB",
        size=text,
        loads=tuple(loads),
        note="the largest resident set of the run's processes (bare ones included)",
    )
    longest = max(silences, key=lambda silence: silence[0])
    record(
        "5_longest_silence",
        figure=longest[0],
        baseline=None,
        target=5,
        unit="s",
        size=text,
        loads=tuple(loads),
        note=f"the longest time the report's progress did not move (at {longest[1]} %)",
    )
    record(
        "8_two_report_processes",
        figure=at["ours, 2"],
        baseline=at["ours, 1"],
        target=0.7,
        unit="s",
        size=text,
        loads=tuple(loads),
        note="the register with 2 processes ÷ with 1",
    )


if __name__ == "__main__":
    main()
