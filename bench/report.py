"""Goals 5 and 8: the register of ENTRIES entries as a PDF, rendered by the product (its local pool,
as `manage.py render_report` does: the same steps a Celery worker runs) with 2 processes and with 1,
beside a competent bare WeasyPrint rendering of the same rows (pieces of 400 rows, 2 processes,
pypdf join), in alternated rounds; each run's peak memory a process and longest time without
visible progress (the report's progress as its page polls it). The bare one is timed twice: as it
is (automatic table layout), and with the CSS trick the product's register uses (`table-layout:
fixed` over set column widths), so that the ratio is shown against both. Then, for goal 5's memory
and silence at scale, the product alone renders a second property's register of MEMORY_ENTRIES
entries once (2 processes, in a process of its own so that its peak is its own)."""

import multiprocessing
import resource
import threading
import time
from pathlib import Path

from common import RESULTS, django_on, load, median, record, size, timed

ENTRIES = size(10_000, 2_000, "entries")
ROUNDS = size(2, 1, "rounds")
MEMORY_ENTRIES = size(100_000, 5_000, "memory_entries")  # 0: no run at scale
CHUNK = 400
HTML = """<html><head><style>@page {{ size: A4 landscape; margin: 1.5cm }} body {{ font: 8pt sans-serif }}
table {{ width: 100%; border-collapse: collapse }} td, th {{ border-bottom: 0.5pt solid #999; padding: 2pt }}
</style></head><body><h1>Inspection register</h1><table><thead><tr><th>#</th><th>When</th><th>Table</th>
<th>Kind</th><th>What</th><th>Signed by</th><th>Hash</th></tr></thead><tbody>{rows}</tbody></table></body></html>"""
# The same page, its columns set and laid out without measuring every cell (as the product's are).
HTML_FIXED = HTML.replace("border-collapse: collapse }}", "border-collapse: collapse; table-layout: fixed }}").replace(
    "<table><thead>",
    '<table><colgroup><col style="width: 5%"><col style="width: 16%"><col style="width: 6%"><col style="width: 8%">'
    '<col style="width: 35%"><col style="width: 14%"><col style="width: 16%"></colgroup><thead>',
)


def bare_piece(args: tuple) -> str:
    from django.utils.html import escape
    from weasyprint import HTML as Page

    rows, path, page = args
    cells = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    Page(string=page.format(rows=cells)).write_pdf(path)
    return path


def bare(prop, folder: Path, page: str = HTML) -> None:
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
    pieces = [(rows[at : at + CHUNK], str(folder / f"piece-{at:06d}.pdf"), page) for at in range(0, len(rows), CHUNK)]
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


def at_scale(prop, person, answer) -> None:
    """The product's register of the property, 2 processes, in this (forked) process: sends back the
    seconds, the longest silence and the peak resident set of this process and its pool's."""
    seconds, silence = ours(prop, person, 2)
    answer.send((seconds, silence, peak_mb()))


def main() -> None:
    django_on("report")
    from seed import seed

    world = seed(entries=ENTRIES, tables=8)
    prop, person = world["property"], world["people"][-1]
    folder = RESULTS / "bare-report"
    folder.mkdir(parents=True, exist_ok=True)
    loads, times, silences = [load()], {"ours, 2": [], "ours, 1": [], "bare, 2": [], "bare fixed, 2": []}, []
    for _ in range(ROUNDS):
        seconds, silence = ours(prop, person, 2)
        times["ours, 2"].append(seconds)
        silences.append(silence)
        times["bare, 2"].append(timed(bare, prop, folder))
        times["bare fixed, 2"].append(timed(bare, prop, folder, HTML_FIXED))
        seconds, silence = ours(prop, person, 1)
        times["ours, 1"].append(seconds)
        silences.append(silence)
    loads.append(load())
    at = {side: median(values) for side, values in times.items()}
    print({side: round(value, 2) for side, value in at.items()})
    text = f"{ENTRIES:,} entries, {ROUNDS} rounds"
    peak, scale = peak_mb(), None
    if MEMORY_ENTRIES:
        from django.db import connections

        started = time.perf_counter()
        big = seed(entries=MEMORY_ENTRIES, tables=8, name="Bench Casino at scale")
        seeded = time.perf_counter() - started
        connections.close_all()  # the forked process opens its own
        receive, answer = multiprocessing.Pipe(duplex=False)
        process = multiprocessing.get_context("fork").Process(
            target=at_scale, args=(big["property"], big["people"][-1], answer)
        )
        process.start()
        answer.close()  # so that a process that dies unheard ends the wait (EOFError)
        seconds, silence, scale_peak = receive.recv()
        process.join()
        loads.append(load())
        scale = {"entries": MEMORY_ENTRIES, "seconds": seconds, "silence": silence, "peak": scale_peak}
        print(f"at {MEMORY_ENTRIES:,} entries: seeded in {seeded:.0f} s, rendered in {seconds:.1f} s, "
              f"peak {scale_peak:.0f} MB, longest silence {silence[0]:.1f} s at {silence[1]} %")  # fmt: skip
        silences.append(silence)
    record(
        "5_register_pdf",
        figure=at["ours, 2"],
        baseline=at["bare, 2"],
        target=0.9,
        unit="s",
        size=text,
        loads=tuple(loads[:2]),
        note="ours (2 processes) ÷ bare WeasyPrint (400-row pieces, 2 processes, pypdf); against the bare with "
        f"table-layout: fixed ({at['bare fixed, 2']:.1f} s): {at['ours, 2'] / at['bare fixed, 2']:.2f}",
    )
    record(
        "5_memory_per_process",
        figure=scale["peak"] if scale else peak,
        baseline=None,
        target=400,
        unit="MB",
        size=f"{scale['entries']:,} entries, once" if scale else text,
        loads=(loads[0], loads[-1]),
        note=f"the largest resident set of a process of ours at that size (2 processes); at {ENTRIES:,} entries, "
        f"with the bare ones: {peak:.0f} MB",
    )
    longest = max(silences, key=lambda silence: silence[0])
    record(
        "5_longest_silence",
        figure=longest[0],
        baseline=None,
        target=5,
        unit="s",
        size=text + (f"; and {scale['entries']:,} entries once" if scale else ""),
        loads=(loads[0], loads[-1]),
        note=f"the longest time the report's progress did not move (at {longest[1]} %)"
        + (f"; at {scale['entries']:,} entries {scale['silence'][0]:.1f} s" if scale else ""),
    )
    record(
        "8_two_report_processes",
        figure=at["ours, 2"],
        baseline=at["ours, 1"],
        target=0.7,
        unit="s",
        size=text,
        loads=tuple(loads[:2]),
        note="the register with 2 processes ÷ with 1",
    )


if __name__ == "__main__":
    main()
