"""The worker is no signing oracle (issue 32, item 2): a report's task messages carry its id and at
most a piece's index, never a path; the steps find their files from the report's run, inside its own
work directory; only what the same run rendered (each file's SHA-256 recorded as it was written) is
joined and signed; a report done is never joined, signed or failed again.

The second red team's attack: a row in beat's schedule (or any message on the broker) calling
`report_join([path of a crafted PDF], report_id)`, which signed the file with the report key and
published it as the report."""

import inspect
from pathlib import Path

import pytest
from pypdf import PdfWriter

from inspections.reports import render, signing, tasks
from inspections.reports.models import Report, ReportStatus
from tests.factories import artwork_upload, pdf_bytes
from tests.inspections.test_reports import _approved_layout_with
from tests.support.reports import requested

# The errback's own parameters, as Celery calls it (the failed request, its exception, its traceback).
ERRBACK = {"request", "exc", "traceback"}


@pytest.fixture
def signed(monkeypatch):
    """Every call of the report key's signing, recorded (and still made)."""
    calls = []
    original = signing.pdf_sign

    def spy(source, target, **kwargs):
        calls.append(Path(source))
        return original(source, target, **kwargs)

    monkeypatch.setattr(signing, "pdf_sign", spy)
    return calls


@pytest.fixture
def crafted(media) -> Path:
    """A PDF someone could place at a predictable path under MEDIA_ROOT (as a layout's artwork is)."""
    path = Path(media) / "layouts" / "crafted.pdf"
    path.parent.mkdir(parents=True, exist_ok=True)
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    with path.open("wb") as handle:
        writer.write(handle)
    return path


def test_no_report_task_takes_a_path_or_rows():
    """The whole class: every reports task takes the report's id and at most a piece's index (and the
    errback the run it fails), so no message can name a file or the rows to print."""
    found = {}
    for name, task in vars(tasks).items():
        if isinstance(getattr(task, "name", None), str) and task.name.startswith("inspections.reports.tasks."):
            found[name] = set(inspect.signature(task.run).parameters) - ERRBACK
    assert "report_join" in found and "report_piece_stamp" in found
    for name, parameters in found.items():
        assert parameters <= {"report_id", "index", "run"}, f"{name} takes {sorted(parameters)}"


@pytest.mark.any_hour
def test_a_crafted_join_naming_a_foreign_file_signs_nothing(committed_db, media, history, crafted, signed):
    """A report being rendered, and a message naming another file: refused, nothing signed or published."""
    report = requested(history)
    render.plan(report.pk)
    for args in (([str(crafted)], report.pk), (report.pk,)):
        result = tasks.report_join.apply(args=args)
        assert result.failed()
    assert signed == []
    report.refresh_from_db()
    assert report.status != ReportStatus.DONE and not report.file and not report.sha256


@pytest.mark.any_hour
def test_a_report_done_is_never_joined_signed_or_failed_again(
    committed_db, media, history, crafted, signing_keys, signed
):
    done = render.generate_locally(requested(history).pk)
    assert done.status == ReportStatus.DONE and len(signed) == 1
    before = (done.file.name, done.sha256, Path(done.file.path).read_bytes())
    for task, args in (
        (tasks.report_join, ([str(crafted)], done.pk)),
        (tasks.report_join, (done.pk,)),
        (tasks.report_pieces_stamp, ([], done.pk, [-1, []])),
        (tasks.report_pieces_stamp, (done.pk,)),
        (tasks.report_piece_render, (done.pk, 0)),
    ):
        task.apply(args=args)
    tasks.report_failed.apply(args=(None, RuntimeError("crafted"), None, done.pk))
    assert len(signed) == 1, "the report key signed again"
    after = Report.objects.get(pk=done.pk)
    assert after.status == ReportStatus.DONE and not after.error
    assert (after.file.name, after.sha256, Path(after.file.path).read_bytes()) == before


@pytest.mark.any_hour
def test_a_piece_changed_after_it_was_numbered_is_not_signed(
    committed_db, media, history, crafted, signed, monkeypatch
):
    """The pieces in the work directory replaced between their numbering and the join (through the
    local run, which joins in this process): the join refuses them and the report fails."""
    join = render.join

    def altered_first(*args, **kwargs):
        for numbered in (Path(media) / "reports" / "work" / str(report.pk)).glob("*-numbered.pdf"):
            numbered.write_bytes(crafted.read_bytes())
        return join(*args, **kwargs)

    monkeypatch.setattr(render, "join", altered_first)
    report = requested(history)
    with pytest.raises(Exception, match="not the file its run wrote"):
        render.generate_locally(report.pk)
    report.refresh_from_db()
    assert signed == [] and report.status == ReportStatus.FAILED and not report.file


@pytest.mark.any_hour
def test_a_piece_changed_after_it_was_rendered_is_not_numbered(committed_db, media, history, crafted, signed):
    report = requested(history)
    cover, *pieces = render.plan(report.pk)
    render.verify(report.pk)
    render.segment_entries_write(report.pk)
    for piece in [*pieces, cover]:
        render.piece_render(report.pk, piece.index)
    render.piece_path(report.pk, pieces[0].index).write_bytes(crafted.read_bytes())
    with pytest.raises(render.RunRefused, match="not the file its run wrote"):
        render.piece_stamp(report.pk, pieces[0].index)
    with pytest.raises(render.RunRefused):
        render.join(report.pk)
    assert signed == []


@pytest.mark.any_hour
def test_only_the_current_run_is_joined(committed_db, media, history, signed):
    """Every piece of a run rendered and numbered, then the report planned again (its task delivered
    twice): the first run's files are not the report's any more, and nothing of them is signed."""
    report = requested(history)
    pieces = render.plan(report.pk)
    render.verify(report.pk)
    render.segment_entries_write(report.pk)
    for piece in [*pieces[1:], pieces[0]]:
        render.piece_render(report.pk, piece.index)
    for piece in pieces:
        render.piece_stamp(report.pk, piece.index)
    first_run = Report.objects.get(pk=report.pk).run
    render.plan(report.pk)
    assert Report.objects.get(pk=report.pk).run != first_run
    with pytest.raises(render.RunRefused):
        render.join(report.pk)
    assert signed == []


@pytest.mark.any_hour
def test_an_artwork_changed_on_disk_is_not_attached_or_signed(committed_db, media, history, crafted, signed):
    """Only the artwork file its layout's signatures bind (its SHA-256) goes into a signed report."""
    layout = _approved_layout_with(history, artwork_upload(pdf_bytes(), "a.pdf"))
    Path(layout.artwork.path).write_bytes(crafted.read_bytes())
    report = requested(history, kind="approvals_in_effect")
    with pytest.raises(render.RunRefused, match="artwork"):
        render.generate_locally(report.pk)
    report.refresh_from_db()
    assert signed == [] and report.status == ReportStatus.FAILED
