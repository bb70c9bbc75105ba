"""An entry's photos as stored uploads (issue 32 item 4, issue 36 item 2): the pixel cap named in the
refusal, one file pair per SHA-256 in a property, a quota per property, and nothing left in the
storage by an entry the rules refuse."""

from __future__ import annotations

import pytest
from django.core.files.storage import default_storage

from compliance.rulebook import RuleViolation
from inspections.logbook.models import Entry, EntryPhoto
from tests.photos import image_bytes, png_bomb, upload

from .test_photos import inspect_with


def stored_files(property_id: int) -> list[str]:
    folder = f"photos/{property_id}"
    return sorted(default_storage.listdir(folder)[1]) if default_storage.exists(folder) else []


def test_a_photo_over_the_pixels_is_refused_naming_its_pixels_and_the_cap(casino, settings):
    settings.PHOTO_MAX_PIXELS = 2_000
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(image_bytes("PNG", size=(50, 50)), "wide.png")])
    (refusal,) = caught.value.violations
    assert refusal.code == "photo_too_many_pixels"
    assert refusal.message == "The photo “wide.png” is 0.0025 megapixels; a photo may have at most 0.002 megapixels."
    assert "0.002 megapixels" in refusal.citation


def test_a_bomb_past_pillows_own_limit_is_refused_with_its_pixels_named(casino):
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(png_bomb(), "bomb.png", "image/png")])
    assert "is 400 megapixels" in caught.value.violations[0].message
    assert "at most 50 megapixels" in caught.value.violations[0].message


def test_the_same_photo_on_two_entries_is_stored_once(casino):
    jpeg = image_bytes("JPEG")
    first = inspect_with(casino, [upload(jpeg)]).photos.get()
    second = inspect_with(casino, [upload(jpeg, "again.jpg"), upload(jpeg, "twice.jpg")]).photos.all()
    assert {(p.original.name, p.display.name) for p in second} == {(first.original.name, first.display.name)}
    assert stored_files(casino.property.pk) == sorted([f"{first.sha256}.jpeg", f"{first.sha256}-display.jpg"])


def test_a_property_over_its_photo_quota_is_refused_and_nothing_is_written(casino, other_casino, settings):
    jpeg, png = image_bytes("JPEG"), image_bytes("PNG")
    settings.PHOTO_QUOTA_BYTES = len(jpeg) + 10
    inspect_with(casino, [upload(jpeg)])
    kept = stored_files(casino.property.pk)
    with pytest.raises(RuleViolation) as caught:
        inspect_with(casino, [upload(png, "b.png", "image/png")])
    (refusal,) = caught.value.violations
    assert refusal.code == "photos_quota" and refusal.field == "photos"
    assert refusal.citation.startswith("Product policy: a property keeps at most ")
    assert stored_files(casino.property.pk) == kept and Entry.objects.count() == 1
    # Another property's share is its own.
    assert inspect_with(other_casino, [upload(png, "b.png", "image/png")]).photos.count() == 1


def test_an_entry_the_rules_refuse_leaves_no_photo_in_the_storage(casino):
    """The photos pass, the entry does not (an item of the checklist left out): no file is written."""
    from inspections.logbook import services
    from tests.conftest import sign

    who = casino.floorperson
    with pytest.raises(RuleViolation):
        services.inspection_record(
            table_id=casino.table.pk,
            items={},
            signature=sign(who),
            recorded_by=who,
            photos=[upload(image_bytes("JPEG"))],
        )
    assert not EntryPhoto.objects.exists() and not Entry.objects.exists()
    assert stored_files(casino.property.pk) == []


@pytest.fixture
def photo_rows_refused(db):
    """The database refuses every photo row (a trigger of the test's own): the entry fails after its
    files were written, inside entry_append."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "CREATE FUNCTION test_refuse_photo() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'photo rows refused by the test'; END $$ LANGUAGE plpgsql"
            )
            cursor.execute(
                "CREATE TRIGGER test_refuse_photo BEFORE INSERT ON logbook_entryphoto "
                "FOR EACH ROW EXECUTE FUNCTION test_refuse_photo()"
            )
        else:
            cursor.execute(
                "CREATE TRIGGER test_refuse_photo BEFORE INSERT ON logbook_entryphoto "
                "BEGIN SELECT RAISE(ABORT, 'photo rows refused by the test'); END"
            )
    yield
    with connection.cursor() as cursor:
        cursor.execute(
            "DROP TRIGGER test_refuse_photo" + (" ON logbook_entryphoto" if connection.vendor == "postgresql" else "")
        )
        if connection.vendor == "postgresql":
            cursor.execute("DROP FUNCTION test_refuse_photo()")


def test_an_entry_that_fails_after_its_photos_were_written_removes_only_what_it_wrote(casino, request):
    from django.db import DatabaseError

    kept = image_bytes("JPEG")
    first = inspect_with(casino, [upload(kept)]).photos.get()
    before = stored_files(casino.property.pk)
    request.getfixturevalue("photo_rows_refused")
    with pytest.raises(DatabaseError, match="refused by the test"):
        inspect_with(casino, [upload(kept, "again.jpg"), upload(image_bytes("PNG"), "new.png", "image/png")])
    # The new photo's files are gone; the pair another entry keeps (the same content) stays.
    assert stored_files(casino.property.pk) == before
    assert default_storage.exists(first.original.name) and default_storage.exists(first.display.name)
    assert Entry.objects.count() == 1
