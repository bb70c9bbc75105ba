"""Rendering a report: the CSV in one streamed pass; the PDF in pieces, in parallel, then joined.

WeasyPrint lays out a long table in time that grows faster than its rows, and holds the whole
layout in memory, so one pass over 100,000 rows would take most of an hour and many GB. Here the
rows are cut into pieces of at most REPORT_CHUNK_ROWS (a short report into one a process:
`piece_rows`), each laid out on its own, by as many processes as there are cores (a Celery group
in the background, a local process pool for `render_report`):

1. every piece is laid out and written once, the corner where its page numbers go left blank, and
   its pages counted; the cover, with its charts, beside the rows' pieces, once its step has
   verified the chain (the cover prints the verdict);
2. knowing every piece's count, each gets "Page X of Y" from a page-number layer (WeasyPrint's
   own counter, started at the piece's first page, with the total), merged onto its pages; the
   cover's step attaches, with pypdf, the CSV of the same rows (joined from the pieces' parts) and
   the chain segment of the period (every entry's record, previous hash and hash, and the signed
   checkpoints over them: logbook-verify checks one against the other offline), compressed as they
   are read, while the other processes number the pieces;
3. pypdf joins the pieces behind the cover, which carries the PDF/A-3b metadata and the
   attachments. The joined file is signed (PAdES, signing.py), hashed and only then published.

Before any of it, `plan` has the property's chain head signed (a checkpoint, the report's receipt,
printed on its cover): a logbook that contradicts an earlier signed checkpoint gets no report.

Nothing here knows whether it runs in a Celery worker or a local process: `plan` cuts the pieces,
`passes` orders the steps (`segment_entries_write`, `piece_render`, `piece_stamp`), `join` ends;
inspections.reports.tasks (Celery chords) and `generate_locally` (a process pool) run that one plan.

No step takes a file's path, nor the rows it prints: each takes the report's id and a piece's index,
and finds the rest from the report's run (`Report.run`, set by `plan`) and its pieces (`ReportPiece`),
inside the report's own work directory. Each piece's file is hashed as it is written and checked
before the next step reads it; a report that is not being rendered (done, failed, or of another run)
is never rendered, joined or signed. So a task message, whoever sent it, cannot have the report key
sign anything but what the same run rendered from the logbook.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
import shutil
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.db.models import Max, Min
from django.template.loader import render_to_string
from django.utils.translation import gettext

from compliance.casinos.clock import local_text
from compliance.rulebook.artwork import artwork_media_type
from inspections.logbook import services as logbook
from inspections.logbook.chain import chain_segment, chain_verify_period, start_checkpoint
from inspections.logbook.checkpoints import CheckpointKeyMissing, checkpoint_keys, checkpoint_record
from inspections.logbook.models import Checkpoint, Entry
from inspections.logbook.timestamps import timestamp_check
from inspections.reports import services, signing
from inspections.reports.csvfile import MEDIA_TYPE as CSV_MEDIA_TYPE
from inspections.reports.csvfile import csv_writer
from inspections.reports.kinds import ENTRY_KINDS, artwork_attachment_name, cells_of, kind_of, period_bounds
from inspections.reports.models import Report, ReportPiece, ReportStatus
from inspections.reports.services import RunRefused
from logbook_proof.formats import SEGMENT, SEGMENT_FORMAT  # the segment as the verifier reads it

SEGMENT_ENTRIES = "segment-entries.json"  # the segment's entries, written beside the pieces

COVER = -1  # the index of the cover piece


class ReportRefused(Exception):
    """The logbook contradicts a checkpoint signed earlier: its history was rewritten, and no report
    of it is produced."""


@dataclass(frozen=True)
class Piece:
    index: int  # COVER, or the piece's number from 0
    keys: tuple = ()


@dataclass(frozen=True)
class Step:
    """One step of a report's plan: `segment`, or `render` or `stamp` of the piece `index`."""

    kind: str
    index: int | None = None

    @property
    def args(self) -> tuple[int, ...]:
        return () if self.index is None else (self.index,)


def passes(pieces: Sequence) -> list[list[Step]]:
    """A PDF report's plan once `plan` has cut its pieces (the cover first): passes run one after the
    other, the steps of a pass at once in this order; then `join`. First every piece laid out: the
    cover (its step verifies the chain first: the cover prints the verdict) beside the rows' pieces,
    and the segment's entries after the first half of them (so that pieces keep finishing on the
    other processes while the short step runs); then every piece numbered, the cover's step attaching
    the CSV the pieces wrote and the chain segment (`cover_attach`). The Celery tasks
    (inspections.reports.tasks) and the local pool (`generate_locally`) both run it."""
    rows = [Step("render", piece.index) for piece in pieces[1:]]
    half = (len(rows) + 1) // 2
    return [
        [Step("render", COVER), *rows[:half], Step("segment"), *rows[half:]],
        [Step("stamp", piece.index) for piece in pieces],
    ]


