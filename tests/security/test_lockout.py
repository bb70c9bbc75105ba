"""Lockout after repeated wrong passwords (django-axes), wherever a password is typed: the sign-in
page, the API's token endpoint and a signature's re-authentication, counted per username and
address; and the API's throttling."""

import ipaddress
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client, RequestFactory
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from compliance.accounts.models import User
from config.network import client_ip
from inspections.logbook.models import Entry, Signature
from tests.factories import PASSWORD
from tests.support.api import assert_refused, signature
from tests.support.logbook import ALL_PASS

LIMIT = settings.AXES_FAILURE_LIMIT
ELSEWHERE = "10.0.0.2"  # another tablet


def sign_in(client, user, password, **extra):
    return client.post("/login/", {"username": user.username, "password": password}, **extra)


def token_for(user, password, **extra):
    return APIClient().post(
        "/api/auth/token/", {"username": user.username, "password": password}, format="json", **extra
    )


def inspect_via_api(casino, password):
    client = APIClient()
    client.force_authenticate(casino.floorperson)
    return client.post(
        "/api/inspections/",
        {"table": casino.table.pk, "items": ALL_PASS, "signature": signature(casino.floorperson, password)},
        format="json",
    )


def test_the_lockout_is_five_failures_for_fifteen_minutes():
    assert LIMIT == 5
    assert timedelta(minutes=15) == settings.AXES_COOLOFF_TIME
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_sign_in_is_locked_after_repeated_wrong_passwords_even_with_the_right_one(client, casino):
    for _ in range(LIMIT - 1):
        response = sign_in(client, casino.security, "wrong")
        assert response.status_code == 200 and b"correct username and password" in response.content
    locked = sign_in(client, casino.security, "wrong")
    assert locked.status_code == 429 and locked["Retry-After"] == "900"
    assert "locked for 15 minutes" in locked.content.decode()
    right = sign_in(client, casino.security, PASSWORD)
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    # Another tablet, or another person at this one, is not locked out.
    assert sign_in(client, casino.security, PASSWORD, REMOTE_ADDR=ELSEWHERE).status_code == 302
    assert sign_in(Client(), casino.floorperson, PASSWORD).status_code == 302


def test_the_sign_in_page_says_how_many_attempts_remain_before_the_lock(client, casino):
    """Issue 20, item 4: each wrong password says how many more this name has from this device; another
    device counts its own, and a right password starts the count again."""
    for tried in range(1, LIMIT):
        page = sign_in(client, casino.security, "wrong").content.decode()
        remaining = LIMIT - tried
        words = "wrong password" if remaining == 1 else "wrong passwords"
        assert (
            f"{remaining} more {words} for “{casino.security.username}” from this device and signing in is "
            "locked for 15 minutes." in page
        ), page
    assert "4 more wrong passwords" in sign_in(client, casino.security, "wrong", REMOTE_ADDR=ELSEWHERE).content.decode()
    # A name left empty, or no password typed: nothing was tried, nothing is said about attempts.
    empty = client.post("/login/", {"username": casino.floorperson.username, "password": ""}).content.decode()
    assert "more wrong password" not in empty


