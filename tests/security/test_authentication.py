"""Authentication: Argon2 hashes, revocable API tokens, sessions that end when idle."""

import hashlib
import json
from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from compliance.accounts.models import User
from inspections.logbook import demo
from tests.factories import PASSWORD


def test_new_passwords_are_hashed_with_argon2():
    # The tests run a fast hasher; production's list starts with Argon2 (config/settings.py).
    from config import settings as production

    assert production.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"


# NIST SP 800-63B § 3.1.1.2, a password as the only factor: 15 characters at least, 64 and more
# allowed, spaces and Unicode allowed, no composition rules, common passwords refused.
FOURTEEN = "shift-log-pass"
LONG = " Der Kessel dreht sich gleichmäßig – 64 Zeichen, mit Leerzeichen! "[:64]


def test_passwords_follow_nist_sp_800_63b_for_a_single_factor():
    assert len(FOURTEEN) == 14 and len(LONG) == 64
    with pytest.raises(ValidationError, match="at least 15 characters"):
        validate_password(FOURTEEN)
    validate_password(FOURTEEN + "s")
    validate_password(LONG)
    validate_password(LONG * 4)  # no maximum below 64, nor at 256
    validate_password("839204718273645")  # no composition rule: digits alone are a password too
    with pytest.raises(ValidationError, match="too common"):
        validate_password("1q2w3e4r5t6y7u8i9o0p")


def test_a_new_person_needs_fifteen_characters_and_may_sign_with_sixty_four(casino):
    api = APIClient()
    api.force_authenticate(casino.compliance)
    person = {"full_name": "New Guard", "role": "security", "credential_number": "BC-777"}
    short = api.post("/api/people/", {**person, "username": "newguard", "password": FOURTEEN}, format="json")
    assert short.status_code == 400 and short.json()["errors"][0]["field"] == "password"
    made = api.post("/api/people/", {**person, "username": "newguard", "password": LONG}, format="json")
    assert made.status_code == 201, made.content
    # Kept exactly as typed, leading and trailing spaces included, at each door a password is typed.
    assert Client().post("/login/", {"username": "newguard", "password": LONG}).status_code == 302
    token = api.post("/api/auth/token/", {"username": "newguard", "password": LONG}, format="json")
    assert token.status_code == 200, token.content
    covered = api.post(
        f"/api/tables/{casino.table.pk}/cover/",
        {"signature": {"username": "newguard", "password": LONG}},
        format="json",
    )
    assert covered.status_code == 201, covered.content


def test_the_administrators_password_meets_the_policy_too(db, monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "boss")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", FOURTEEN)
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "boss@example.com")
    with pytest.raises(CommandError, match="at least 15 characters"):
        call_command("createsuperuser", "--noinput")
    assert not User.objects.exists()


def test_the_demo_logins_meet_the_policy(db, monkeypatch):
    validate_password(demo.DEMO_PASSWORD)
    validate_password(PASSWORD)  # the tests' people
    monkeypatch.setattr(demo, "DEMO_PASSWORD", FOURTEEN)
    with pytest.raises(CommandError, match=r"DEMO_PASSWORD is refused: .*at least 15 characters"):
        call_command("seed_demo", stdout=StringIO())
    assert not User.objects.exists()


def test_a_revoked_token_no_longer_opens_the_api(casino):
    api = APIClient()
    token = api.post(
        "/api/auth/token/", {"username": casino.security.username, "password": PASSWORD}, format="json"
    ).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/tables/").status_code == 200
    assert api.post("/api/auth/token/revoke/").status_code == 204
    assert api.get("/api/tables/").status_code == 401


def obtain_token(user, password: str = PASSWORD) -> dict:
    response = APIClient().post("/api/auth/token/", {"username": user.username, "password": password}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def api_with(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api


def test_an_api_token_is_kept_only_as_a_hash(casino):
    token = obtain_token(casino.security)["token"]
    assert len(token) >= 64
    [row] = AuthToken.objects.values()
    assert token not in json.dumps(row, default=str)
    assert row["digest"] == hashlib.sha512(token.encode()).hexdigest()


def test_an_api_token_expires(casino, settings):
    answer = obtain_token(casino.security)
    expiry = datetime.fromisoformat(answer["expiry"])
    assert abs(expiry - (timezone.now() + timedelta(hours=settings.API_TOKEN_HOURS))) < timedelta(minutes=1)
    assert settings.API_TOKEN_HOURS == 12
    assert api_with(answer["token"]).get("/api/tables/").status_code == 200
    AuthToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))  # as if 12 hours had passed
    assert api_with(answer["token"]).get("/api/tables/").status_code == 401


def test_a_new_password_revokes_every_api_token_of_the_person(casino):
    tablet, laptop = (obtain_token(casino.security)["token"] for _ in range(2))
    colleague = obtain_token(casino.floorperson)["token"]
    assert api_with(tablet).get("/api/tables/").status_code == api_with(laptop).get("/api/tables/").status_code == 200
    casino.security.set_password("a-brand-new-passphrase")  # a reset, the admin's form, changepassword
    casino.security.save()
    assert api_with(tablet).get("/api/tables/").status_code == api_with(laptop).get("/api/tables/").status_code == 401
    assert api_with(colleague).get("/api/tables/").status_code == 200
    casino.floorperson.set_unusable_password()
    casino.floorperson.save()
    assert api_with(colleague).get("/api/tables/").status_code == 401


def test_saving_a_person_without_a_new_password_keeps_their_tokens(casino):
    token = obtain_token(casino.security)["token"]
    casino.security.full_name = "Renamed"
    casino.security.save()
    assert api_with(token).get("/api/tables/").status_code == 200


def test_revoking_one_devices_token_keeps_the_others(casino):
    tablet, laptop = (obtain_token(casino.security)["token"] for _ in range(2))
    assert api_with(tablet).post("/api/auth/token/revoke/").status_code == 204
    assert api_with(tablet).get("/api/tables/").status_code == 401
    assert api_with(laptop).get("/api/tables/").status_code == 200


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