def step_run(report_id: int, step: Step) -> object:
    """A step of the plan, in this process."""
    if step.kind == "segment":
        segment_entries_write(report_id)
        return None
    if step.kind in ("render", "stamp") and step.index is not None:
        work = piece_render if step.kind == "render" else piece_stamp
        return work(report_id, step.index)
    raise ValueError(f"no step {step.kind!r} (piece {step.index})")


def workdir(report_id: int) -> Path:
    path = Path(settings.MEDIA_ROOT) / "reports" / "work" / str(int(report_id))
    path.mkdir(parents=True, exist_ok=True)
    return path


def piece_path(report_id: int, index: int, *, numbered: bool = False) -> Path:
    """A piece's file, from its index alone, in the report's work directory."""
    name = "cover" if index == COVER else f"piece-{int(index):06d}"
    return workdir(report_id) / f"{name}{'-numbered' if numbered else ''}.pdf"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def running(report_id: int) -> Report:
    """The report, if a run is rendering it; RunRefused otherwise (a task delivered after the report
    was done or failed, or sent by someone else)."""
    report = Report.objects.select_related("property", "requested_by", "checkpoint").get(pk=report_id)
    if report.status != ReportStatus.RUNNING or not report.run:
        raise RunRefused(f"report {report_id} is {report.status}, not being rendered: nothing to do")
    return report


def run_pieces(report: Report) -> list[ReportPiece]:
    """The pieces `plan` cut for the report's current run, the cover first."""
    return list(ReportPiece.objects.filter(report=report, run=report.run).order_by("index"))


def piece_checked(report: Report, index: int, *, numbered: bool) -> ReportPiece:
    """The run's piece, its file as the run wrote it (its SHA-256 as recorded), or RunRefused."""
    piece = ReportPiece.objects.filter(report=report, run=report.run, index=index).first()
    if piece is None:
        raise RunRefused(f"report {report.pk} has no piece {index} in its run")
    recorded = piece.numbered_sha256 if numbered else piece.rendered_sha256
    path = piece_path(report.pk, index, numbered=numbered)
    if not recorded or not path.is_file() or file_sha256(path) != recorded:
        raise RunRefused(f"piece {index} of report {report.pk} is not the file its run wrote: nothing is signed")
    return piece


def plan(report_id: int) -> list[Piece]:
    """Write the CSV and cut the rows into pieces, the cover first; marks the report running.
    The chain is verified by the cover's step (`verify`, then the cover that prints its verdict),
    alongside the rows' pieces."""
    report = services.report_run_start(report_id)
    shutil.rmtree(workdir(report_id), ignore_errors=True)
    services.report_checkpoint_set(report, checkpoint_for(report))
    kind = kind_of(report)
    keys = kind.keys(report)
    size = piece_rows(len(keys))
    pieces = [Piece(COVER)] + [Piece(i, tuple(keys[at : at + size])) for i, at in enumerate(range(0, len(keys), size))]
    services.report_planned(
        report,
        rows=len(keys),
        # Every step of the plan (a CSV's one step: its verification).
        steps=sum(map(len, passes(pieces))) if report.format == "pdf" else 1,
        pieces=[(piece.index, list(piece.keys)) for piece in pieces] if report.format == "pdf" else None,
    )
    if report.format == "csv":
        csv_write(report, keys, workdir(report_id) / "rows.csv")
    # A PDF's CSV is written by its pieces, each its own rows (built once, for both), and joined
    # when the cover is numbered (csv_join, cover_attach).
    services.report_progress_set(report_id, 10)
    return pieces


