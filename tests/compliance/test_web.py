"""The compliance manager's and the regulator's pages, through Django's test client."""

import re
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from compliance.approvals.models import LayoutSubmission, RulesSubmission
from compliance.casinos.models import Property
from tests.factories import PASSWORD, GamingTableFactory, RegulatorFactory, UserFactory, artwork_upload, pdf_bytes

# A Pennsylvania double-zero submission with every standard wager at its minimum odds.
STANDARD = {
    "effective_from": "2026-12-01",
    "wheel_types": ["double_zero"],
    "odds_straight": "35 to 1",
    "odds_split": "17 to 1",
    "odds_three_numbers": "11 to 1",
    "odds_four_numbers": "8 to 1",
    "odds_first_five": "6 to 1",
    "odds_six_numbers": "5 to 1",
    "odds_column": "2 to 1",
    "odds_dozen": "2 to 1",
    **{f"odds_{code}": "1 to 1" for code in ("red", "black", "odd", "even", "low", "high")},
}


@pytest.fixture
def manager(client, casino):
    client.force_login(casino.compliance)
    return casino


def test_the_manager_sees_the_propertys_tables_and_equipment(client, manager, other_casino):
    page = client.get("/manage/").content.decode()
    assert manager.table.number in page and "none registered" in page
    assert "Other Casino" not in page


@pytest.mark.parametrize("role", ["security", "floorperson", "maintenance"])
def test_floor_roles_are_refused_the_manager_pages_naming_the_role(client, casino, role):
    client.force_login(getattr(casino, role))
    response = client.get("/manage/")
    assert response.status_code == 403
    assert "compliance manager" in response.content.decode()


