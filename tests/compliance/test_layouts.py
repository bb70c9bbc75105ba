"""Layouts: what they must show for what their tables offer (§ 617a.1(e)–(g), § 617c), their artwork,
and approval."""

import hashlib

import pytest
from django.db import DatabaseError, connection, transaction

from compliance.approvals.artwork import demo_artwork_png
from compliance.approvals.models import LayoutSubmission
from compliance.rulebook.text import REQUEST_FORM
from tests.compliance.test_rules_submissions import draft
from tests.factories import GamingTableFactory, RegulatorFactory, artwork_upload, pdf_bytes
from tests.photos import image_bytes
from tests.support.api import assert_refused, client_for, signature

BASIC = ["name_or_logo", "betting_areas", "min_max_signage", "drop_box", "tip_box"]


def submit(client, casino, features, tables=None):
    body = {
        "property": casino.property.pk,
        "game": "roulette",
        "name": "Keystone 2026",
        "features": features,
        "tables": tables or [casino.table.pk],
        "artwork": artwork_upload(),
    }
    return client.post("/api/layouts/", body, format="multipart")


def approve_rules(casino, regulator, **overrides):
    client = client_for(casino.compliance)
    submission = draft(client, casino.property, **overrides).json()
    client.post(
        f"/api/rules-submissions/{submission['id']}/file/", {"signature": signature(casino.compliance)}, format="json"
    )
    response = client_for(regulator).post(
        f"/api/rules-submissions/{submission['id']}/decision/",
        {"decision": "approved", "reference": "BGO-1", "signature": signature(regulator)},
        format="json",
    )
    assert response.json()["status"] == "approved", response.content


def test_a_layout_needs_the_basic_features(casino):
    response = submit(client_for(casino.compliance), casino, ["name_or_logo", "sparkles"])
    errors = assert_refused(response, "layout_feature_missing", "58 Pa. Code § 617a.1(f)(2)", "features")
    assert {e["citation"] for e in errors} >= {
        "58 Pa. Code § 617a.1(f)(3)",
        "58 Pa. Code § 617a.1(g)",
        "58 Pa. Code § 617a.1(f)",
    }
    assert "layout_feature_unknown" in {e["code"] for e in errors}
    assert not LayoutSubmission.objects.exists()


def test_a_table_used_as_single_zero_needs_the_00_cover_and_signage(casino):
    as_single = GamingTableFactory(property=casino.property, wheel_type="double_zero_as_single_zero")
    errors = assert_refused(
        submit(client_for(casino.compliance), casino, BASIC, [as_single.pk]),
        "layout_feature_missing",
        "58 Pa. Code § 617a.1(e)(1)",
    )
    assert "58 Pa. Code § 617a.1(e)(2)" in {e["citation"] for e in errors}
    assert (
        submit(
            client_for(casino.compliance), casino, [*BASIC, "double_zero_cover", "single_zero_signage"], [as_single.pk]
        ).status_code
        == 201
    )


@pytest.mark.any_hour
def test_options_in_effect_add_their_layout_areas(casino, regulator):
    approve_rules(
        casino,
        regulator,
        options={"touchdown_paytable": "A", "five_adjacent": True, "b2b_payouts": [1000, 500, 250, 100, 50, 25, 10]},
    )
    errors = assert_refused(
        submit(client_for(casino.compliance), casino, BASIC), "layout_feature_missing", "58 Pa. Code § 617a.1(f)(4)"
    )
    citations = {e["citation"] for e in errors}
    assert {"58 Pa. Code § 617a.1(f)(5)", "58 Pa. Code § 617c.1(b)"} <= citations
    assert "touchdown_not_electronic" in {e["code"] for e in errors}
    casino.table.electronic = True
    casino.table.save()
    full = [*BASIC, "wheel_replica", "touchdown_electronic_area", "b2b_area", "b2b_reader_board_rng"]
    assert submit(client_for(casino.compliance), casino, full).status_code == 201