def piece_rows(rows: int) -> int:
    """How many rows each piece of a report of `rows` rows holds: the fewest pieces of at most
    REPORT_CHUNK_ROWS, but at least one a process (REPORT_PROCESSES) as long as each keeps
    REPORT_PIECE_MIN_ROWS, and the rows shared evenly. A week's register (about 315 rows) is two pieces
    laid out at once, not one on one process while the other waits; 401 rows are two pieces of 201,
    not 400 and a last one of 1."""
    least = settings.REPORT_PIECE_MIN_ROWS
    count = max(
        math.ceil(rows / settings.REPORT_CHUNK_ROWS),
        min(settings.REPORT_PROCESSES, rows // least) if least > 0 else 1,
        1,
    )
    return max(math.ceil(rows / count), 1)


def checkpoint_for(report: Report) -> Checkpoint | None:
    """The report's checkpoint: the property's chain head signed now, after the chain since the last
    checkpoint was checked. None without a checkpoint key, or when that check finds an ordinary break
    (the cover then says BROKEN); ReportRefused when the chain contradicts a signed checkpoint."""
    try:
        return logbook.checkpoint_sign(property_id=report.property_id, reason="report")
    except CheckpointKeyMissing:
        return None
    except logbook.CheckpointRefused as refused:
        if refused.report.contradicted:
            raise ReportRefused(
                f"this report cannot be produced: the logbook contradicts what was signed earlier: {refused.report.reason}"
            ) from None
        return None


def _segment_bounds(report: Report) -> tuple[int, int]:
    """The chain segment's first and last entry numbers: from the entry after the newest signed
    checkpoint before the period's first entry (the logbook's first entry without one) to the entry of
    the first checkpoint at or after the period's last entry (the report's own, at the latest; without
    a checkpoint, the period's last entry: such a segment does not verify). So the segment covers the whole period between two
    signed heads, and an old week's costs what the latest's does: it never runs on to the chain's head."""
    period_first, period_last = period_seqs(report)
    checkpoints = Checkpoint.objects.filter(property_id=report.property_id)
    try:
        keys = checkpoint_keys()
    except CheckpointKeyMissing:
        keys = None
    start = start_checkpoint(property_id=report.property_id, before_seq=period_first, keys=keys) if keys else None
    # As the report's chain check closes its walk (chain.chain_verify_period): read by number from the
    # starting checkpoint on (the index), never from the property's first checkpoint.
    after = checkpoints.filter(seq__gt=start.seq if start is not None else 0, entry_seq__gte=period_last)
    if report.checkpoint is not None:
        after = after.filter(seq__lte=report.checkpoint.seq)
    end = after.order_by("seq").first() or report.checkpoint
    last = end.entry_seq if end is not None else period_last
    return (start.entry_seq + 1 if start is not None else 1), last


def segment_entries_write(report_id: int) -> None:
    """The chain segment's entries, one JSON line each (from the signed checkpoint before the period to
    the first one after it: an old week's as many as the latest's), written beside the pieces; the
    cover's step segment_write puts the header before them. One step of the report's progress."""
    _segment_entries(Report.objects.select_related("property", "checkpoint").get(pk=report_id))
    services.report_step_done(report_id)


def _segment_entries(report: Report) -> tuple[int, int]:
    first, last = _segment_bounds(report)
    with (workdir(report.pk) / SEGMENT_ENTRIES).open("w", encoding="utf-8") as out:
        for number, entry in enumerate(chain_segment(property_id=report.property_id, first_seq=first, last_seq=last)):
            out.write(("," if number else "") + json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
    # The bounds it used, for the header (without a checkpoint the head may have moved on since).
    (workdir(report.pk) / f"{SEGMENT_ENTRIES}.bounds").write_text(json.dumps([first, last]))
    return first, last


def segment_write(report: Report, path: Path) -> None:
    """The chain segment of the period, as JSON: its entries (segment_entries_write's, or written
    here if no step wrote them) with the checkpoints signed over them and the chain's verdict; the
    offline verifier needs nothing else."""
    start, end = period_bounds(report)
    entries = workdir(report.pk) / SEGMENT_ENTRIES
    bounds = workdir(report.pk) / f"{SEGMENT_ENTRIES}.bounds"
    first, last = json.loads(bounds.read_text()) if bounds.exists() else _segment_entries(report)
    # The checkpoints over the segment: the one it starts after, those within, the one it ends on.
    covering = Checkpoint.objects.filter(
        property_id=report.property_id, entry_seq__gte=first - 1, entry_seq__lte=last
    ).order_by("seq")
    header = {
        "format": SEGMENT_FORMAT,
        "property": {
            "id": report.property_id,
            "name": report.property.name,
            "licence": report.property.licence_number,
            "jurisdiction": report.property.jurisdiction,
            "time_zone": report.property.time_zone,
        },
        "report": {
            "id": report.pk,
            "kind": report.kind,
            "rows_are_entries": report.kind in ENTRY_KINDS,
            "csv": f"{report.kind}.csv",
            "period_from": report.period_from.isoformat(),
            "period_to": report.period_to.isoformat(),
            "period_start": start.isoformat(),
            "period_end": end.isoformat(),
            "tables": sorted(report.tables.values_list("pk", flat=True)),
        },
        # The logbook's own check of its chain when the report was made, as its cover prints it: from
        # the signed checkpoint it started from (none: the first entry) to the entry it reached.
        "chain": {
            "intact": report.chain_intact,
            "verdict": report.chain_verdict,
            "head": report.chain_head,
            "verified_from_checkpoint": report.chain_from.seq if report.chain_from else None,
            "verified_from_entry": report.chain_from.entry_seq if report.chain_from else 0,
            "verified_to_entry": report.chain_to_seq,
        },
        "checkpoint": report.checkpoint.seq if report.checkpoint else None,
        "checkpoints": [checkpoint_record(checkpoint) for checkpoint in covering],
    }
    # Written by hand around the entries, one line each, so that 100,000 of them never sit in memory.
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header, ensure_ascii=False)[:-1] + ', "entries": [\n')
        with entries.open(encoding="utf-8") as handle:
            shutil.copyfileobj(handle, out)
        out.write("]}\n")


