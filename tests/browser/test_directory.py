"""The casino's directory on a tablet in Chromium (issue 36, item 1): a person the product has never
seen signs in with their directory name and password against a real slapd, unlocks and inspects a
table with a photo, signing each step with the directory's password; once the directory changes it,
the old one no longer signs."""

from __future__ import annotations

from compliance.casinos.models import TableState
from inspections.logbook.models import Entry, TableStatus
from tests.browser.conftest import login, screenshot
from tests.browser.test_floor import sign_and_record
from tests.photos import image_bytes
from tests.security.test_directory import ALICE_PASSWORD, BASE, connected, directory, ldap  # noqa: F401 - fixtures

ITEMS = ("ball_non_magnetic", "no_magnet_or_contrivance", "wheel_level_and_rotating", "parts_secure")


def test_a_directory_person_signs_in_and_inspects_with_a_photo_on_a_tablet(site, tablet_page, connected):  # noqa: F811
    TableStatus.objects.filter(table_id=connected.table.pk).update(state=TableState.LOCKED)
    page = tablet_page
    page.goto(site + "/login/")
    page.fill("#id_username", "alice")
    screenshot(page, "directory-sign-in-tablet")
    login(page, site, "alice", ALICE_PASSWORD)
    assert page.url.endswith("/floor/"), page.url
    assert "Alice Directory" in page.inner_text("header")

    page.goto(f"{site}/tables/{connected.table.pk}/")
    page.click(".actions >> text=Unlock")
    sign_and_record(page, "alice", ALICE_PASSWORD)
    page.click(".actions >> text=Inspect")
    for code in ITEMS:
        page.check(f"input[name='{code}'][value='pass']")
    page.locator("input[name='photos']").set_input_files(
        [{"name": "IMG_0042.jpg", "mimeType": "image/jpeg", "buffer": image_bytes("JPEG", size=(640, 480))}]
    )
    sign_and_record(page, "alice", ALICE_PASSWORD)
    page.wait_for_selector(".messages")
    assert "Recorded: Inspection" in page.inner_text(".messages")
    inspection = Entry.objects.get(kind="inspection")
    signature = inspection.signatures.get()
    assert (signature.signer_name, signature.credential_number) == ("Alice Directory", "PGCB-0077")
    assert inspection.photos.count() == 1 and page.locator("img.photo-thumb").count() == 1
    screenshot(page, "directory-inspection-with-photo-tablet")

    # The directory changes her password: the old one signs nothing more, said beside the field.
    connected.modify(
        f"uid=alice,ou=people,{BASE}", [(ldap.MOD_REPLACE, "userPassword", [b"a brand new directory pass"])]
    )
    page.click(".actions >> text=Inspect")
    for code in ITEMS:
        page.check(f"input[name='{code}'][value='pass']")
    sign_and_record(page, "alice", ALICE_PASSWORD)
    page.wait_for_selector(".errors, .error")
    assert Entry.objects.filter(kind="inspection").count() == 1
