"""Photos on the floor's forms and the table's page: uploaded in the same signed POST, shown as
thumbnails, served only to people who may see the entry (issue 36, item 2)."""

from __future__ import annotations

import hashlib

from inspections.logbook.models import Entry, EntryPhoto
from tests.factories import PASSWORD
from tests.photos import SVG, image_bytes, upload

from .test_web import passing, signed


def inspected_with_photos(client, casino, *files, **extra):
    client.force_login(casino.security)
    return client.post(
        f"/tables/{casino.table.pk}/inspect/",
        passing(**signed(casino.security), photos=list(files), **extra),
    )


def test_each_floor_form_asks_for_photos_from_the_camera(client, casino):
    client.force_login(casino.security)
    client.post(f"/tables/{casino.table.pk}/cover/", signed(casino.security))
    client.post(f"/tables/{casino.table.pk}/unlock/", signed(casino.security))
    for action in ("inspect", "adjust", "ball"):
        page = client.get(f"/tables/{casino.table.pk}/{action}/").content.decode()
        assert 'enctype="multipart/form-data"' in page, action
        assert 'type="file" name="photos" accept="image/*" capture="environment" multiple' in page, action


def test_an_inspection_with_photos_through_the_form(client, casino):
    jpeg = image_bytes("JPEG")
    response = inspected_with_photos(
        client, casino, upload(jpeg), upload(image_bytes("PNG"), "b.png"), photo_item="parts_secure"
    )
    assert response.status_code == 302, response.content.decode()
    entry = Entry.objects.get()
    assert entry.photos.get(position=1).sha256 == hashlib.sha256(jpeg).hexdigest()
    assert {p.item for p in entry.photos.all()} == {"parts_secure"}
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert f'src="/entries/{entry.pk}/photos/1/"' in page and f'src="/entries/{entry.pk}/photos/2/"' in page


def test_a_refused_photo_is_said_beside_the_field_and_nothing_is_written(client, casino):
    response = inspected_with_photos(client, casino, upload(SVG, "../../x.svg"))
    assert response.status_code == 200
    text = response.content.decode()
    assert "is not a JPEG, PNG or WebP image" in text and "Product policy: a photo on an entry" in text
    assert not Entry.objects.exists() and not EntryPhoto.objects.exists()


def test_the_refusal_is_said_in_spanish(client, casino):
    client.force_login(casino.security)
    response = client.post(
        f"/tables/{casino.table.pk}/inspect/",
        passing(**signed(casino.security), photos=[upload(SVG, "x.jpg")]),
        headers={"accept-language": "es"},
    )
    assert "no es una imagen JPEG, PNG o WebP" in response.content.decode()


def test_a_photo_is_served_to_who_may_see_the_entry_sandboxed_and_never_sniffed(client, casino):
    inspected_with_photos(client, casino, upload(image_bytes("JPEG", exif_gps=True)))
    entry = Entry.objects.get()
    response = client.get(f"/entries/{entry.pk}/photos/1/")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Disposition"].startswith("attachment;")
    assert "sandbox" in response["Content-Security-Policy"]
    assert "private" in response["Cache-Control"]
    body = b"".join(response.streaming_content)
    assert body.startswith(b"\xff\xd8") and b"Exif" not in body  # the copy without metadata


def test_another_propertys_person_or_a_missing_photo_gets_404(client, casino, other_casino):
    inspected_with_photos(client, casino, upload(image_bytes()))
    entry = Entry.objects.get()
    client.force_login(other_casino.security)
    assert client.get(f"/entries/{entry.pk}/photos/1/").status_code == 404
    client.force_login(casino.security)
    assert client.get(f"/entries/{entry.pk}/photos/2/").status_code == 404
    client.logout()
    assert client.get(f"/entries/{entry.pk}/photos/1/").status_code == 302  # to sign in


def test_an_adjustment_and_a_ball_change_take_photos_through_their_forms(client, casino):
    client.force_login(casino.security)
    client.post(f"/tables/{casino.table.pk}/cover/", signed(casino.security))
    client.post(f"/tables/{casino.table.pk}/unlock/", signed(casino.security))
    response = client.post(
        f"/tables/{casino.table.pk}/adjust/",
        signed(
            casino.maintenance,
            kind="adjustment",
            part="ball track",
            description="Re-seated",
            witness_username=casino.security.username,
            witness_password=PASSWORD,
            photos=[upload(image_bytes()), upload(image_bytes("WEBP"), "after.webp")],
        ),
    )
    assert response.status_code == 302, response.content.decode()
    assert Entry.objects.get(kind="adjustment").photos.count() == 2


def test_the_admin_shows_an_entrys_photos_by_their_hashes_read_only(client, casino, django_user_model):
    inspected_with_photos(client, casino, upload(image_bytes()))
    entry = Entry.objects.get()
    client.force_login(
        django_user_model.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")
    )
    page = client.get(f"/admin/logbook/entry/{entry.pk}/change/").content.decode()
    assert page.count(entry.photos.get().sha256) == 2  # in the photos' inline and in what the entry records


def test_the_upload_progress_is_said_in_the_readers_language(client, casino):
    client.force_login(casino.security)
    page = client.get(f"/tables/{casino.table.pk}/inspect/", headers={"accept-language": "es"}).content.decode()
    assert 'data-upload="Enviando las fotos…"' in page
    assert "Toque «Firmar y anotar» de nuevo" in page


def test_the_same_form_sent_again_with_its_photos_makes_one_entry(client, casino):
    client.force_login(casino.security)
    form = client.get(f"/tables/{casino.table.pk}/inspect/").content.decode()
    token = form.split('name="form_token" value="', 1)[1].split('"', 1)[0]
    for _ in range(2):  # a slow network: the tablet sends the same form again
        response = client.post(
            f"/tables/{casino.table.pk}/inspect/",
            passing(**signed(casino.security), form_token=token, photos=[upload(image_bytes())]),
        )
        assert response.status_code == 302
    assert Entry.objects.count() == 1 and EntryPhoto.objects.count() == 1
