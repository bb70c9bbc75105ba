"""Production settings: `check --deploy` is clean with the production environment, the responses
carry HTTPS-only cookies, HSTS and the Content Security Policy, and the logs are JSON."""

import json
import logging
import os
import secrets
import subprocess
import sys
import tempfile
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

from cryptography.hazmat.primitives.serialization import Encoding
from pythonjsonlogger.json import JsonFormatter

from config import keyring
from config.logs import JSON_FORMATTER
from tests.servers import ROOT, gunicorn_start
from tests.tsa import tsa_certificate

# Production signs its logbook and its reports with keys of its own (config/keyring.py).
KEYS = Path(tempfile.mkdtemp(prefix="logbook-production-keys-"))
keyring.checkpoint_key_add(KEYS / "ring.json", now=datetime.now(UTC))
# Its report certificate is issued by its compliance CA, whose key stays elsewhere (offline).
CA = Path(tempfile.mkdtemp(prefix="logbook-production-ca-"))
keyring.report_ca_make(CA / "ca.key", CA / "ca.pem", common_name="Production test CA", now=datetime.now(UTC))
keyring.report_certificate_issue(
    CA / "ca.key",
    CA / "ca.pem",
    KEYS / "report.key",
    KEYS / "report.pem",
    common_name="Production test",
    now=datetime.now(UTC),
    published=KEYS / "report-certificates.pem",
)
# Its timestamp authority's certificate (the authority is not asked by these tests).
(KEYS / "tsa.pem").write_bytes(tsa_certificate("Production test TSA")[1].public_bytes(Encoding.PEM))
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "logbook.example.com",
    "DATABASE_URL": "sqlite:///:memory:",
    "LOGBOOK_CHECKPOINT_KEYRING": str(KEYS / "ring.json"),
    "LOGBOOK_REPORT_SIGNING_KEY": str(KEYS / "report.key"),
    "LOGBOOK_REPORT_SIGNING_CERT": str(KEYS / "report.pem"),
    "LOGBOOK_REPORT_CA_CERT": str(CA / "ca.pem"),
    "LOGBOOK_REPORT_CERTIFICATES": str(KEYS / "report-certificates.pem"),
    "LOGBOOK_TSA_URL": "https://tsa.example/",
    "LOGBOOK_TSA_CERTIFICATES": str(KEYS / "tsa.pem"),
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


def test_production_logs_are_one_json_object_per_line():
    """Whatever a command logs in production (here axes announcing itself at start) is JSON."""
    result = manage("check", **PRODUCTION)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines, result.stderr
    records = [json.loads(line) for line in lines]
    assert all({"time", "level", "logger", "message"} <= set(record) for record in records), records
    assert any(record["logger"].startswith("axes") for record in records)


def test_behind_a_proxy_its_addresses_must_be_named():
    """Without them X-Forwarded-For is never believed, and everyone would be counted as the proxy."""
    result = manage("check", **PRODUCTION, BEHIND_TLS_PROXY="true")
    assert result.returncode != 0 and "BEHIND_TLS_PROXY needs TRUSTED_PROXIES" in result.stderr
    result = manage("check", **PRODUCTION, BEHIND_TLS_PROXY="true", TRUSTED_PROXIES="10.0.0.1,not-a-network")
    assert result.returncode != 0 and "TRUSTED_PROXIES must be addresses or networks" in result.stderr
    assert manage("check", **PRODUCTION, BEHIND_TLS_PROXY="true", TRUSTED_PROXIES="10.0.0.0/24").returncode == 0


def test_check_deploy_warns_of_a_trusted_proxies_network():
    """Issue 32, item 5: a network in TRUSTED_PROXIES lets a client inside it choose its address."""
    wide = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION, TRUSTED_PROXIES="10.0.0.0/24")
    assert wide.returncode != 0 and "accounts.W002" in wide.stdout + wide.stderr
    proxies = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION, TRUSTED_PROXIES="10.0.0.5,10.0.0.6")
    assert proxies.returncode == 0, proxies.stdout + proxies.stderr


def test_a_bad_log_format_stops_the_start():
    result = manage("check", LOG_FORMAT="xml")
    assert result.returncode != 0 and "LOG_FORMAT must be json or text" in result.stderr


def test_each_request_is_one_log_line_with_who_status_and_duration(client, casino, caplog):
    client.force_login(casino.security)
    with caplog.at_level(logging.INFO, logger="logbook.request"):
        client.get("/floor/", REMOTE_ADDR="10.1.2.3")
    [record] = [r for r in caplog.records if r.name == "logbook.request"]
    formatted = json.loads(JsonFormatter(**{k: v for k, v in JSON_FORMATTER.items() if k != "()"}).format(record))
    assert formatted["message"] == "GET /floor/ 200"
    assert formatted["status"] == 200 and formatted["user_id"] == casino.security.pk
    assert formatted["client"] == "10.1.2.3" and formatted["duration_ms"] >= 0


def test_the_production_server_logs_json_and_each_request_once(tmp_path):
    """`make serve`'s gunicorn with the production environment: its own lines and the application's
    are JSON; each request is one line with its status and the client's address from the proxy."""
    environment = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env = {
        **environment,
        **PRODUCTION,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "BEHIND_TLS_PROXY": "true",
        "TRUSTED_PROXIES": "127.0.0.1",  # the proxy, here the test itself
    }
    server, port = gunicorn_start(env, workers=1, args=("--config", "config/gunicorn.conf.py"), stderr=subprocess.PIPE)
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/login/",
            headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.9.8.7"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
            assert "max-age=31536000" in response.headers["Strict-Transport-Security"]
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=30)
    records = [json.loads(line) for line in stderr.splitlines() if line.strip()]
    assert any(r["logger"] == "gunicorn.error" and "Booting worker" in r["message"] for r in records), records
    [line] = [r for r in records if r["logger"] == "logbook.request"]
    assert (line["method"], line["path"], line["status"], line["client"]) == ("GET", "/login/", 200, "10.9.8.7")


def test_production_without_signing_keys_is_warned_by_check_deploy():
    environment = {
        **PRODUCTION,
        "LOGBOOK_CHECKPOINT_KEYRING": "",
        "LOGBOOK_REPORT_SIGNING_KEY": "",
        "LOGBOOK_REPORT_SIGNING_CERT": "",
        "LOGBOOK_TSA_URL": "",
        "LOGBOOK_TSA_CERTIFICATES": "",
    }
    result = manage("check", "--deploy", "--fail-level", "WARNING", **environment)
    assert result.returncode != 0
    for warning in ("logbook.W001", "logbook.W002", "logbook.W006"):  # W006: no timestamp authority
        assert warning in result.stderr + result.stdout


def test_a_named_key_ring_that_cannot_be_read_stops_the_start(tmp_path):
    result = manage("check", **{**PRODUCTION, "LOGBOOK_CHECKPOINT_KEYRING": str(tmp_path / "missing.json")})
    assert result.returncode != 0 and "LOGBOOK_CHECKPOINT_KEYRING: cannot read the checkpoint key ring" in result.stderr
