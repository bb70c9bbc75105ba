"""Goals 5 and 8: the register of ENTRIES entries as a PDF, rendered by the product (its local pool,
as `manage.py render_report` does: the same steps a Celery worker runs) with 2 processes and with 1,
beside a competent bare WeasyPrint rendering of the same rows (pieces of 400 rows, 2 processes,
pypdf join), in alternated rounds; each run's peak memory a process and longest time without
visible progress (the report's progress as its page polls it). Then, for goal 5's memory and
silence at scale, the product alone renders a second property's register of MEMORY_ENTRIES
entries once (2 processes, in a process of its own so that its peak is its own).

The bare rendering prints what the product's register prints, no more and no less: the same rows
(the entries of the report ours just rendered, read by the register's own `rows`, each pool process
its piece's, as the product's pieces do) and the same text (every field of § 617a.2(e), the
signatures with credential, meaning and time, amendments and photos' SHA-256), on the same page
(Letter landscape, the margins, font, cell borders and padding of `templates/reports/_page.html`,
rows kept whole), with the same title, period and "generated" line on every page, as a regulator's
page must carry them (here as strings in the page's margin boxes, the plain CSS way; the product
places running elements there). It is one HTML page of one plain table a piece, built with
f-strings, its columns fixed, and no more: no cover, no PDF/A, no attached CSV or chain segment, no
page numbers (they need every piece's page count: the product's second pass), no signature. Those
are the product's own extra work, counted in its time. It is timed in two shapes: the register's
six cells (`kinds.cells_of`), the same page as the product's, 20 pages a 400 rows (the goal's
baseline: the same work), and one column a field, as the CSV has them (in the note: the rows printed
without the register's own design, which put the short fields together because WeasyPrint's time
goes by the box; its narrow columns print nearly twice the pages, so it does more work than ours)."""

import html
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
# templates/reports/_page.html's page and rows, written out by hand: its columns set and laid out
# without measuring every cell (table-layout: fixed), as a competent bare one would (WeasyPrint's
# automatic layout measures every cell: 3 to 4 times a piece's time with overflow-wrap, and still a
# quarter more pages without it, as measured on 27 November).
STYLE = """@page {{ size: Letter landscape; margin: 1.6cm 1.2cm 1.4cm 1.2cm;
  @top-left {{ content: {title}; font-size: 8pt; color: #333 }}
  @top-right {{ content: {period}; font-size: 8pt; color: #333; text-align: right }}
  @bottom-left {{ content: {generated}; font-size: 7pt; color: #555 }} }}
html {{ font-family: "DejaVu Sans", sans-serif; font-size: 7.5pt; color: #111 }}
table {{ width: 100%; border-collapse: collapse; table-layout: fixed }}
th {{ background: #e6ebf0; text-align: left; font-size: 7pt }}
th, td {{ border: 0.5pt solid #999; padding: 2pt 3pt; vertical-align: top; overflow-wrap: anywhere }}
td {{ white-space: pre-line }}
tr {{ break-inside: avoid }}"""


