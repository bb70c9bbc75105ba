"""Photos on an entry (issue 36, item 2): judged by content, bound into the signed entry, append-only,
stored through the storage API under names of the product's, served only to who may see the entry."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.files.storage import default_storage
from django.db import DatabaseError, transaction
from PIL import Image

from compliance.rulebook import RuleViolation
from inspections.logbook import chain, services
from inspections.logbook.models import Entry, EntryPhoto
from tests.photos import SVG, image_bytes, png_bomb, polyglot_appended, polyglot_comment, upload
from tests.support.people import sign

from .test_services import ALL_PASS, event

POLICY = (
    "Product policy: a photo on an entry is a JPEG, PNG or WebP image of at most 15 MB and 50 megapixels, "
    "at most 6 to an entry"
)


def inspect_with(casino, files, item=""):
    who = casino.floorperson
    return services.inspection_record(
        table_id=casino.table.pk,
        items=ALL_PASS,
        signature=sign(who),
        recorded_by=who,
        photos=files,
        photo_item=item,
    )


def test_an_inspection_keeps_its_photos_bound_into_what_it_signs(casino):
    jpeg, png, webp = image_bytes("JPEG"), image_bytes("PNG"), image_bytes("WEBP")
    entry = inspect_with(
        casino,
        [upload(jpeg), upload(png, "a.png", "image/png"), upload(webp, "b.webp", "image/webp")],
        item="parts_secure",
    )
    photos = list(entry.photos.all())
    assert [p.sha256 for p in photos] == [hashlib.sha256(d).hexdigest() for d in (jpeg, png, webp)]
    assert [p.kind for p in photos] == ["jpeg", "png", "webp"]
    assert {p.item for p in photos} == {"parts_secure"}
    # The hashes are in the signed content: the signature and the chain cover them.
    stored = Entry.objects.get(pk=entry.pk)
    assert [p["sha256"] for p in stored.details["photos"]] == [p.sha256 for p in photos]
    assert stored.signatures.get().content_hash == chain.content_hash(stored)
    assert chain.chain_verify(property_id=casino.property.pk).ok
    # The original is kept byte for byte under a name of the product's, through the storage API.
    with default_storage.open(photos[0].original.name) as original:
        assert original.read() == jpeg
    assert photos[0].original.name == f"photos/{casino.property.pk}/{photos[0].sha256}.jpeg"


def test_the_shown_copy_has_no_location_while_the_original_keeps_its_hash(casino):
    with_gps = image_bytes("JPEG", exif_gps=True)
    assert Image.open(io.BytesIO(with_gps)).getexif().get_ifd(0x8825)  # the tablet's position is there
    entry = inspect_with(casino, [upload(with_gps)])
    photo = entry.photos.get()
    assert photo.sha256 == hashlib.sha256(with_gps).hexdigest()
    with default_storage.open(photo.display.name) as shown:
        copy = Image.open(io.BytesIO(shown.read()))
    assert copy.format == "JPEG"
    assert not copy.getexif()
    assert "exif" not in copy.info


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (SVG, "photo.jpg"),
        (polyglot_appended(), "photo.jpg"),
        (polyglot_comment(), "photo.jpg"),
        (image_bytes("GIF"), "photo.gif"),
        (image_bytes("JPEG")[:200], "broken.jpg"),
        (b"%PDF-1.7\n", "layout.pdf"),
    ],
    ids=["svg", "polyglot-appended", "polyglot-comment", "gif", "truncated", "pdf"],
)
def test_what_is_no_allowed_image_by_its_content_is_refused_and_nothing_is_written(casino, data, name):
    before = (Entry.objects.count(), EntryPhoto.objects.count())
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(data, name)])
    assert {(v.code, v.citation) for v in caught.value.violations} == {("photo_type", POLICY)}
    assert (Entry.objects.count(), EntryPhoto.objects.count()) == before
    assert not (default_storage.exists("photos") and default_storage.listdir("photos")[1])


def test_a_pixel_bomb_is_refused_before_it_is_decoded(casino):
    bomb = png_bomb()
    assert len(bomb) < 1_000_000  # 400 megapixels in under a megabyte
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(bomb, "bomb.png", "image/png")])
    assert [v.code for v in caught.value.violations] == ["photo_too_many_pixels"]
    assert not EntryPhoto.objects.exists()


def test_a_photo_over_the_bytes_allowed_is_refused(casino, settings):
    settings.PHOTO_MAX_BYTES = 1000
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(image_bytes("PNG", size=(400, 400)), "big.png")])
    assert [v.code for v in caught.value.violations] == ["photo_too_large"]


def test_more_photos_than_allowed_are_refused(casino, settings):
    settings.PHOTO_MAX_COUNT = 2
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(image_bytes()) for _ in range(3)])
    assert "photos_too_many" in [v.code for v in caught.value.violations]


def test_a_file_named_like_a_path_is_stored_under_a_name_of_the_products(casino):
    entry = inspect_with(casino, [upload(image_bytes(), "../../../../etc/passwd.jpg")])
    photo = entry.photos.get()
    for name in (photo.original.name, photo.display.name):
        assert name.startswith(f"photos/{casino.property.pk}/{photo.sha256}")
        assert ".." not in name and "passwd" not in name


def test_a_refusal_quotes_only_the_last_part_of_a_path_like_name(casino):
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(SVG, "..\\..\\windows/evil.svg")])
    assert "“evil.svg”" in caught.value.violations[0].message


def test_an_item_not_on_the_checklist_is_refused(casino):
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(image_bytes())], item="not_an_item")
    assert [v.code for v in caught.value.violations] == ["photo_item_unknown"]
    assert not Entry.objects.exists()


def test_an_adjustment_a_ball_change_and_a_no_spin_take_photos(casino):
    event(casino, "cover")
    event(casino, "unlock")
    adjustment = services.adjustment_record(
        table_id=casino.table.pk,
        kind="adjustment",
        part="ball track",
        description="Tightened the ball track",
        performer=sign(casino.maintenance),
        witness=sign(casino.security),
        recorded_by=casino.maintenance,
        photos=[upload(image_bytes()), upload(image_bytes("PNG"), "after.png")],
    )
    assert adjustment.photos.count() == 2
    assert len(adjustment.details["photos"]) == 2


def test_a_photo_is_never_changed_or_removed(casino):
    photo = inspect_with(casino, [upload(image_bytes())]).photos.get()
    for write in (
        lambda: EntryPhoto.objects.filter(pk=photo.pk).update(sha256="0" * 64),
        lambda: EntryPhoto.objects.filter(pk=photo.pk).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            write()


def test_a_no_spin_takes_photos_and_its_page_asks_for_them(casino, client):
    from tests.support.logbook import inspect

    inspect(casino)
    event(casino, "open")
    client.force_login(casino.floorperson)
    page = client.get(f"/tables/{casino.table.pk}/irregularity/").content.decode()
    assert 'type="file" name="photos" accept="image/*" capture="environment" multiple' in page
    entry = services.irregularity_record(
        table_id=casino.table.pk,
        kind="ball_left_wheel",
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
        photos=[upload(image_bytes())],
    )
    assert entry.photos.get().sha256 == entry.details["photos"][0]["sha256"]


def test_a_ball_change_takes_photos(casino):
    from decimal import Decimal

    from compliance.casinos.models import Ball

    event(casino, "cover")
    event(casino, "unlock")
    spare = Ball.objects.create(
        property=casino.property, serial="B-SPARE", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    entry = services.ball_change_record(
        table_id=casino.table.pk,
        new_ball=spare,
        description="Chipped ball",
        performer=sign(casino.maintenance),
        witness=sign(casino.security),
        recorded_by=casino.maintenance,
        photos=[upload(image_bytes(), "before.jpg"), upload(image_bytes("PNG"), "after.png")],
    )
    assert [p.position for p in entry.photos.all()] == [1, 2]
    assert entry.details["ball_on"] == "B-SPARE" and len(entry.details["photos"]) == 2
