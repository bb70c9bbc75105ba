"""A layout's artwork as a stored upload (issue 32, item 4): its pixels bounded from its header, a PDF
with active content refused, one file per SHA-256 in a property, a quota per property, the retention
rule for rejected layouts' files, and every download an attachment under `sandbox`, never sniffed."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.utils import timezone
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, NumberObject, TextStringObject

from compliance.approvals.models import LayoutSubmission
from tests.factories import artwork_upload, pdf_bytes
from tests.inspections.test_api import assert_refused, client_for, signature
from tests.photos import image_bytes, png_bomb

BASIC = ["name_or_logo", "betting_areas", "min_max_signage", "drop_box", "tip_box"]
PIXELS_POLICY = "Product policy: a layout's artwork image has at most {} megapixels"
ACTIVE_POLICY = (
    "Product policy: a layout's artwork PDF carries no active content (no JavaScript, no action run on "
    "opening, no launched program, no embedded file)"
)


def post(casino, content: bytes, name: str = "layout.png", who=None):
    body = {
        "property": casino.property.pk,
        "game": "roulette",
        "name": "Keystone 2026",
        "features": BASIC,
        "tables": [casino.table.pk],
        "artwork": artwork_upload(content, name),
    }
    return client_for(who or casino.compliance).post("/api/layouts/", body, format="multipart")


def stored_files(property_id: int) -> list[str]:
    folder = f"layouts/{property_id}"
    return sorted(default_storage.listdir(folder)[1]) if default_storage.exists(folder) else []


# ---- Pixels, read from the header ----


def test_a_picture_over_the_pixels_is_refused_naming_the_cap_and_nothing_is_stored(casino, settings):
    settings.LAYOUT_ARTWORK_MAX_PIXELS = 4_000
    errors = assert_refused(
        post(casino, image_bytes("PNG", size=(80, 60))),  # 4,800 pixels
        "layout_artwork_too_many_pixels",
        PIXELS_POLICY.format("0.004"),
        field="artwork",
    )
    assert errors[0]["message"] == (
        "The artwork is a picture of 0.0048 megapixels; a layout's picture may have at most 0.004 megapixels."
    )
    assert LayoutSubmission.objects.count() == 0 and stored_files(casino.property.pk) == []
    assert post(casino, image_bytes("JPEG", size=(80, 50)), "layout.jpg").status_code == 201  # 4,000: at the cap


def test_a_decompression_bomb_is_refused_from_its_header_with_its_pixels_named(casino):
    """400 megapixels in a small PNG, past Pillow's own limit: refused, never decoded."""
    response = post(casino, png_bomb())
    errors = assert_refused(response, "layout_artwork_too_many_pixels", PIXELS_POLICY.format("25"), field="artwork")
    assert "400 megapixels" in errors[0]["message"] and "at most 25 megapixels" in errors[0]["message"]
    assert LayoutSubmission.objects.count() == 0


def test_a_picture_whose_header_cannot_be_read_is_refused(casino):
    assert_refused(
        post(casino, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64),
        "layout_artwork_unreadable",
        PIXELS_POLICY.format("25"),
        field="artwork",
    )


# ---- A PDF's active content ----


def _action(kind: str, **entries) -> DictionaryObject:
    action = DictionaryObject({NameObject("/S"): NameObject(kind)})
    action.update({NameObject(f"/{k}"): v for k, v in entries.items()})
    return action


ACTIVE_PDFS = {
    "open-action-javascript": (
        lambda: pdf_bytes(catalog={"/OpenAction": _action("/JavaScript", JS=TextStringObject("app.alert(1)"))}),
        "/JS, /JavaScript, /OpenAction",
    ),
    "open-action-launch": (
        lambda: pdf_bytes(catalog={"/OpenAction": _action("/Launch", F=TextStringObject("calc.exe"))}),
        "/Launch, /OpenAction",
    ),
    "document-javascript": (
        lambda: pdf_bytes(
            catalog={
                "/Names": DictionaryObject(
                    {
                        NameObject("/JavaScript"): DictionaryObject(
                            {
                                NameObject("/Names"): ArrayObject(
                                    [TextStringObject("x"), _action("/JavaScript", JS=TextStringObject("1"))]
                                )
                            }
                        )
                    }
                )
            }
        ),
        "/JS, /JavaScript",
    ),
    "additional-actions": (
        lambda: pdf_bytes(catalog={"/AA": DictionaryObject({NameObject("/WC"): _action("/SubmitForm")})}),
        "/AA, /SubmitForm",
    ),
    "embedded-file": (lambda: pdf_bytes(attachment=b"MZ an executable"), "/EmbeddedFiles"),
}