def test_a_regulator_approves_a_layout_signed(casino, regulator):
    layout = submit(client_for(casino.compliance), casino, BASIC).json()
    assert layout["status"] == "pending"
    decision = {"decision": "approved", "reference": "BGO-L-7", "signature": signature(regulator)}
    assert (
        client_for(casino.compliance)
        .post(
            f"/api/layouts/{layout['id']}/decision/",
            {**decision, "signature": signature(casino.compliance)},
            format="json",
        )
        .status_code
        == 400
    )
    response = client_for(regulator).post(f"/api/layouts/{layout['id']}/decision/", decision, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "approved" and body["decision_reference"] == "BGO-L-7"
    assert body["signatures"][0]["credential_number"] == regulator.credential_number
    assert_refused(
        client_for(regulator).post(f"/api/layouts/{layout['id']}/decision/", decision, format="json"),
        "layout_not_pending",
        "58 Pa. Code § 617a.1(f)",
    )


def test_a_layout_of_another_property_is_out_of_reach(casino, other_casino):
    assert_refused(
        submit(client_for(casino.compliance), casino, BASIC, [other_casino.table.pk]),
        "does_not_exist",
        REQUEST_FORM,
        "tables",
    )
    layout = submit(client_for(casino.compliance), casino, BASIC).json()
    outsider = RegulatorFactory(jurisdiction="NJ")
    assert client_for(outsider).get(f"/api/layouts/{layout['id']}/").status_code == 404
    assert client_for(other_casino.compliance).get("/api/layouts/").json()["results"] == []


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE approvals_layoutsubmission SET features = '[]'",
        "UPDATE approvals_layoutsubmission SET artwork = 'layouts/other.png'",
        "UPDATE approvals_layoutsubmission SET artwork_sha256 = ''",
        "UPDATE approvals_layoutsubmission SET artwork_kind = 'pdf'",
        "UPDATE approvals_layoutsubmission SET status = 'pending'",
        "DELETE FROM approvals_layoutsubmission_tables",
        "DELETE FROM approvals_layoutsubmission",
    ],
)
def test_a_decided_layout_cannot_change_in_the_database(casino, regulator, sql):
    layout = submit(client_for(casino.compliance), casino, BASIC).json()
    client_for(regulator).post(
        f"/api/layouts/{layout['id']}/decision/",
        {"decision": "approved", "reference": "L", "signature": signature(regulator)},
        format="json",
    )
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert LayoutSubmission.objects.get().features == sorted(BASIC)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE approvals_layoutsubmission SET artwork = 'layouts/other.png'",
        "UPDATE approvals_layoutsubmission SET artwork_sha256 = ''",
        "UPDATE approvals_layoutsubmission SET artwork_kind = 'pdf'",
        "UPDATE approvals_layoutsubmission SET name = 'Other'",
    ],
)
def test_a_pending_layouts_artwork_cannot_change_in_the_database(casino, sql):
    """Frozen when submitted, before any decision: the regulator decides on the artwork the hash binds."""
    submit(client_for(casino.compliance), casino, BASIC)
    before = LayoutSubmission.objects.values("artwork", "artwork_kind", "artwork_sha256", "name").get()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql)
    assert LayoutSubmission.objects.values("artwork", "artwork_kind", "artwork_sha256", "name").get() == before


@pytest.mark.parametrize(
    "game, missing_citation",
    [
        ("big_six", "58 Pa. Code § 619a.1(g)(3) (proposed, 41 Pa.B. 3000)"),
        ("casino_war", "58 Pa. Code § 651a.2(b)(3) (proposed, 41 Pa.B. 3000)"),
    ],
)
def test_big_six_and_casino_war_layouts_have_their_own_contents(casino, game, missing_citation):
    table = GamingTableFactory(property=casino.property, game=game, wheel_type=None, has_external_movable_parts=False)
    body = {"property": casino.property.pk, "game": game, "name": game, "features": BASIC, "tables": [table.pk]}
    errors = assert_refused(
        client_for(casino.compliance).post("/api/layouts/", {**body, "artwork": artwork_upload()}, format="multipart"),
        "layout_feature_missing",
        missing_citation,
    )
    assert all(e["code"] == "layout_feature_missing" for e in errors)
    full = [*BASIC, "payout_odds_signage", "tie_betting_area"]
    assert (
        client_for(casino.compliance)
        .post("/api/layouts/", {**body, "features": full, "artwork": artwork_upload()}, format="multipart")
        .status_code
        == 201
    )


# ---- The layout's artwork (product policy; the layout's approval: § 617a.1(f)) ----

ARTWORK_POLICY = "Product policy: a layout is submitted with its artwork, a PDF, PNG or JPEG file of at most 10 MB"
PDF_ARTWORK = pdf_bytes()


