"""An amendment may add photos (issue 36, item 2): signed with the amendment, through the service, the
API and the form; the amended entry's own photos stay as they were signed, and a refused photo writes
nothing."""

from __future__ import annotations

import hashlib
import json

import pytest

from compliance.rulebook import RuleViolation
from inspections.logbook import chain, services
from inspections.logbook.models import Entry, EntryPhoto
from tests.conftest import sign
from tests.inspections.test_amendments import _signed, unlocked
from tests.inspections.test_api import client_for, signature
from tests.inspections.test_services import inspect
from tests.photos import SVG, image_bytes, upload


def test_an_amendment_adds_photos_bound_into_what_it_signs_and_the_original_keeps_its_own(casino):
    unlocked(casino)
    original = inspect(casino)
    jpeg = image_bytes("JPEG")
    amendment = services.amendment_record(
        entry_id=original.pk,
        reason="The photo of the ball I forgot",
        correction={"notes": "Ball checked with the compass"},
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
        photos=[upload(jpeg)],
    )
    stored = Entry.objects.get(pk=amendment.pk)
    assert [p["sha256"] for p in stored.details["photos"]] == [hashlib.sha256(jpeg).hexdigest()]
    assert stored.photos.get().sha256 == hashlib.sha256(jpeg).hexdigest()
    assert stored.signatures.get().content_hash == chain.content_hash(stored)
    assert chain.chain_verify(property_id=casino.property.pk).ok
    assert not original.photos.exists() and "photos" not in Entry.objects.get(pk=original.pk).details


def test_an_amendment_with_a_refused_photo_writes_nothing(casino):
    unlocked(casino)
    original = inspect(casino)
    before = Entry.objects.count()
    with pytest.raises(RuleViolation) as caught:
        services.amendment_record(
            entry_id=original.pk,
            reason="x",
            correction={"notes": "y"},
            signature=sign(casino.floorperson),
            recorded_by=casino.floorperson,
            photos=[upload(SVG, "x.svg", "image/svg+xml")],
        )
    assert {v.code for v in caught.value.violations} == {"photo_type"}
    assert Entry.objects.count() == before and not EntryPhoto.objects.exists()


def test_the_api_takes_an_amendments_photos_in_one_multipart_post(casino):
    unlocked(casino)
    original = inspect(casino)
    png = image_bytes("PNG")
    client = client_for(casino.floorperson)
    body = {
        "entry": original.pk,
        "reason": "Wrong table",
        "amendment_kind": "entered_in_error",
        "signature": signature(casino.floorperson),
    }
    response = client.post(
        "/api/amendments/",
        {"data": json.dumps(body), "photos": [upload(png, "a.png", "image/png")]},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    answer = response.json()
    assert [p["sha256"] for p in answer["photos"]] == [hashlib.sha256(png).hexdigest()]
    assert client.get(answer["photos"][0]["download"]).status_code == 200


def test_the_amendment_form_asks_for_photos_and_records_them(client, casino):
    unlocked(casino)
    original = inspect(casino)
    client.force_login(casino.floorperson)
    page = client.get(f"/entries/{original.pk}/amend/").content.decode()
    assert 'type="file" name="photos" accept="image/*" capture="environment" multiple' in page
    webp = image_bytes("WEBP")
    response = client.post(
        f"/entries/{original.pk}/amend/",
        _signed(
            casino.floorperson,
            reason="Wrong table",
            amendment_kind="entered_in_error",
            photos=[upload(webp, "after.webp", "image/webp")],
        ),
    )
    assert response.status_code == 302, response.content.decode()
    amendment = Entry.objects.get(kind="amendment")
    assert amendment.photos.get().sha256 == hashlib.sha256(webp).hexdigest()
    table_page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert f'src="/entries/{amendment.pk}/photos/1/"' in table_page
