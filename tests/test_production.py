"""Production settings: `check --deploy` is clean with the production environment, and the
responses carry HTTPS-only cookies, HSTS and the Content Security Policy."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "logbook.example.com",
    "DATABASE_URL": "sqlite:///:memory:",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_is_clean_with_the_production_environment():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_fails_without_the_production_environment():
    """The check is worth something: with DEBUG on it names what production would lack."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="true")
    assert result.returncode != 0 and "security.W018" in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": ""})
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


def test_responses_carry_the_security_headers(client, db):
    response = client.get("/login/")
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY" and response["X-Content-Type-Options"] == "nosniff"
