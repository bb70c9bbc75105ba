"""Rendering a report: the CSV in one streamed pass; the PDF in pieces, in parallel, then joined.

WeasyPrint lays out a long table in time that grows faster than its rows, and holds the whole
layout in memory, so one pass over 100,000 rows would take most of an hour and many GB. Here the
rows are cut into pieces of REPORT_CHUNK_ROWS, each laid out on its own, by as many processes as
there are cores (a Celery group in the background, a local process pool for `render_report`):

1. every piece is laid out and written once (the cover with its charts too), the corner where
   its page numbers go left blank, and its pages counted;
2. knowing every piece's count, each gets "Page X of Y" from a page-number layer (WeasyPrint's
   own counter, started at the piece's first page, with the total), merged onto its pages;
3. pypdf joins the pieces behind the cover, which carries the PDF/A-3b metadata and the CSV of
   the same rows as an attachment. The file is hashed and only then published.

Nothing here knows whether it runs in a Celery worker or a local process: `plan`, `piece_render`,
`piece_stamp`, `join` are the steps; inspections.flags.tasks and the command drive them.
"""

from __future__ import annotations

import base64
import hashlib
import io
import shutil
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.db import connections, transaction
from django.db.models import F, Value
from django.db.models.functions import Least
from django.template.loader import render_to_string
from django.utils import timezone

from compliance.rulebook.artwork import artwork_media_type
from inspections.logbook.chain import chain_verify
from inspections.reports.csvfile import csv_writer
from inspections.reports.kinds import artwork_attachment_name, kind_of
from inspections.reports.models import Report, ReportStatus

COVER = -1  # the index of the cover piece


class ReportFinished(Exception):
    """The report was generated already (a task delivered twice): nothing to do."""


@dataclass(frozen=True)
class Piece:
    index: int  # COVER, or the piece's number from 0
    keys: tuple = ()


def workdir(report_id: int) -> Path:
    path = Path(settings.MEDIA_ROOT) / "reports" / "work" / str(report_id)
    path.mkdir(parents=True, exist_ok=True)
    return path


def progress_set(report_id: int, value: float) -> None:
    Report.objects.filter(pk=report_id).update(progress=min(value, 100))


def piece_done(report_id: int) -> None:
    """One piece of one pass is done: progress moves from 10 (planned) to 95 (joined next)."""
    Report.objects.filter(pk=report_id).update(
        chunks_done=F("chunks_done") + 1,
        progress=Least(Value(95.0), Value(10.0) + (F("chunks_done") + 1) * Value(85.0) / F("chunks_total")),
    )


def plan(report_id: int) -> list[Piece]:
    """Write the CSV and cut the rows into pieces, the cover first; marks the report running.
    The chain is verified by `verify`, alongside the pieces (the cover, which prints its verdict,
    is rendered after it)."""
    report = Report.objects.select_related("property", "requested_by").get(pk=report_id)
    if report.status in (ReportStatus.DONE, ReportStatus.FAILED):
        raise ReportFinished(f"report {report_id} is already {report.status}")
    Report.objects.filter(pk=report_id).update(status=ReportStatus.RUNNING, progress=1, error="")
    kind = kind_of(report)
    keys = kind.keys(report)
    size = settings.REPORT_CHUNK_ROWS
    pieces = [Piece(COVER)] + [Piece(i, tuple(keys[at : at + size])) for i, at in enumerate(range(0, len(keys), size))]
    Report.objects.filter(pk=report_id).update(
        rows=len(keys),
        # Both passes over every piece, and the verification (a CSV's one step).
        chunks_total=2 * len(pieces) + 1 if report.format == "pdf" else 1,
        chunks_done=0,
        progress=5,
    )
    csv_write(report, keys, workdir(report_id) / "rows.csv")
    progress_set(report_id, 10)
    return pieces


def verify(report_id: int) -> bool:
    """The property's hash chain, from its first entry to its head, for the cover and the list
    (every format: a CSV's verdict is shown in the list and the API as a PDF's is); a broken one
    names its first broken entry."""
    report = Report.objects.get(pk=report_id)
    verified = chain_verify(property_id=report.property_id)
    Report.objects.filter(pk=report_id).update(
        chain_intact=verified.ok,
        chain_head=verified.head_hash,
        chain_broken_seq=verified.broken_seq,
        chain_broken_reason=verified.reason,
    )
    piece_done(report_id)
    return verified.ok