def css_string(text: str) -> str:
    """The text as a CSS string, for a margin box's `content`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def bare_piece(args: tuple) -> int:
    """One piece: its rows read, one table written out, laid out and written; returns its pages."""
    from weasyprint import HTML as Page

    from compliance.casinos.clock import date_text, local_text
    from inspections.reports.kinds import cells_of, kind_of

    report, keys, path, shape = args
    kind = kind_of(report)
    zone = report.property.zone
    style = STYLE.format(
        title=css_string(f"{report.property.name} · {kind.title}"),
        period=css_string(
            f"{date_text(report.period_from)} to {date_text(report.period_to)} · {kind.citation(report)}"
        ),
        generated=css_string(
            f"Report #{report.pk} · generated {local_text(report.requested_at, zone)} by {report.requested_by.display_name}"
        ),
    )
    if shape == "cells":  # the register's six cells, as the product prints them
        columns = [(cell.label, float(cell.width.rstrip("%")), cell.text) for cell in cells_of(kind)]
    else:  # one column a field, as the CSV has them, their widths scaled to the page's
        columns = [(column.label, float(column.width.rstrip("%")), lambda row, key=column.key: str(row[key]))
                   for column in kind.columns]  # fmt: skip
    whole = sum(width for _, width, _ in columns)
    widths = "".join(f'<col style="width: {100 * width / whole:.2f}%">' for _, width, _ in columns)
    head = "<tr>" + "".join(f"<th>{html.escape(label)}</th>" for label, _, _ in columns) + "</tr>"
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(text(row))}</td>" for _, _, text in columns) + "</tr>"
        for row in kind.rows(report, keys)
    )
    page = (
        f'<html lang="en"><head><meta charset="utf-8"><style>{style}</style></head><body><table>'
        f"<colgroup>{widths}</colgroup><thead>{head}</thead><tbody>{body}</tbody></table></body></html>"
    )
    document = Page(string=page).render()
    document.write_pdf(path)
    return len(document.pages)


def bare(report, folder: Path, *, shape: str) -> int:
    """The rows of `report` (the one ours rendered), laid out in pieces of 400 by 2 processes, each
    reading its own, joined with pypdf; returns the pages. `shape`: "cells" (the register's six) or
    "fields" (one column a field)."""
    from django.db import connections
    from pypdf import PdfWriter

    from inspections.reports.kinds import kind_of

    keys = kind_of(report).keys(report)
    pieces = [
        (report, keys[at : at + CHUNK], str(folder / f"piece-{at:06d}.pdf"), shape) for at in range(0, len(keys), CHUNK)
    ]
    connections.close_all()  # the forked processes open their own
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(bare_piece, pieces)
    writer = PdfWriter()
    for _, _, path, _ in pieces:
        writer.append(path)
    writer.write(folder / "bare.pdf")
    return len(writer.pages)


def ours(prop, person, processes: int) -> tuple[float, tuple, object]:
    """The product's report from its request: the seconds, the longest silence of its progress
    (seconds, and the progress it stayed at), and the report."""
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
    report = Report.objects.select_related("property", "requested_by").get(pk=report.pk)
    assert report.status == "done", report.error
    return seconds, max(silences, key=lambda silence: silence[0]), report


def peak_mb() -> float:
    """The largest resident set of this process and of any process it waited for (the pools')."""
    kb = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return kb / 1024


def at_scale(prop, person, answer) -> None:
    """The product's register of the property, 2 processes, in this (forked) process: sends back the
    seconds, the longest silence and the peak resident set of this process and its pool's."""
    seconds, silence, _ = ours(prop, person, 2)
    answer.send((seconds, silence, peak_mb()))


def main() -> None:
    django_on("report")
    from seed import seed

    world = seed(entries=ENTRIES, tables=8)
    prop, person = world["property"], world["people"][-1]
    folder = RESULTS / "bare-report"
    folder.mkdir(parents=True, exist_ok=True)
    loads, times, silences = [load()], {"ours, 2": [], "ours, 1": [], "bare, 2": [], "bare by field, 2": []}, []
    for _ in range(ROUNDS):
        seconds, silence, report = ours(prop, person, 2)
        times["ours, 2"].append(seconds)
        silences.append(silence)
        started = time.perf_counter()
        bare_pages = bare(report, folder, shape="cells")
        times["bare, 2"].append(time.perf_counter() - started)
        started = time.perf_counter()
        field_pages = bare(report, folder, shape="fields")
        times["bare by field, 2"].append(time.perf_counter() - started)
        seconds, silence, _ = ours(prop, person, 1)
        times["ours, 1"].append(seconds)
        silences.append(silence)
    loads.append(load())
    at = {side: median(values) for side, values in times.items()}
    print({side: round(value, 2) for side, value in at.items()})
    # Pages a CHUNK rows: ours counts its cover (one or two pages in hundreds).
    pages = {side: count * CHUNK / report.rows for side, count in (("ours", report.pages), ("bare", bare_pages),
                                                                   ("bare by field", field_pages))}  # fmt: skip
    print(f"{report.rows:,} rows: ours {report.pages} pages (its cover with them), the bare {bare_pages}, the bare "
          f"one column a field {field_pages}; a {CHUNK} rows: " + ", ".join(f"{side} {n:.1f}" for side, n in pages.items()))  # fmt: skip
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
        note="ours (2 processes) ÷ bare WeasyPrint of the same rows, text and page, in the register's six cells "
        "(400-row pieces, 2 processes, pypdf, table-layout: fixed); against a bare printing one column a field "
        f"({at['bare by field, 2']:.1f} s, more pages, so more work): {at['ours, 2'] / at['bare by field, 2']:.2f}; "
        f"pages a {CHUNK} rows: ours {pages['ours']:.1f} (with its cover), the bare {pages['bare']:.1f}, one column "
        f"a field {pages['bare by field']:.1f}",
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
