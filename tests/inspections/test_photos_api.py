"""Photos through the API (docs/api.md, "Photos"): multipart with the entry's JSON in the part `data`
and each photo in a part `photos`, on the endpoints that make the entry; served to who may see it."""

from __future__ import annotations

import hashlib
import json

from inspections.logbook.models import Entry, EntryPhoto
from tests.photos import image_bytes, polyglot_appended, upload
from tests.support.api import client_for, signature
from tests.support.logbook import ALL_PASS


def post_with_photos(client, path: str, body: dict, *files):
    return client.post(path, {"data": json.dumps(body), "photos": list(files)}, format="multipart")


def inspection_body(casino, **extra) -> dict:
    return {"table": casino.table.pk, "items": ALL_PASS, "signature": signature(casino.floorperson), **extra}


def test_an_inspection_with_photos_in_one_multipart_post(casino):
    client = client_for(casino.floorperson)
    jpeg, png = image_bytes("JPEG"), image_bytes("PNG")
    response = post_with_photos(
        client,
        "/api/inspections/",
        inspection_body(casino, photo_item="ball_non_magnetic"),
        upload(jpeg),
        upload(png, "b.png", "image/png"),
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert [p["sha256"] for p in body["photos"]] == [hashlib.sha256(jpeg).hexdigest(), hashlib.sha256(png).hexdigest()]
    assert body["photos"][0]["item"] == "ball_non_magnetic"
    download = body["photos"][0]["download"]
    assert download == f"/api/entries/{body['id']}/photos/1/"
    photo = client.get(download)
    assert photo.status_code == 200 and photo["X-Content-Type-Options"] == "nosniff"
    assert client.get(f"/api/inspections/{body['id']}/").json()["photos"] == body["photos"]


def test_the_same_endpoint_still_takes_json_without_photos(casino):
    response = client_for(casino.floorperson).post("/api/inspections/", inspection_body(casino), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["photos"] == []


def test_a_hostile_photo_is_a_400_naming_the_policy_and_nothing_is_written(casino):
    response = post_with_photos(
        client_for(casino.floorperson), "/api/inspections/", inspection_body(casino), upload(polyglot_appended())
    )
    assert response.status_code == 400, response.content
    error = response.json()["errors"][0]
    assert error["code"] == "photo_type" and error["field"] == "photos"
    assert error["citation"].startswith("Product policy: a photo on an entry is a JPEG, PNG or WebP image")
    assert not Entry.objects.exists() and not EntryPhoto.objects.exists()


def test_a_data_part_that_is_no_json_object_is_a_400(casino):
    client = client_for(casino.floorperson)
    response = client.post(
        "/api/inspections/", {"data": "[1, 2]", "photos": [upload(image_bytes())]}, format="multipart"
    )
    assert response.status_code == 400


def test_another_propertys_person_gets_404_for_a_photo(casino, other_casino):
    response = post_with_photos(
        client_for(casino.floorperson), "/api/inspections/", inspection_body(casino), upload(image_bytes())
    )
    entry_id = response.json()["id"]
    assert client_for(other_casino.security).get(f"/api/entries/{entry_id}/photos/1/").status_code == 404
    assert client_for(other_casino.security).get(f"/api/inspections/{entry_id}/").status_code == 404