def test_the_lock_ends_after_its_cool_off(client, casino):
    for _ in range(LIMIT):
        sign_in(client, casino.security, "wrong")
    assert sign_in(client, casino.security, PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert sign_in(client, casino.security, PASSWORD).status_code == 302


def test_a_right_password_before_the_limit_starts_the_count_again(client, casino):
    for _ in range(LIMIT - 1):
        sign_in(client, casino.security, "wrong")
    assert sign_in(client, casino.security, PASSWORD).status_code == 302
    client.logout()
    for _ in range(LIMIT - 1):
        assert sign_in(client, casino.security, "wrong").status_code == 200


def test_the_token_endpoint_locks_the_same_way_and_answers_429_in_the_api_format(casino):
    for _ in range(LIMIT - 1):
        assert token_for(casino.security, "wrong").status_code == 400
    locked = token_for(casino.security, "wrong")
    assert locked.status_code == 429 and locked["Retry-After"] == "900"
    [error] = locked.json()["errors"]
    assert error["code"] == "locked_out" and "locked for 15 minutes" in error["message"]
    assert token_for(casino.security, PASSWORD).status_code == 429
    assert not AuthToken.objects.filter(user=casino.security).exists()
    assert token_for(casino.security, PASSWORD, REMOTE_ADDR=ELSEWHERE).status_code == 200


def test_a_signature_is_locked_after_repeated_wrong_passwords_and_nothing_is_written(casino):
    for _ in range(LIMIT - 1):
        assert_refused(inspect_via_api(casino, "wrong"), "signature_invalid", "58 Pa. Code § 617a.2(e)", "signature")
    locked = inspect_via_api(casino, "wrong")
    errors = assert_refused(locked, "signature_locked_out", "58 Pa. Code § 617a.2(e)", "signature")
    assert "locked for 15 minutes" in errors[0]["message"]
    assert_refused(inspect_via_api(casino, PASSWORD), "signature_locked_out", "58 Pa. Code § 617a.2(e)")
    assert Entry.objects.count() == Signature.objects.count() == 0
    # The signature's own count: the failed signatures never lock signing in (issue 20: a shared floor).
    assert sign_in(Client(), casino.floorperson, PASSWORD).status_code == 302


def test_a_wrong_witness_password_says_how_many_attempts_remain_and_never_locks_sign_in(casino):
    client = APIClient()
    client.force_authenticate(casino.maintenance)
    body = {
        "table": casino.table.pk,
        "kind": "adjustment",
        "part": "ball track",
        "description": "Re-seated",
        "performer": signature(casino.maintenance),
    }
    remaining = []
    for _ in range(LIMIT):
        response = client.post(
            "/api/adjustments/", {**body, "witness": signature(casino.security, "wrong")}, format="json"
        )
        [error] = response.json()["errors"]
        remaining.append(error["message"])
    assert "4 more wrong password(s) from this device lock signing as" in remaining[0]
    assert "1 more wrong password(s)" in remaining[LIMIT - 2]
    assert "locked for 15 minutes" in remaining[-1] and "signing in stays open" in remaining[-1]
    assert sign_in(Client(), casino.security, PASSWORD).status_code == 302
    assert not AccessAttempt.objects.exists()


def test_a_failed_sign_in_does_not_lock_signing_and_a_right_signature_starts_the_count_again(casino):
    for _ in range(LIMIT):
        sign_in(Client(), casino.floorperson, "wrong")
    assert sign_in(Client(), casino.floorperson, PASSWORD).status_code == 429
    assert inspect_via_api(casino, PASSWORD).status_code == 201


def test_a_locked_signature_on_a_form_says_so_and_keeps_what_was_typed(client, casino):
    client.force_login(casino.security)
    form = {
        **{code: "pass" for code in ALL_PASS},
        "notes": "ball checked with the compass",
        "username": casino.security.username,
    }
    for _ in range(LIMIT):
        response = client.post(f"/tables/{casino.table.pk}/inspect/", {**form, "password": "wrong"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "locked for 15 minutes" in page and "58 Pa. Code § 617a.2(e)" in page
    assert "ball checked with the compass" in page
    assert Entry.objects.count() == 0


@pytest.fixture
def low_rates(monkeypatch):
    """The production rates, lowered so that a test reaches them quickly."""
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "5/minute")
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "token", "3/minute")
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "login", "3/minute")


def test_the_api_throttles_each_person_with_a_429_in_the_api_format(casino, low_rates):
    client = APIClient()
    client.force_authenticate(casino.security)
    assert [client.get("/api/tables/").status_code for _ in range(5)] == [200] * 5
    throttled = client.get("/api/tables/")
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    [error] = throttled.json()["errors"]
    assert error["code"] == "throttled" and error["citation"] is None
    other = APIClient()
    other.force_authenticate(casino.floorperson)
    assert other.get("/api/tables/").status_code == 200