def test_a_layout_is_submitted_with_its_artwork_its_hash_bound_into_the_content(casino, regulator, other_casino):
    client = client_for(casino.compliance)
    layout = submit(client, casino, BASIC).json()
    png = demo_artwork_png()
    assert layout["artwork_kind"] == "png" and layout["artwork_sha256"] == hashlib.sha256(png).hexdigest()
    assert layout["artwork_download"] == f"/api/layouts/{layout['id']}/artwork/" and "artwork" not in layout
    stored = LayoutSubmission.objects.get(pk=layout["id"])
    assert stored.artwork.name == f"layouts/{casino.property.pk}/{stored.artwork_sha256}.png"
    # The same layout with other artwork has another content hash: the signatures bind the artwork.
    body = {"property": casino.property.pk, "name": "Keystone 2026", "features": BASIC, "tables": [casino.table.pk]}
    other = client.post("/api/layouts/", {**body, "artwork": artwork_upload(PDF_ARTWORK, "a.pdf")}, format="multipart")
    assert other.json()["artwork_kind"] == "pdf" and other.json()["content_hash"] != layout["content_hash"]
    for who in (casino.compliance, regulator, casino.security):
        response = client_for(who).get(layout["artwork_download"])
        assert response.status_code == 200 and response["Content-Type"] == "image/png"
        assert b"".join(response.streaming_content) == png
    assert client_for(other_casino.compliance).get(layout["artwork_download"]).status_code == 404
    assert client_for(RegulatorFactory(jurisdiction="NJ")).get(layout["artwork_download"]).status_code == 404


@pytest.mark.parametrize(
    "artwork, code",
    [
        (None, "layout_artwork_missing"),
        (b"", "layout_artwork_missing"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "layout_artwork_type"),
        (b"GIF89a" + b"\0" * 20, "layout_artwork_type"),
    ],
)
def test_a_layout_without_a_pdf_png_or_jpeg_artwork_is_refused_naming_the_policy(casino, artwork, code):
    body = {"property": casino.property.pk, "name": "Keystone 2026", "features": BASIC, "tables": [casino.table.pk]}
    if artwork is not None:
        body["artwork"] = artwork_upload(artwork, "layout.png")  # the name says PNG; the content decides
    response = client_for(casino.compliance).post("/api/layouts/", body, format="multipart")
    assert_refused(response, code, ARTWORK_POLICY, field="artwork")
    assert LayoutSubmission.objects.count() == 0


def test_a_layout_sent_as_json_without_artwork_is_refused_naming_the_policy(casino):
    body = {"property": casino.property.pk, "name": "Keystone 2026", "features": BASIC, "tables": [casino.table.pk]}
    response = client_for(casino.compliance).post("/api/layouts/", body, format="json")
    assert_refused(response, "layout_artwork_missing", ARTWORK_POLICY, field="artwork")
    assert LayoutSubmission.objects.count() == 0


def test_an_artwork_larger_than_the_setting_allows_is_refused(casino, settings):
    settings.LAYOUT_ARTWORK_MAX_BYTES = 1024
    body = {"property": casino.property.pk, "name": "Keystone 2026", "features": BASIC, "tables": [casino.table.pk]}
    big = artwork_upload(b"\xff\xd8\xff\xe0" + b"\0" * 2000, "layout.jpg")
    response = client_for(casino.compliance).post("/api/layouts/", {**body, "artwork": big}, format="multipart")
    errors = assert_refused(
        response,
        "layout_artwork_too_large",
        "Product policy: a layout is submitted with its artwork, a PDF, PNG or JPEG file of at most 1 KB",
        field="artwork",
    )
    assert errors[0]["message"] == "The artwork is 1.96 KB; it may be at most 1 KB."
    assert LayoutSubmission.objects.count() == 0
    small = artwork_upload(image_bytes("JPEG", size=(8, 8)), "layout.jpg")
    accepted = client_for(casino.compliance).post("/api/layouts/", {**body, "artwork": small}, format="multipart")
    assert accepted.status_code == 201 and accepted.json()["artwork_kind"] == "jpeg"


def test_no_file_is_left_when_a_refused_or_failed_layout_is_not_written(casino, media_root):
    """A refused artwork is never written; one whose row then fails to be written is removed again."""
    from django.db import IntegrityError, transaction

    from compliance.approvals import services
    from tests.factories import artwork_upload

    def files():
        return sorted(p.name for p in media_root.rglob("*") if p.is_file())

    body = {"property": casino.property.pk, "name": "Keystone 2026", "features": BASIC, "tables": [casino.table.pk]}
    bad = artwork_upload(b"GIF89a" + b"\0" * 20, "layout.png")
    client_for(casino.compliance).post("/api/layouts/", {**body, "artwork": bad}, format="multipart")
    assert files() == []
    # A row the database refuses (a NOT NULL column left empty) after the file was written.
    with pytest.raises(IntegrityError), transaction.atomic():
        services.layout_submit(
            prop=casino.property,
            game="roulette",
            name=None,
            features=BASIC,
            tables=[casino.table],
            artwork=artwork_upload(),
            created_by=casino.compliance,
        )
    assert files() == []
    assert LayoutSubmission.objects.count() == 0