def csv_write(report: Report, keys: list, path: Path) -> None:
    """The same rows and columns as the PDF, a piece at a time, through the one CSV writer (its
    cells neutralised against formula injection)."""
    kind = kind_of(report)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv_writer(out)
        writer.writerow([column.label for column in kind.columns])
        size = settings.REPORT_CHUNK_ROWS
        for number, at in enumerate(range(0, len(keys), size), start=1):
            for row in kind.rows(report, keys[at : at + size]):
                writer.writerow([row[column.key] for column in kind.columns])
            if number % 10 == 0:  # a long CSV moves the progress on too (5 to 10)
                progress_set(report.pk, round(5 + 5 * at / max(len(keys), 1), 1))


def _html(report: Report, piece: Piece) -> str:
    kind = kind_of(report)
    zone = report.property.zone
    context = {
        "report": report,
        "kind": kind,
        "citation": kind.citation(report),
        "columns": kind.columns,
        "generated": f"{timezone.localtime(report.requested_at, zone):%Y-%m-%d %H:%M %Z}",
        "tables": ", ".join(report.tables.order_by("number").values_list("number", flat=True)) or "all",
    }
    if piece.index == COVER:
        context["charts"] = kind.charts(report)
        context["artworks"] = [_artwork_shown(layout) for layout in getattr(kind, "artworks", lambda r: [])(report)]
        return render_to_string("reports/cover.html", context)
    context["rows"] = [[row[column.key] for column in kind.columns] for row in kind.rows(report, list(piece.keys))]
    return render_to_string("reports/piece.html", context)


def _artwork_shown(layout) -> dict:
    """A layout's artwork on the cover: an image inline (a data: URI, so WeasyPrint fetches nothing),
    a PDF named as attached (WeasyPrint cannot draw another PDF's page)."""
    shown = {"layout": layout, "attachment": None, "image": None}
    if layout.artwork_is_image():
        with layout.artwork.open("rb") as handle:
            encoded = base64.b64encode(handle.read()).decode("ascii")
        shown["image"] = f"data:{artwork_media_type(layout.artwork_kind)};base64,{encoded}"
    else:
        shown["attachment"] = artwork_attachment_name(layout)
    return shown


def _artwork_attachments(report: Report) -> list:
    """The PDF artworks of the layouts in the report, attached to its cover beside the CSV."""
    from weasyprint import Attachment

    kind = kind_of(report)
    return [
        Attachment(
            filename=layout.artwork.path,
            name=artwork_attachment_name(layout),
            description=f"Artwork of the layout {layout.name} (SHA-256 {layout.artwork_sha256})",
            relationship="Source",
        )
        for layout in getattr(kind, "artworks", lambda r: [])(report)
        if not layout.artwork_is_image()
    ]


def piece_render(report_id: int, piece: Piece) -> tuple[str, int]:
    """Pass 1: the piece laid out once, as PDF/A-3b, its page-number corner left blank; returns
    its file and its number of pages. The cover carries the CSV attachment."""
    from weasyprint import HTML, Attachment  # imported where used: the web process never needs it

    report = Report.objects.select_related("property", "requested_by").get(pk=report_id)
    path = workdir(report_id) / ("cover.pdf" if piece.index == COVER else f"piece-{piece.index:06d}.pdf")
    options = {"pdf_variant": "pdf/a-3b", "pdf_identifier": f"report-{report_id}".encode()}
    if piece.index == COVER:
        options["attachments"] = [
            Attachment(
                filename=str(workdir(report_id) / "rows.csv"),
                name=f"{report.kind}.csv",
                description="The same rows as this report, as CSV",
                relationship="Data",
            ),
            *_artwork_attachments(report),
        ]
    document = HTML(string=_html(report, piece)).render()
    document.write_pdf(path, **options)
    piece_done(report_id)
    return str(path), len(document.pages)