def verify(report_id: int) -> bool:
    """The property's hash chain over the report's period, for the cover and the list (every format:
    a CSV's verdict is shown in the list and the API as a PDF's is), incrementally: from the newest
    signed checkpoint before the period's first entry, through every checkpoint after it, to the
    period's end (chain.chain_verify_period), so that its cost grows with the period, not with the
    history. A broken chain names its first broken entry; one that contradicts a signed checkpoint
    gets no report. Run by the cover's step (`piece_render`), and a CSV's one step (`csv_publish`)."""
    report = Report.objects.select_related("checkpoint").get(pk=report_id)
    first_seq, last_seq = period_seqs(report)
    verified = chain_verify_period(
        property_id=report.property_id, first_seq=first_seq, last_seq=last_seq, end=report.checkpoint
    )
    if verified.contradicted:
        raise ReportRefused(
            f"this report cannot be produced: the logbook contradicts what was signed earlier: {verified.reason}"
        )
    services.report_chain_verdict(report_id, verified)
    return verified.ok


def period_seqs(report: Report) -> tuple[int, int]:
    """The numbers (in the property's chain) of the first and the last entry of the report's period,
    up to the entry its checkpoint signed; a period without entries is the chain's end."""
    start, end = period_bounds(report)
    last = report.checkpoint.entry_seq if report.checkpoint is not None else None
    entries = Entry.objects.filter(property_id=report.property_id)
    if last is None:
        last = entries.aggregate(last=Max("seq"))["last"] or 0
    bounds = entries.filter(occurred_at__gte=start, occurred_at__lt=end, seq__lte=last).aggregate(
        first=Min("seq"), last=Max("seq")
    )
    if bounds["first"] is None:
        return max(last, 1), max(last, 1)
    return bounds["first"], bounds["last"]


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
                services.report_progress_set(report.pk, round(5 + 5 * at / max(len(keys), 1), 1))