@pytest.mark.parametrize("kind", ACTIVE_PDFS)
def test_a_pdf_with_active_content_is_refused_naming_what_it_carries(casino, kind):
    make, found = ACTIVE_PDFS[kind]
    errors = assert_refused(post(casino, make(), "layout.pdf"), "layout_artwork_active", ACTIVE_POLICY, field="artwork")
    assert f"active content ({found})" in errors[0]["message"]
    assert LayoutSubmission.objects.count() == 0 and stored_files(casino.property.pk) == []


def test_active_content_written_with_an_escaped_name_is_refused(casino):
    """`/J#61vaScript` is `/JavaScript` to a viewer: names are read decoded, never matched as bytes."""
    plain = pdf_bytes(catalog={"/OpenAction": _action("/JavaScript", JS=TextStringObject("app.alert(1)"))})
    escaped = plain.replace(b"/JavaScript", b"/J#61vaScript").replace(b"/JS ", b"/J#53 ")
    assert b"/JavaScript" not in escaped
    response = post(casino, escaped, "layout.pdf")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] in ("layout_artwork_active", "layout_artwork_unreadable")


def test_a_pdf_that_opens_on_a_page_is_no_action_and_is_accepted(casino):
    """An /OpenAction that is a destination (the page to show, and how) runs nothing."""
    destination = ArrayObject([NumberObject(0), NameObject("/Fit")])
    assert post(casino, pdf_bytes(catalog={"/OpenAction": destination}), "layout.pdf").status_code == 201


@pytest.mark.parametrize("content", [b"%PDF-1.7\n%%EOF\n", b"%PDF-1.4\n" + b"\x00" * 200], ids=["empty", "garbage"])
def test_a_pdf_that_cannot_be_read_is_refused_since_its_content_cannot_be_checked(casino, content):
    assert_refused(post(casino, content, "layout.pdf"), "layout_artwork_unreadable", ACTIVE_POLICY, field="artwork")


def test_an_encrypted_pdf_is_refused_since_its_content_cannot_be_checked(casino):
    import io

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes())))
    writer.encrypt(user_password="", owner_password="owner")
    out = io.BytesIO()
    writer.write(out)
    assert_refused(
        post(casino, out.getvalue(), "layout.pdf"), "layout_artwork_unreadable", ACTIVE_POLICY, field="artwork"
    )


# ---- One file per SHA-256, a quota per property ----


def test_the_same_artwork_submitted_again_is_stored_once_in_its_property(casino, other_casino):
    png = image_bytes("PNG", size=(40, 30))
    first, second = post(casino, png).json(), post(casino, png, "renamed.png").json()
    layouts = LayoutSubmission.objects.filter(pk__in=[first["id"], second["id"]])
    sha = hashlib.sha256(png).hexdigest()
    assert {layout.artwork.name for layout in layouts} == {f"layouts/{casino.property.pk}/{sha}.png"}
    assert stored_files(casino.property.pk) == [f"{sha}.png"]
    # Another property keeps its own file: nothing of one tenant's store is another's.
    assert post(other_casino, png, who=other_casino.compliance).status_code == 201
    assert stored_files(other_casino.property.pk) == [f"{sha}.png"]


def test_a_property_over_its_artwork_quota_is_refused_and_the_same_file_still_fits(casino, other_casino, settings):
    first = image_bytes("PNG", size=(40, 30))
    settings.LAYOUT_ARTWORK_QUOTA_BYTES = len(first) + 10
    assert post(casino, first).status_code == 201
    errors = assert_refused(
        post(casino, image_bytes("PNG", size=(41, 30))),
        "layout_artwork_quota",
        f"Product policy: a property keeps at most {settings.LAYOUT_ARTWORK_QUOTA_BYTES / 1024:.3g} KB of layout artwork",
        field="artwork",
    )
    assert "a property keeps at most" in errors[0]["message"]
    assert len(stored_files(casino.property.pk)) == 1
    assert post(casino, first).status_code == 201  # the file kept already: nothing added
    assert post(other_casino, image_bytes("PNG", size=(41, 30)), who=other_casino.compliance).status_code == 201


# ---- The retention rule for rejected layouts' files ----


