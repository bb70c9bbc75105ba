"""Authentication: Argon2 hashes, revocable API tokens, sessions that end when idle."""

from django.conf import settings
from rest_framework.test import APIClient

from tests.factories import PASSWORD


def test_new_passwords_are_hashed_with_argon2():
    # The tests run a fast hasher; production's list starts with Argon2 (config/settings.py).
    from config import settings as production

    assert production.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert len(settings.AUTH_PASSWORD_VALIDATORS) == 4


def test_a_revoked_token_no_longer_opens_the_api(casino):
    api = APIClient()
    token = api.post(
        "/api/auth/token/", {"username": casino.security.username, "password": PASSWORD}, format="json"
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/tables/").status_code == 200
    assert api.post("/api/auth/token/revoke/").status_code == 204
    assert api.get("/api/tables/").status_code == 401


def test_a_session_ends_after_its_idle_time(client, casino, settings):
    assert settings.SESSION_COOKIE_AGE == 30 * 60
    client.force_login(casino.security)
    assert client.get("/floor/").status_code == 200
    from django.contrib.sessions.models import Session

    Session.objects.update(expire_date="2000-01-01T00:00:00Z")  # as if idle past SESSION_COOKIE_AGE
    response = client.get("/floor/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_a_request_moves_the_sessions_expiry_on_at_most_once_a_minute(client, casino):
    from django.contrib.sessions.models import Session

    client.force_login(casino.security)
    client.get("/floor/")
    first = Session.objects.get().expire_date
    client.get("/floor/")
    assert Session.objects.get().expire_date == first  # within the minute: no write
    session = client.session
    session["_touched"] = 0  # as if the last touch was long ago
    session.save()
    saved = Session.objects.get().expire_date
    client.get("/floor/")
    assert Session.objects.get().expire_date > saved


def test_the_floors_own_refresh_does_not_keep_an_idle_session_alive(client, casino):
    from django.contrib.sessions.models import Session

    client.force_login(casino.security)
    page = client.get("/floor/").content.decode()
    assert 'hx-trigger="every 30s"' in page and "X-Auto-Refresh" in page and 'http-equiv="refresh"' not in page
    session = client.session
    session["_touched"] = 0  # as if the person's last request was long ago
    session.save()
    saved = Session.objects.get().expire_date
    refreshed = client.get("/floor/", headers={"X-Auto-Refresh": "1", "HX-Request": "true"})
    assert refreshed.status_code == 200 and 'id="tiles"' in refreshed.content.decode()
    assert Session.objects.get().expire_date == saved  # the tablet's refresh moved nothing
    client.get("/floor/")  # a person's own request does
    assert Session.objects.get().expire_date > saved


def test_an_ended_session_takes_a_refreshing_page_to_the_sign_in_form(client, casino):
    from django.contrib.sessions.models import Session

    client.force_login(casino.security)
    Session.objects.update(expire_date="2000-01-01T00:00:00Z")
    response = client.get("/floor/", headers={"X-Auto-Refresh": "1", "HX-Request": "true"})
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/login/?next=/floor/")