def csv_part_write(report: Report, piece: Piece, rows: list[dict]) -> None:
    """A piece's rows as CSV, without the header: the cover joins the pieces' parts in order."""
    kind = kind_of(report)
    with (workdir(report.pk) / f"rows-{piece.index:06d}.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv_writer(out)
        for row in rows:
            writer.writerow([row[column.key] for column in kind.columns])


def csv_join(report: Report) -> Path:
    """The PDF's CSV: the header, then every piece's rows in order (the cover is numbered after they
    are all laid out, and refuses to be before: a CSV short of a piece would be attached as the
    report's)."""
    kind = kind_of(report)
    folder = workdir(report.pk)
    path = folder / "rows.csv"
    pieces = len([piece for piece in run_pieces(report) if piece.index != COVER])
    found = len(list(folder.glob("rows-*.csv")))
    if found != pieces:
        raise RuntimeError(f"the cover needs the CSV of all {pieces} pieces, and {found} are written")
    with path.open("w", newline="", encoding="utf-8") as out:
        csv_writer(out).writerow([column.label for column in kind.columns])
        for part in sorted(folder.glob("rows-*.csv")):
            with part.open(encoding="utf-8", newline="") as handle:
                shutil.copyfileobj(handle, out)
    return path


def _html(report: Report, piece: Piece, rows: list[dict] | None = None) -> str:
    kind = kind_of(report)
    zone = report.property.zone
    context = {
        "report": report,
        "kind": kind,
        "citation": kind.citation(report),
        "generated": local_text(report.requested_at, zone),
        "tables": ", ".join(report.tables.order_by("number").values_list("number", flat=True)) or "all",
    }
    if piece.index == COVER:
        checkpoint = report.checkpoint or (
            Checkpoint.objects.filter(property_id=report.property_id).order_by("-seq").first()
        )
        context["checkpoint"] = checkpoint
        context["chain_checked"] = chain_checked_words(report)
        context["segment"] = SEGMENT
        context["no_checkpoint"] = (
            "no checkpoint key is configured, so this logbook's history is not signed outside its database"
            if not settings.LOGBOOK_CHECKPOINT_KEYRING
            else "the logbook has no entry yet, or its chain did not verify (above), so none was signed"
        )
        if checkpoint is not None:
            context["checkpoint_signed"] = local_text(checkpoint.signed_at, zone, seconds=True)
            if checkpoint.timestamp_token:
                stamped = timestamp_check(bytes(checkpoint.timestamp_token), bytes.fromhex(checkpoint.signature))
                context["checkpoint_time"] = stamped if stamped.ok else None
        # The file is signed with the authority's time or not at all (signing.py): the cover says which.
        context["tsa_url"] = settings.LOGBOOK_TSA_URL if settings.LOGBOOK_REPORT_SIGNING_KEY else ""
        context["charts"] = kind.charts(report)
        context["artworks"] = [_artwork_shown(layout) for layout in getattr(kind, "artworks", lambda r: [])(report)]
        return render_to_string("reports/cover.html", context)
    cells = cells_of(kind)
    context["cells"] = cells
    rows = kind.rows(report, list(piece.keys)) if rows is None else rows
    # The register's small prints of the entries' photos, in the cell that lists their hashes (the
    # rows are the piece's keys, in order).
    printed = getattr(kind, "prints", False)
    prints = photo_prints(list(piece.keys)) if printed else {}
    row_prints = [prints.get(key, []) for key in piece.keys] if printed else [[]] * len(rows)
    context["print_cell"] = next((n for n, cell in enumerate(cells) if "photos" in cell.keys), None)
    context["rows"] = [
        {"cells": [cell.text(row) for cell in cells], "prints": shown}
        for row, shown in zip(rows, row_prints, strict=True)
    ]
    return render_to_string("reports/piece.html", context)


PRINT_SIDE = 120  # pixels a side of a photo's print in the register (about 2 cm at the page's scale)


def photo_prints(entry_ids: list[int]) -> dict[int, list[str]]:
    """Each entry's photos as small prints (JPEG data: URIs, so WeasyPrint fetches nothing), made from
    the original whose SHA-256 the entry signs, checked first: a photo that is not the file its hash
    names refuses the run, nothing is signed (as a layout's artwork does)."""
    from PIL import Image, ImageOps

    from inspections.logbook.models import EntryPhoto

    prints: dict[int, list[str]] = {}
    for photo in EntryPhoto.objects.filter(entry_id__in=entry_ids).order_by("entry_id", "position"):
        with photo.original.open("rb") as handle:
            content = handle.read()
        if hashlib.sha256(content).hexdigest() != photo.sha256:
            raise RunRefused(
                f"photo {photo.position} of entry {photo.entry_id} is not the file its SHA-256 names: nothing is signed"
            )
        with Image.open(io.BytesIO(content)) as image:
            image.draft("RGB", (PRINT_SIDE, PRINT_SIDE))  # a JPEG decoded at a fraction of its size
            small = ImageOps.exif_transpose(image).convert("RGB")
            small.thumbnail((PRINT_SIDE, PRINT_SIDE))
            out = io.BytesIO()
            small.save(out, format="JPEG", quality=70)
        prints.setdefault(photo.entry_id, []).append(
            "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode()
        )
    return prints


def chain_checked_words(report: Report) -> str:
    """What the report's check of the chain covered, from where to where, as its cover says it."""
    if report.chain_intact is None or report.chain_to_seq is None:
        return ""
    start = report.chain_from
    if start is not None:
        zone = report.property.zone
        origin = gettext("signed checkpoint #%(seq)s (entry #%(entry)s, signed %(signed)s by key %(key)s)") % {
            "seq": start.seq,
            "entry": start.entry_seq,
            "signed": local_text(start.signed_at, zone, seconds=True),
            "key": start.key_id,
        }
    if not report.chain_intact:
        if start is None:
            return gettext("The check started from the first entry of the property's logbook.")
        return gettext("The check started from %(origin)s.") % {"origin": origin}
    if start is None:
        words = gettext("Chain verified from the first entry of the property's logbook to entry #%(to)s.") % {
            "to": report.chain_to_seq
        }
    else:
        words = gettext(
            "Chain verified from %(origin)s to entry #%(to)s: the %(read)s entries after that checkpoint "
            "re-hashed, and every signed checkpoint among them checked against the published keys. The entries "
            "up to #%(entry)s were not re-checked for this report: that checkpoint's signature vouches for them, "
            "and verify_logbook checks the whole chain from the first entry."
        ) % {
            "origin": origin,
            "to": report.chain_to_seq,
            "read": f"{report.chain_rows_read or 0:,}",
            "entry": start.entry_seq,
        }
    receipt = report.checkpoint
    if receipt is not None and receipt.entry_seq > report.chain_to_seq:
        words += " " + gettext(
            "From entry #%(to)s to #%(head)s the chain was checked when checkpoint #%(receipt)s was signed for "
            "this report (a checkpoint is signed only over a chain checked since the one before it)."
        ) % {"to": report.chain_to_seq, "head": receipt.entry_seq, "receipt": receipt.seq}
    return words


def _artwork_shown(layout) -> dict:
    """A layout's artwork on the cover: an image inline (a data: URI, so WeasyPrint fetches nothing),
    a PDF named as attached (WeasyPrint cannot draw another PDF's page)."""
    shown = {"layout": layout, "attachment": None, "image": None}
    if layout.artwork_is_image():
        with layout.artwork.open("rb") as handle:
            content = handle.read()
        if hashlib.sha256(content).hexdigest() != layout.artwork_sha256:
            raise RunRefused(f"the artwork of layout {layout.pk} is not the file its SHA-256 names: nothing is signed")
        encoded = base64.b64encode(content).decode("ascii")
        shown["image"] = f"data:{artwork_media_type(layout.artwork_kind)};base64,{encoded}"
    else:
        shown["attachment"] = artwork_attachment_name(layout)
    return shown


def cover_attach(report: Report, writer) -> None:
    """The cover's attachments, added by pypdf to the cover being numbered (`piece_stamp`): the CSV
    joined from the pieces' parts, the chain segment with the verdict of the verification the cover
    printed, and the PDF artworks of the layouts in the report, each only as the file its SHA-256
    names (the one the layout's signatures bind)."""
    attach(
        writer,
        csv_join(report),
        name=f"{report.kind}.csv",
        description="The same rows as this report, as CSV",
        relationship="/Data",
        media_type=CSV_MEDIA_TYPE,
    )
    segment = workdir(report.pk) / SEGMENT
    segment_write(report, segment)
    attach(
        writer,
        segment,
        name=SEGMENT,
        description="The logbook's hash chain over the period and the signed checkpoints covering it "
        "(check it with logbook-verify, the logbook_proof package)",
        relationship="/Supplement",
        media_type="application/json",
    )
    kind = kind_of(report)
    for layout in getattr(kind, "artworks", lambda r: [])(report):
        if layout.artwork_is_image():
            continue  # printed on the cover (_artwork_shown)
        attached = attach(
            writer,
            Path(layout.artwork.path),
            name=artwork_attachment_name(layout),
            description=f"Artwork of the layout {layout.name} (SHA-256 {layout.artwork_sha256})",
            relationship="/Source",
            media_type=artwork_media_type(layout.artwork_kind),
        )
        if attached != layout.artwork_sha256:
            raise RunRefused(f"the artwork of layout {layout.pk} is not the file its SHA-256 names: nothing is signed")


ATTACHMENT_BLOCK = 1 << 20  # an attachment is read and compressed a megabyte at a time


def attach(writer, path: Path, *, name: str, description: str, relationship: str, media_type: str) -> str:
    """The file at `path` embedded as PDF/A-3 (ISO 19005-3, 6.8) wants an associated file: a file
    specification with /F and /UF, /Desc and /AFRelationship, its stream with the MIME type as
    /Subtype and /Params (size, modification date, MD5 checksum), listed in the catalog's
    /EmbeddedFiles names tree (pypdf's add_attachment) and once in its /AF. The file is compressed
    (Flate, zlib's default level) as it is read, so a 100,000-entry segment is never whole in memory
    uncompressed. Returns the SHA-256 of what was attached."""
    from pypdf.generic import (
        ArrayObject,
        ByteStringObject,
        DictionaryObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    deflate = zlib.compressobj()
    compressed, md5, sha256, size = [], hashlib.md5(usedforsecurity=False), hashlib.sha256(), 0
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(ATTACHMENT_BLOCK), b""):
            compressed.append(deflate.compress(block))
            md5.update(block)
            sha256.update(block)
            size += len(block)
    compressed.append(deflate.flush())

    # The catalog's /Names a direct dictionary, as WeasyPrint writes it: verifiers given out with
    # earlier reports read it so (logbook_proof.verify.attachments_of).
    writer.root_object.setdefault(NameObject("/Names"), DictionaryObject())
    attachment = writer.add_attachment(name, b"")
    attachment.pdf_object[NameObject("/UF")] = TextStringObject(name)
    attachment.description = TextStringObject(description)
    attachment.associated_file_relationship = NameObject(relationship)
    attachment.subtype = NameObject(f"/{media_type}")
    attachment.size = NumberObject(size)
    attachment.modification_date = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    attachment.checksum = ByteStringObject(md5.digest())
    # The stream's data as written: already Flate-encoded, as its /Filter says.
    stream = attachment.pdf_object["/EF"]["/F"].get_object()
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    stream.set_data(b"".join(compressed))
    listed = writer.root_object.setdefault(NameObject("/AF"), ArrayObject())
    listed.append(attachment.pdf_object.indirect_reference)
    return sha256.hexdigest()


def piece_render(report_id: int, index: int) -> tuple[str, int]:
    """Pass 1: the run's piece `index` laid out once (the rows `plan` gave it), as PDF/A-3b, its
    page-number corner left blank, its pages and SHA-256 recorded; returns its file and its number of
    pages. The cover's step verifies the chain first (`verify`): the cover prints the verdict. Its
    attachments are added when it is numbered (`cover_attach`), once every piece has written its CSV."""
    from weasyprint import HTML  # imported where used: the web process never needs it

    report = running(report_id)
    planned = ReportPiece.objects.filter(report=report, run=report.run, index=int(index)).first()
    if planned is None:
        raise RunRefused(f"report {report_id} has no piece {index} in its run")
    piece = Piece(planned.index, tuple(planned.keys))
    path = piece_path(report_id, piece.index)
    rows = None
    if piece.index == COVER:
        verify(report_id)
        report = running(report_id)  # with the verdict
    else:
        rows = kind_of(report).rows(report, list(piece.keys))
        csv_part_write(report, piece, rows)
    document = HTML(string=_html(report, piece, rows)).render()
    document.write_pdf(path, pdf_variant="pdf/a-3b", pdf_identifier=f"report-{report_id}".encode())
    services.report_piece_rendered(planned.pk, pages=len(document.pages), sha256=file_sha256(path))
    services.report_step_done(report_id)
    return str(path), len(document.pages)


@contextmanager
def own_files_read(*paths: Path | str) -> Iterator[None]:
    """pypdf, reading files this run wrote and checked against their recorded SHA-256: a stream as
    long as the largest of them. pypdf refuses a stream declared longer than its limit (75 MB), a
    guard against hostile files; the cover's chain segment is ours and grows with the history it
    carries (from the first entry when no signed checkpoint precedes the period: 106 MB compressed at
    1,000,000 entries), and a register must not fail on it (docs/architecture.md, "The segment")."""
    from pypdf import apply_configuration, get_configuration

    longest = max(Path(path).stat().st_size for path in paths)
    limit = max(get_configuration().maximum_declared_stream_length, longest)
    with apply_configuration(maximum_declared_stream_length=limit):
        yield


def piece_stamp(report_id: int, index: int) -> str:
    """Pass 2: "Page X of Y" on each page of the piece, from a page-number layer WeasyPrint draws
    with the same page rules (its counter starting at the piece's first page), merged by pypdf.
    Laying out that layer costs a trifle next to the rows', so each piece is laid out once. The
    numbers come from the run's pieces' page counts, once every piece is rendered; the piece's file
    is checked against the hash recorded when it was rendered, and the numbered file's is recorded.
    The cover's step attaches its files too (`cover_attach`): the CSV and the segment of a long
    register take a while to compress, and the pieces' steps move the progress meanwhile."""
    from pypdf import PdfReader, PdfWriter
    from weasyprint import HTML

    report = running(report_id)
    pieces = run_pieces(report)
    counts = [piece.pages for piece in pieces if piece.pages is not None]
    if len(counts) != len(pieces):
        raise RunRefused(f"report {report_id}: a piece is not rendered yet, so the pages cannot be numbered")
    firsts, total_pages = offsets(counts)
    piece = piece_checked(report, int(index), numbered=False)
    at = [planned.index for planned in pieces].index(piece.index)
    first_page, pages = firsts[at], counts[at]
    path = str(piece_path(report_id, piece.index))

    layer = render_to_string(
        "reports/page_numbers.html", {"first_page": first_page, "total_pages": total_pages, "pages": range(pages)}
    )
    numbers = PdfReader(io.BytesIO(HTML(string=layer).write_pdf(pdf_variant="pdf/a-3b")))
    if len(numbers.pages) != pages:
        raise RuntimeError(f"the page-number layer has {len(numbers.pages)} pages for a piece of {pages}")
    stamped = piece_path(report_id, piece.index, numbered=True)
    with own_files_read(path):
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
        if piece.index == COVER:
            cover_attach(report, writer)
        writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
        with stamped.open("wb") as handle:
            writer.write(handle)
    services.report_piece_numbered(piece.pk, sha256=file_sha256(stamped))
    services.report_step_done(report_id)
    return str(stamped)


def offsets(counts: list[int]) -> tuple[list[int], int]:
    """Each piece's first page number, and the total, from the pieces' page counts in order."""
    firsts, page = [], 1
    for count in counts:
        firsts.append(page)
        page += count
    return firsts, page - 1


def join(report_id: int) -> None:
    """Join the run's numbered pieces behind the cover (its catalog keeps the PDF/A metadata and
    attachment), each checked against the hash recorded when it was written, sign, hash the file and
    publish it; the work files go. A report not being rendered, or a piece missing or changed since
    its run wrote it, is refused before anything is signed."""
    from pypdf import PdfReader, PdfWriter

    report = running(report_id)
    pieces = run_pieces(report)
    if not pieces or pieces[0].index != COVER:
        raise RunRefused(f"report {report_id} has no cover in its run")
    paths = [str(piece_path(report_id, piece_checked(report, piece.index, numbered=True).index, numbered=True))
             for piece in pieces]  # fmt: skip
    out = workdir(report_id) / "report.pdf"
    with own_files_read(*paths):
        writer = PdfWriter(clone_from=paths[0])
        # Progress moves from 95 to 99 as the pieces are joined (a long register's join takes a while).
        for number, path in enumerate(paths[1:], start=1):
            reader = PdfReader(path)
            for page in reader.pages:
                writer.add_page(page)
            services.report_progress_set(report_id, round(95 + 3 * number / len(paths), 1))
        with out.open("wb") as handle:
            writer.write(handle)
    services.report_progress_set(report_id, 99)  # written: signed and published next
    pages = len(writer.pages)
    signed = workdir(report_id) / "report-signed.pdf"
    signed_by = signing.pdf_sign(
        out,
        signed,
        reason=f"{report.get_kind_display()}, {report.period_from} to {report.period_to}: generated and unchanged since",
        location=report.property.name,
    )
    if signed_by is not None:
        out = signed
    publish(report, out, pages=pages, signed_by=signed_by or "")


def publish(report: Report, path: Path, *, pages: int | None, signed_by: str = "") -> None:
    """The file published as the report, once: only by the run that rendered it, while it runs (a
    report done is never published again, a run planned again since never publishes the old one's)."""
    name = f"{report.kind}-{report.property_id}-{report.period_from}-{report.period_to}-{report.pk}.{report.format}"
    services.report_publish(report, path, name=name, sha256=file_sha256(path), pages=pages, signed_by=signed_by)
    shutil.rmtree(workdir(report.pk), ignore_errors=True)


def csv_publish(report_id: int) -> None:
    """A CSV report: the chain verified (its one step after the plan), then the file published."""
    verify(report_id)
    services.report_step_done(report_id)
    report = running(report_id)
    publish(report, workdir(report_id) / "rows.csv", pages=None)


def failed(report_id: int, error: str, *, run: str | None = None) -> None:
    """The report failed: it says why, and no file of it is ever served. A report done stays done
    (a failure reported late, or by a message someone else sent, does not take it back); given a run,
    only that run's failure fails the report."""
    if services.report_fail(report_id, error, run=run):
        shutil.rmtree(workdir(report_id), ignore_errors=True)


def layout_warm() -> None:
    """WeasyPrint and pypdf imported, and a page laid out, so that WeasyPrint's fonts are loaded
    (fontconfig and Pango, at a process's first layout): done before a local pool forks, its
    processes inherit them instead of each paying them on its first piece. Importing WeasyPrint
    takes 0.5-1.5 s and the first layout 0.3 s more, where a week's pieces take 1-2 s each (bench/README.md,
    goal 4); a Celery worker's processes pay both once, at their first report."""
    import pypdf  # noqa: F401
    from weasyprint import HTML

    HTML(
        string=render_to_string("reports/page_numbers.html", {"first_page": 1, "total_pages": 1, "pages": [0]})
    ).render()


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
        # connections, so these are closed first (each process opens its own). They inherit what
        # this process has loaded (layout_warm).
        layout_warm()
        connections.close_all()
        fork = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=processes, mp_context=fork) as pool:
            for steps in passes(pieces):
                for job in [pool.submit(step_run, report_id, step) for step in steps]:
                    job.result()
        join(report_id)
    except Exception as error:
        failed(report_id, f"{type(error).__name__}: {error}")
        raise
    return Report.objects.get(pk=report_id)