def test_the_token_endpoint_is_throttled_per_address(casino, low_rates):
    statuses = [token_for(casino.floorperson, PASSWORD).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    # Without a proxy in front, an address a client claims for itself changes nothing.
    assert token_for(casino.floorperson, PASSWORD, HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 429
    assert token_for(casino.floorperson, PASSWORD, REMOTE_ADDR=ELSEWHERE).status_code == 200


def test_the_sign_in_page_is_throttled_per_address_whatever_the_names(client, casino, low_rates):
    for user in (casino.security, casino.floorperson, casino.maintenance):
        assert sign_in(client, user, "wrong").status_code == 200
    throttled = sign_in(client, casino.compliance, PASSWORD)
    page = throttled.content.decode()
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    assert "Too many sign-in attempts from this device" in page
    assert f'value="{casino.compliance.username}"' in page  # what was typed stays
    assert "_auth_user_id" not in client.session
    assert not AccessAttempt.objects.filter(username=casino.compliance.username).exists()  # nothing was tried
    assert sign_in(Client(), casino.compliance, PASSWORD, REMOTE_ADDR=ELSEWHERE).status_code == 302


def test_production_rates_are_set():
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert rates == {"anon": "60/minute", "user": "600/minute", "token": "20/minute", "login": "60/minute"}
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"


def test_the_admin_site_signs_in_through_the_same_door(client, casino):
    """No second sign-in form without the lockout's message and the per-address limit."""
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"] == "/admin/login/?next=/admin/"
    door = client.get(response["Location"])
    assert door.status_code == 302 and door["Location"] == "/login/?next=%2Fadmin%2F"
    # A password posted to the admin's old form is never checked there.
    posted = client.post("/admin/login/", {"username": casino.security.username, "password": "wrong"})
    assert posted.status_code == 302 and not AccessAttempt.objects.exists()
    # Signed in elsewhere without the administrator's role: refused, not sent round in a loop.
    client.force_login(casino.security)
    assert client.get("/admin/login/?next=/admin/").status_code == 403
    client.force_login(User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase"))
    assert client.get("/admin/login/").url == "/admin/"


# ---- Which address is counted: X-Forwarded-For only from our own proxies ----

PROXY = "10.0.0.1"
CLIENT = "198.51.100.7"


@pytest.fixture
def behind_proxy(settings):
    """Production behind the TLS proxy (BEHIND_TLS_PROXY, TRUSTED_PROXIES=10.0.0.1), as the settings
    make it; NUM_PROXIES is what they said before the proxies were named, and no longer counts."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = [ipaddress.ip_network(PROXY)]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}


@pytest.mark.parametrize(
    ("remote", "forwarded", "counted"),
    [
        (CLIENT, "", CLIENT),
        (CLIENT, "203.0.113.9", CLIENT),  # gunicorn reached directly: the header is the client's own
        (PROXY, CLIENT, CLIENT),
        (PROXY, f"203.0.113.9, {CLIENT}", CLIENT),  # the client wrote the left part itself
        (PROXY, f"203.0.113.9, {CLIENT}, {PROXY}", CLIENT),  # two hops through our own proxies
        (PROXY, "", PROXY),
        (PROXY, "not-an-address", PROXY),
    ],
)
def test_the_address_counted_is_the_right_most_one_not_our_proxy(behind_proxy, remote, forwarded, counted):
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == counted


def test_a_client_reaching_gunicorn_directly_cannot_escape_the_lockout_with_x_forwarded_for(
    client, casino, behind_proxy
):
    for n in range(LIMIT):
        sign_in(client, casino.security, "wrong", REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")
    again = sign_in(client, casino.security, PASSWORD, REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR="203.0.113.99")
    assert again.status_code == 429 and "_auth_user_id" not in client.session
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {CLIENT}


def test_through_the_proxy_each_client_is_counted_apart(client, casino, behind_proxy):
    for n in range(LIMIT):
        # The client writes a header of its own each time; the proxy appends the address it saw.
        sign_in(client, casino.security, "wrong", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}, {CLIENT}")
    assert sign_in(client, casino.security, PASSWORD, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=CLIENT).status_code == 429
    # Another tablet behind the same proxy is not locked out.
    other = sign_in(Client(), casino.security, PASSWORD, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert other.status_code == 302


def test_the_throttles_ignore_a_header_written_by_a_client_that_bypasses_the_proxy(casino, behind_proxy, low_rates):
    statuses = [
        token_for(casino.floorperson, PASSWORD, REMOTE_ADDR=CLIENT, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(4)
    ]
    assert statuses == [200, 200, 200, 429]
    # Through the proxy, the client it saw is counted: the same client is throttled, another is not.
    assert token_for(casino.floorperson, PASSWORD, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=CLIENT).status_code == 429
    assert (
        token_for(casino.floorperson, PASSWORD, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.8").status_code
        == 200
    )


def test_check_deploy_warns_of_a_trusted_proxies_network_that_can_hold_clients(settings):
    """Issue 32, item 5: with TRUSTED_PROXIES=10.0.0.0/24 a tablet at 10.0.0.77 writes any address
    left of its own and is counted as it (its own address is "a proxy"); `check --deploy` said
    nothing. Every entry must be a proxy's own address: a network of more than one warns."""
    from compliance.accounts.checks import trusted_proxies_are_addresses

    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.0/24")]
    tablet = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9, 10.0.0.77")
    assert client_ip(tablet) == "203.0.113.9"  # the class the warning names
    [warning] = trusted_proxies_are_addresses(None)
    assert warning.id == "accounts.W002" and "10.0.0.0/24" in warning.msg
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.1"), ipaddress.ip_network("2001:db8::1")]
    assert trusted_proxies_are_addresses(None) == []
    settings.TRUSTED_PROXIES = []
    assert trusted_proxies_are_addresses(None) == []