def test_the_live_check_lists_violations_with_citations_and_saves_nothing(client, manager):
    url = f"/manage/properties/{manager.property.pk}/rules/check/"
    response = client.post(url, {**STANDARD, "odds_straight": "34 to 1"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "1 violation" in page and "Straight" in page and "58 Pa. Code § 617a.4(a)" in page
    assert RulesSubmission.objects.count() == 0
    ok = client.post(url, STANDARD).content.decode()
    assert "No violations" in ok and "House edge" in ok and "5.26" in ok  # 35 to 1 on 38 pockets


def test_the_live_check_names_a_field_it_cannot_read(client, manager):
    page = client.post(
        f"/manage/properties/{manager.property.pk}/rules/check/", {**STANDARD, "odds_split": "lots"}
    ).content.decode()
    assert "Write the odds as" in page


def test_another_propertys_check_is_refused(client, manager, other_casino):
    response = client.post(f"/manage/properties/{other_casino.property.pk}/rules/check/", STANDARD)
    assert response.status_code == 403


def test_a_draft_is_saved_with_its_violations_then_corrected_and_filed(client, manager):
    response = client.post("/manage/rules/new/", {**STANDARD, "odds_straight": "30 to 1"})
    submission = RulesSubmission.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/rules-submissions/{submission.pk}/"
    assert [v["code"] for v in submission.violations] == ["odds_below_minimum"]
    page = client.get(response["Location"]).content.decode()
    assert "30 to 1" in page and "58 Pa. Code § 617a.4(a)" in page

    refused = client.post(
        response["Location"], {"action": "file", "username": manager.compliance.username, "password": PASSWORD}
    )
    assert "correct them before filing" in refused.content.decode()
    submission.refresh_from_db()
    assert submission.status == "draft"

    client.post(response["Location"], {**STANDARD, "action": "save"})
    submission.refresh_from_db()
    assert submission.violations == [] and submission.payout_odds["straight"] == [35, 1]
    wrong = client.post(
        response["Location"], {"action": "file", "username": manager.compliance.username, "password": "x"}
    )
    assert "Product policy: a signature is the signer" in wrong.content.decode()
    client.post(response["Location"], {"action": "file", "username": manager.compliance.username, "password": PASSWORD})
    submission.refresh_from_db()
    assert submission.status == "filed" and submission.content_hash


def test_the_regulator_decides_a_filed_submission_from_the_queue(client, manager):
    client.post("/manage/rules/new/", STANDARD)
    submission = RulesSubmission.objects.get()
    url = f"/rules-submissions/{submission.pk}/"
    client.post(url, {"action": "file", "username": manager.compliance.username, "password": PASSWORD})
    regulator = RegulatorFactory()
    client.force_login(regulator)
    assert url in client.get("/approvals/").content.decode()
    kept = client.post(
        url,
        {
            "action": "decide",
            "decision": "approved",
            "reference": "PGCB-1",
            "username": regulator.username,
            "password": "no",
        },
    )
    assert 'value="PGCB-1"' in kept.content.decode()
    client.post(
        url,
        {
            "action": "decide",
            "decision": "approved",
            "reference": "PGCB-1",
            "username": regulator.username,
            "password": PASSWORD,
        },
    )
    submission.refresh_from_db()
    assert submission.status == "approved" and submission.decision_reference == "PGCB-1"


def test_the_approvals_queue_is_the_regulators(client, manager):
    response = client.get("/approvals/")
    assert response.status_code == 403 and "regulator" in response.content.decode()


def test_a_layout_is_refused_with_the_missing_features_then_submitted(client, manager):
    table = manager.table
    form = {"name": "Keystone 2027", "features": ["name_or_logo", "betting_areas"], "tables": [table.pk]}
    refused = client.post("/manage/layouts/new/", form).content.decode()
    assert "58 Pa. Code § 617a.1(f)(3)" in refused and 'value="Keystone 2027"' in refused
    assert LayoutSubmission.objects.count() == 0
    features = ["name_or_logo", "betting_areas", "min_max_signage", "drop_box", "tip_box"]
    response = client.post("/manage/layouts/new/", {**form, "features": features, "artwork": artwork_upload()})
    layout = LayoutSubmission.objects.get()
    assert response["Location"] == f"/layouts/{layout.pk}/" and list(layout.tables.all()) == [table]


def test_a_regulator_of_another_jurisdiction_sees_nothing(client, manager):
    client.post("/manage/rules/new/", STANDARD)
    submission = RulesSubmission.objects.get()
    client.force_login(RegulatorFactory(jurisdiction="NJ"))
    assert client.get(f"/rules-submissions/{submission.pk}/").status_code == 404


def test_a_manager_may_not_decide_and_a_regulator_may_not_edit(client, manager):
    client.post("/manage/rules/new/", STANDARD)
    submission = RulesSubmission.objects.get()
    url = f"/rules-submissions/{submission.pk}/"
    response = client.post(url, {"action": "decide", "decision": "approved", "reference": "x"})
    assert response.status_code == 403
    client.force_login(RegulatorFactory())
    assert client.post(url, {**STANDARD, "action": "save"}).status_code == 403


def test_a_layout_offers_only_roulette_tables_of_the_property(client, manager, other_casino):
    GamingTableFactory(property=manager.property, number="BS-1", game="big_six", wheel_type="")
    page = client.get("/manage/layouts/new/").content.decode()
    assert manager.table.number in page and "BS-1" not in page
    assert f'value="{other_casino.table.pk}"' not in page


def test_staff_of_the_property_see_a_submission_read_only(client, manager):
    client.post("/manage/rules/new/", STANDARD)
    submission = RulesSubmission.objects.get()
    client.force_login(UserFactory(property=manager.property, role="security"))
    page = client.get(f"/rules-submissions/{submission.pk}/").content.decode()
    assert "Save draft" not in page and "35 to 1" in page
    assert "Double zero" in page


def test_a_regulators_home_and_floor_escape_what_a_property_is_called(client, casino):
    """Their rows and tiles are written by the view, not the template: each value escaped there."""
    Property.objects.filter(pk=casino.property.pk).update(name="<b>Keystone</b> & Co", licence_number='L"1')
    client.force_login(RegulatorFactory())
    for path in ("/", "/floor/"):
        page = client.get(path).content.decode()
        assert "&lt;b&gt;Keystone&lt;/b&gt; &amp; Co" in page and "<b>Keystone</b>" not in page, path
        assert "L&quot;1" in page and 'L"1' not in page, path


def test_a_regulator_reads_each_propertys_floor_from_the_home_page(client, casino, other_casino):
    client.force_login(RegulatorFactory())
    home = client.get("/").content.decode()
    assert f"/floor/?property={casino.property.pk}" in home and f"/floor/?property={other_casino.property.pk}" in home
    floor = client.get(f"/floor/?property={casino.property.pk}").content.decode()
    assert f"/tables/{casino.table.pk}/" in floor and f"/tables/{other_casino.table.pk}/" not in floor


def test_odds_with_a_zero_are_refused_at_the_field(client, manager):
    page = client.post("/manage/rules/new/", {**STANDARD, "odds_straight": "35 to 0"}).content.decode()
    assert "above zero" in page and 'value="35 to 0"' in page
    assert RulesSubmission.objects.count() == 0


def new_york_today():
    return timezone.localtime(timezone.now(), ZoneInfo("America/New_York")).date()


@pytest.mark.any_hour
def test_a_new_rules_submission_is_effective_from_the_propertys_today_by_default(client, manager):
    page = client.get("/manage/rules/new/").content.decode()
    assert f'name="effective_from" value="{new_york_today().isoformat()}"' in page


@pytest.mark.any_hour
def test_the_approvals_queue_shows_when_things_were_filed_and_decided_in_the_propertys_zone(client, manager):
    client.post("/manage/rules/new/", STANDARD)
    submission = RulesSubmission.objects.get()
    url = f"/rules-submissions/{submission.pk}/"
    client.post(url, {"action": "file", "username": manager.compliance.username, "password": PASSWORD})
    features = ["name_or_logo", "betting_areas", "min_max_signage", "drop_box", "tip_box"]
    client.post(
        "/manage/layouts/new/",
        {"name": "Keystone 2027", "features": features, "tables": [manager.table.pk], "artwork": artwork_upload()},
    )
    layout = LayoutSubmission.objects.get()
    regulator = RegulatorFactory()
    client.force_login(regulator)
    zone = ZoneInfo("America/New_York")
    filed = submission.signatures.get(action="filed").signed_at
    page = client.get("/approvals/").content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())  # a date and its time, each in its span
    assert f"{timezone.localtime(filed, zone):%Y-%m-%d %H:%M} EST" in text
    assert f"{timezone.localtime(layout.created_at, zone):%Y-%m-%d %H:%M} EST" in text
    assert ">2026-12-01</span></td>" in page  # the effective date, as filed, kept on one line
    client.post(
        url,
        {"action": "decide", "decision": "approved", "reference": "PGCB-1", **signed_as(regulator)},
    )
    decided = submission.signatures.get(action="approved").signed_at
    page = client.get("/approvals/").content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert f"{timezone.localtime(decided, zone):%Y-%m-%d %H:%M} EST" in text
    assert new_york_today().isoformat() in page


def signed_as(person) -> dict:
    return {"username": person.username, "password": PASSWORD}


def test_a_layout_is_submitted_with_its_artwork_and_refused_without_it_naming_the_policy(client, manager):
    features = ["name_or_logo", "betting_areas", "min_max_signage", "drop_box", "tip_box"]
    form = {"name": "Keystone 2027", "features": features, "tables": [manager.table.pk]}
    page = client.get("/manage/layouts/new/").content.decode()
    assert 'enctype="multipart/form-data"' in page and 'name="artwork"' in page
    refused = client.post("/manage/layouts/new/", form).content.decode()
    assert "Attach the layout&#x27;s artwork" in refused
    assert "Product policy: a layout is submitted with its artwork, a PDF, PNG or JPEG file of at most 10 MB" in refused
    text = artwork_upload(b"just text, named as a picture", "layout.png")
    refused = client.post("/manage/layouts/new/", {**form, "artwork": text}).content.decode()
    assert "not a PDF, PNG or JPEG file (judged by its content" in refused
    assert LayoutSubmission.objects.count() == 0
    client.post("/manage/layouts/new/", {**form, "artwork": artwork_upload(pdf_bytes(), "layout.pdf")})
    layout = LayoutSubmission.objects.get()
    assert layout.artwork_kind == "pdf"
    regulator = RegulatorFactory()
    client.force_login(regulator)
    page = client.get(f"/layouts/{layout.pk}/").content.decode()
    assert f'href="/layouts/{layout.pk}/artwork/"' in page and "Open the layout's artwork (PDF)" in page
    assert layout.artwork_sha256 in page and "<img" not in page.split("<main", 1)[-1]
    queue = client.get("/approvals/").content.decode()
    assert f'href="/layouts/{layout.pk}/artwork/"' in queue and "artwork (PDF)" in queue
    response = client.get(f"/layouts/{layout.pk}/artwork/")
    assert response["Content-Type"] == "application/pdf" and response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Disposition"].startswith("attachment")
    assert response["Content-Security-Policy"].startswith("sandbox")
    assert b"".join(response.streaming_content) == pdf_bytes()
    client.force_login(RegulatorFactory(jurisdiction="NJ"))
    assert client.get(f"/layouts/{layout.pk}/artwork/").status_code == 404
