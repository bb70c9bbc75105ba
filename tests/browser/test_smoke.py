"""The browser-test machinery itself, on pages that need nothing of the logbook's own."""

from playwright.sync_api import expect

from compliance.accounts.models import Role, User
from tests.browser.conftest import login, screenshot


def test_a_superuser_signs_in_to_the_admin(site, page):
    user = User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")
    assert user.role == Role.ADMIN

    login(page, site, "root", "x-long-admin-passphrase", path="/admin/login/")

    assert page.url == site + "/admin/"
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
    screenshot(page, "admin")


def test_the_api_docs_render_swagger_ui_from_our_own_static_files(site, page):
    failed = []
    page.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)

    page.goto(site + "/api/docs/")

    # Swagger UI's script draws .swagger-ui, then the title it read from the schema.
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Roulette compliance logbook API")
    assert failed == []