def piece_stamp(report_id: int, path: str, first_page: int, pages: int, total_pages: int) -> str:
    """Pass 2: "Page X of Y" on each page of the piece, from a page-number layer WeasyPrint draws
    with the same page rules (its counter starting at the piece's first page), merged by pypdf.
    Laying out that layer costs a trifle next to the rows', so each piece is laid out once."""
    from pypdf import PdfReader, PdfWriter
    from weasyprint import HTML

    layer = render_to_string(
        "reports/page_numbers.html", {"first_page": first_page, "total_pages": total_pages, "pages": range(pages)}
    )
    numbers = PdfReader(io.BytesIO(HTML(string=layer).write_pdf(pdf_variant="pdf/a-3b")))
    if len(numbers.pages) != pages:
        raise RuntimeError(f"the page-number layer has {len(numbers.pages)} pages for a piece of {pages}")
    writer = PdfWriter(clone_from=path)
    # The layer's pages are copied into this file once (so its font is one object, shared), each
    # merged onto its page, then dropped.
    writer.append(numbers)
    for index in range(pages):
        page = writer.pages[index]
        page.merge_page(writer.pages[pages + index])
        page.compress_content_streams()  # merging leaves the page's content uncompressed
    for _ in range(pages):
        writer.remove_page(pages)
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    stamped = path.replace(".pdf", "-numbered.pdf")
    with open(stamped, "wb") as handle:
        writer.write(handle)
    piece_done(report_id)
    return stamped


def offsets(counts: list[int]) -> tuple[list[int], int]:
    """Each piece's first page number, and the total, from the pieces' page counts in order."""
    firsts, page = [], 1
    for count in counts:
        firsts.append(page)
        page += count
    return firsts, page - 1


def join(report_id: int, paths: list[str]) -> None:
    """Join the pieces behind the cover (its catalog keeps the PDF/A metadata and attachment),
    hash the file and publish it; the work files go."""
    from pypdf import PdfReader, PdfWriter

    report = Report.objects.get(pk=report_id)
    out = workdir(report_id) / "report.pdf"
    writer = PdfWriter(clone_from=paths[0])
    for path in paths[1:]:
        reader = PdfReader(path)
        for page in reader.pages:
            writer.add_page(page)
    with out.open("wb") as handle:
        writer.write(handle)
    pages = len(writer.pages)
    publish(report, out, pages=pages)


def publish(report: Report, path: Path, *, pages: int | None) -> None:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    name = f"{report.kind}-{report.property_id}-{report.period_from}-{report.period_to}-{report.pk}.{report.format}"
    with transaction.atomic():
        with path.open("rb") as handle:
            report.file.save(name, File(handle), save=False)
        Report.objects.filter(pk=report.pk).update(
            file=report.file.name,
            sha256=digest.hexdigest(),
            size=path.stat().st_size,
            pages=pages,
            status=ReportStatus.DONE,
            progress=100,
            finished_at=timezone.now(),
        )
    shutil.rmtree(workdir(report.pk), ignore_errors=True)


def csv_publish(report_id: int) -> None:
    """A CSV report: the chain verified (its one step after the plan), then the file published."""
    verify(report_id)
    report = Report.objects.get(pk=report_id)
    publish(report, workdir(report_id) / "rows.csv", pages=None)


def failed(report_id: int, error: str) -> None:
    """The report failed: it says why, and no file of it is ever served."""
    Report.objects.filter(pk=report_id).update(
        status=ReportStatus.FAILED, error=error[:2000], finished_at=timezone.now()
    )
    shutil.rmtree(workdir(report_id), ignore_errors=True)


def generate_locally(report_id: int, *, processes: int | None = None) -> Report:
    """The whole report in this process and a local pool of `processes` (render_report)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    try:
        pieces = plan(report_id)
        report = Report.objects.get(pk=report_id)
        if report.format == "csv":
            csv_publish(report_id)
            return Report.objects.get(pk=report_id)
        processes = processes or settings.REPORT_PROCESSES
        # The pool's processes are forked: they must not share this process's database
        # connections, so these are closed first (each process opens its own).
        connections.close_all()
        fork = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=processes, mp_context=fork) as pool:
            verified = pool.submit(verify, report_id)  # beside the rows' pieces, not before them
            rendered = list(pool.map(piece_render, [report_id] * (len(pieces) - 1), pieces[1:]))
            verified.result()
            rendered.insert(0, pool.submit(piece_render, report_id, pieces[0]).result())  # the cover
            paths, counts = [path for path, _ in rendered], [count for _, count in rendered]
            firsts, total = offsets(counts)
            paths = list(pool.map(piece_stamp, [report_id] * len(paths), paths, firsts, counts, [total] * len(paths)))
        join(report_id, paths)
    except Exception as error:
        failed(report_id, f"{type(error).__name__}: {error}")
        raise
    return Report.objects.get(pk=report_id)
