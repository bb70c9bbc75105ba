"""The offline verifier checks a photo's original against the SHA-256 its entry signs (issue 36,
item 2): the file the logbook kept verifies, a changed one and the pages' copy do not."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.storage import default_storage

from tests.inspections.test_reports import requested
from tests.inspections.test_signed_reports import keys_pem, offline
from tests.photos import image_bytes, upload

from .test_photos import inspect_with


@pytest.mark.any_hour
def test_the_offline_verifier_checks_a_photo_against_its_signed_hash(
    committed_db, media, casino, signing_keys, tmp_path
):
    from inspections.reports import render

    photo = inspect_with(casino, [upload(image_bytes("JPEG", exif_gps=True), "felt.jpg")]).photos.get()
    report = render.generate_locally(requested(casino).pk, processes=1)
    original, copy, changed = tmp_path / "felt.jpg", tmp_path / "copy.jpg", tmp_path / "changed.jpg"
    with default_storage.open(photo.original.name) as kept:
        original.write_bytes(kept.read())
    with default_storage.open(photo.display.name) as shown:
        copy.write_bytes(shown.read())
    changed.write_bytes(original.read_bytes()[:-2] + b"\x00\xff\xd9")
    keys = str(keys_pem(tmp_path, signing_keys.ring))

    good = offline(Path(report.file.path), "--key", keys, "--photo", str(original))
    assert good.returncode == 0, good.stdout + good.stderr
    assert (
        f"the photo felt.jpg is photo 1 of entry #{photo.entry.seq}, as signed (SHA-256 {photo.sha256})" in good.stdout
    )

    bad = offline(
        Path(report.file.path), "--key", keys, "--photo", str(original), "--photo", str(copy), "--photo", str(changed)
    )
    assert bad.returncode == 1
    assert "the photo copy.jpg" in bad.stdout and "the photo changed.jpg" in bad.stdout
    assert bad.stdout.count("is no photo the report's entries sign") == 2
    assert "NOT VERIFIED" in bad.stdout

    missing = offline(Path(report.file.path), "--key", keys, "--photo", str(tmp_path / "nowhere.jpg"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
