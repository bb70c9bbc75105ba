"""Photos on a tablet in Chromium: an inspection signed with two photos from the camera's input, then
the table's timeline shows them as thumbnails that load (served to who may see the entry, within the
page's CSP) (issue 36, item 2)."""

from inspections.logbook.models import Entry
from tests.browser.conftest import login, screenshot
from tests.browser.test_floor import sign_and_record
from tests.factories import PASSWORD
from tests.photos import image_bytes


def test_an_inspection_with_photos_on_a_tablet(site, tablet_page, locked):
    page = tablet_page
    login(page, site, locked.security.username, PASSWORD)
    page.goto(f"{site}/tables/{locked.table.pk}/")
    page.click(".actions >> text=Unlock")
    sign_and_record(page, locked.security.username)
    page.click(".actions >> text=Inspect")
    photos = page.locator("input[name='photos']")
    assert photos.get_attribute("capture") == "environment" and photos.get_attribute("accept") == "image/*"
    for code in ("ball_non_magnetic", "no_magnet_or_contrivance", "wheel_level_and_rotating", "parts_secure"):
        page.check(f"input[name='{code}'][value='pass']")
    photos.set_input_files(
        [
            {"name": "IMG_0001.jpg", "mimeType": "image/jpeg", "buffer": image_bytes("JPEG", size=(640, 480))},
            {"name": "IMG_0002.png", "mimeType": "image/png", "buffer": image_bytes("PNG", size=(480, 640))},
        ]
    )
    page.select_option("#id_photo_item", "parts_secure")
    screenshot(page, "inspection-form-with-photos")
    # Sent in the background, so that the page shows its progress (static/logbook.js), and the answer
    # replaces the page as the browser's own send would have.
    with page.expect_request(lambda request: request.method == "POST" and "/inspect/" in request.url) as sent:
        sign_and_record(page, locked.security.username)
    assert sent.value.resource_type == "xhr"
    page.wait_for_selector(".messages")
    assert page.url == f"{site}/tables/{locked.table.pk}/"
    assert "Recorded: Inspection" in page.inner_text(".messages")
    entry = Entry.objects.get(kind="inspection")
    assert entry.photos.count() == 2
    thumbnails = page.locator("img.photo-thumb")
    assert thumbnails.count() == 2
    # Each thumbnail loaded: served to this person, within the page's CSP (img-src 'self').
    loaded = "images => images.every(image => image.complete && image.naturalWidth > 0)"
    for _ in range(50):
        if thumbnails.evaluate_all(loaded):
            break
        page.wait_for_timeout(100)
    assert thumbnails.evaluate_all(loaded)
    screenshot(page, "table-page-with-photos")