def _decide(layout_id: int, regulator, decision: str):
    response = client_for(regulator).post(
        f"/api/layouts/{layout_id}/decision/",
        {"decision": decision, "reference": "L-1", "signature": signature(regulator)},
        format="json",
    )
    assert response.status_code == 200, response.content


def test_a_rejected_layouts_artwork_is_removed_after_the_retention_and_its_hash_stays(casino, regulator, settings):
    settings.LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS = 30
    shared, alone, recent = (image_bytes("PNG", size=(40 + n, 30)) for n in range(3))
    rejected_alone = post(casino, alone).json()
    rejected_shared = post(casino, shared).json()
    pending_shared = post(casino, shared).json()  # the same file, on a layout not rejected
    _decide(rejected_alone["id"], regulator, "rejected")
    _decide(rejected_shared["id"], regulator, "rejected")
    with time_machine.travel(timezone.now() + timedelta(days=31), tick=False):
        rejected_recent = post(casino, recent).json()
        _decide(rejected_recent["id"], regulator, "rejected")
        out = StringIO()
        call_command("purge_rejected_artwork", stdout=out)
    assert "1 artwork file(s)" in out.getvalue()
    names = {
        pk: LayoutSubmission.objects.get(pk=pk).artwork.name for pk in (rejected_alone["id"], pending_shared["id"])
    }
    assert not default_storage.exists(names[rejected_alone["id"]])
    assert default_storage.exists(names[pending_shared["id"]])  # kept: a pending layout has it
    assert default_storage.exists(LayoutSubmission.objects.get(pk=rejected_recent["id"]).artwork.name)
    # The layout keeps what its signatures bind; its download says the file is gone.
    layout = LayoutSubmission.objects.get(pk=rejected_alone["id"])
    assert layout.artwork_sha256 == hashlib.sha256(alone).hexdigest()
    assert client_for(regulator).get(f"/api/layouts/{layout.pk}/artwork/").status_code == 404


# ---- Served as an attachment, sandboxed, never sniffed ----


@pytest.mark.parametrize("content, name", [(None, "layout.png"), (pdf_bytes(), "layout.pdf")], ids=["png", "pdf"])
def test_the_artwork_is_served_as_a_sandboxed_attachment_never_sniffed(casino, content, name):
    layout = post(casino, content, name).json()
    for url in (layout["artwork_download"], f"/layouts/{layout['id']}/artwork/"):
        client = client_for(casino.compliance)
        if not url.startswith("/api/"):
            client.force_login(casino.compliance)
        response = client.get(url)
        assert response.status_code == 200
        assert response["Content-Disposition"].startswith("attachment;")
        assert response["Content-Security-Policy"].split(";")[0] == "sandbox"
        assert response["X-Content-Type-Options"] == "nosniff"


def test_the_same_artwork_submitted_at_once_is_stored_once(committed_db, casino):
    """Four submissions of the same content together: the property's lock makes one write the file
    and the others reference it (on SQLite the write lock, on PostgreSQL the row's)."""
    from compliance.approvals.services import layout_submit
    from tests.inspections.test_concurrency import run_at_once

    png = image_bytes("PNG", size=(40, 30))

    def submit_one():
        return layout_submit(
            prop=casino.property,
            game="roulette",
            name="Keystone 2026",
            features=BASIC,
            tables=[casino.table],
            artwork=artwork_upload(png, "layout.png"),
            created_by=casino.compliance,
        )

    results = run_at_once([submit_one for _ in range(4)])
    assert all(isinstance(result, LayoutSubmission) for result in results), results
    assert {result.artwork.name for result in results} == {
        f"layouts/{casino.property.pk}/{hashlib.sha256(png).hexdigest()}.png"
    }
    assert stored_files(casino.property.pk) == [f"{hashlib.sha256(png).hexdigest()}.png"]


def test_beat_runs_the_retention_rule_daily(casino, regulator, settings, beat_started):
    from django_celery_beat.models import PeriodicTask

    from compliance.approvals import tasks
    from config.beat import BEAT_TASKS

    row = PeriodicTask.objects.get(task="compliance.approvals.tasks.rejected_artwork_purge")
    assert row.enabled and (row.crontab.hour, row.crontab.minute) == ("4", "30") and row.task in BEAT_TASKS
    settings.LAYOUT_ARTWORK_REJECTED_RETENTION_DAYS = 0
    layout = post(casino, image_bytes("PNG", size=(40, 30))).json()
    _decide(layout["id"], regulator, "rejected")
    assert tasks.rejected_artwork_purge.apply().get() == 1
    assert stored_files(casino.property.pk) == []
