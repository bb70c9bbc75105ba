"""Photos through the API (docs/api.md, "Photos"): multipart with the entry's JSON in the part `data`
and each photo in a part `photos`, on the endpoints that make the entry; served to who may see it."""

from __future__ import annotations

import hashlib
import io
import json
import os

from django.conf import settings
from django.test.client import encode_multipart
from PIL import Image

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


def test_a_large_upload_sent_again_with_its_idempotency_key_makes_one_entry(casino):
    """A tablet on a slow floor network sends a phone's photo (several MB, beyond what Django keeps in
    memory) and, its answer lost, sends it again with the same Idempotency-Key: its HTTP library
    draws a new multipart boundary, yet the request is the same one and is answered once."""
    noise = Image.frombytes("RGB", (1200, 1000), os.urandom(1200 * 1000 * 3))
    out = io.BytesIO()
    noise.save(out, format="PNG")
    photo = out.getvalue()
    assert len(photo) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    client = client_for(casino.floorperson)
    body = json.dumps(inspection_body(casino))
    answers = []
    for boundary in ("first-try-boundary", "second-try-boundary"):
        answers.append(
            client.post(
                "/api/inspections/",
                encode_multipart(boundary, {"data": body, "photos": [upload(photo, "big.png", "image/png")]}),
                content_type=f"multipart/form-data; boundary={boundary}",
                HTTP_IDEMPOTENCY_KEY="tablet-7-entry-42",
            )
        )
    assert [answer.status_code for answer in answers] == [201, 201], answers[0].content
    assert answers[1]["Idempotent-Replayed"] == "true" and answers[1].json() == answers[0].json()
    assert Entry.objects.count() == 1 and EntryPhoto.objects.get().sha256 == hashlib.sha256(photo).hexdigest()
    # The same key with another photo is another request: refused, nothing written.
    other = client.post(
        "/api/inspections/",
        encode_multipart("third", {"data": body, "photos": [upload(image_bytes(), "small.jpg")]}),
        content_type="multipart/form-data; boundary=third",
        HTTP_IDEMPOTENCY_KEY="tablet-7-entry-42",
    )
    assert other.status_code == 422 and Entry.objects.count() == 1
