"""`make run` smoke test: honcho starts everything on a fresh database and stops it all."""

import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from inspections.logbook import demo
from tests.servers import ROOT, accepts, free_port, wait_until

READY = re.compile(r"logbook running at (http://127\.0\.0\.1:\d+/)")
# honcho's line for each process of Procfile.dev it starts ("web.1 started (pid=1234)").
STARTED = re.compile(r"(\w+)\.1 started \(pid=(\d+)\)")


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def api(url: str, *, token: str = "", data: dict | None = None) -> bytes:
    request = urllib.request.Request(url, data=None if data is None else json.dumps(data).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read()


def register_downloaded(url: str, directory: Path) -> Path:
    """What a compliance manager does: a register of the last two days, asked for, waited for and
    downloaded through the API (docs/api.md, Reports)."""
    from tests.servers import wait_until

    token = json.loads(api(url + "api/auth/token/", data={"username": "compliance", "password": demo.DEMO_PASSWORD}))
    token = token["token"]
    today = dt.datetime.now(dt.UTC).date()
    asked = {"kind": "inspection_register", "property": 1, "from": str(today - dt.timedelta(days=1)), "to": str(today)}
    report = json.loads(api(url + "api/reports/", token=token, data=asked))
    done = wait_until(
        lambda: (
            (r := json.loads(api(url + f"api/reports/{report['id']}/", token=token)))["status"] in ("done", "failed")
            and r
        ),
        seconds=120,
        what="the report generated",
        every=1,
    )
    assert done["status"] == "done", done["error"]
    assert done["checkpoint"]["timestamped"], done["checkpoint"]
    path = directory / "register.pdf"
    path.write_bytes(api(url + done["download"].lstrip("/"), token=token))
    return path


def validated_against_the_published_ca(url: str, path: Path):
    """pyHanko's validation with the CA `make run` publishes (/api/report-ca/) as the only trust
    root, for the casino's signature, its timestamp and the document timestamp alike."""
    from pyhanko.keys import load_certs_from_pemder_data
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature, validate_pdf_timestamp
    from pyhanko_certvalidator import ValidationContext

    (ca,) = load_certs_from_pemder_data(api(url + "api/report-ca/?format=pem"))
    with path.open("rb") as handle:
        reader = PdfFileReader(handle)
        (signature,) = reader.embedded_regular_signatures
        (document_timestamp,) = reader.embedded_timestamp_signatures
        status = validate_pdf_signature(
            signature, ValidationContext(trust_roots=[ca]), ValidationContext(trust_roots=[ca])
        )
        stamped = validate_pdf_timestamp(document_timestamp, ValidationContext(trust_roots=[ca]))
    return status, stamped


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def unseen(what: str, log: Path):
    """The failure's words, with make run's output as it is when the wait gives up."""
    return lambda: f"{what} not seen; output:\n{log.read_text()[-5000:]}"


@pytest.mark.slow
def test_make_run_starts_everything_and_stops_on_ctrl_c(tmp_path):
    port, redis_port, tsa_port = free_port(), free_port(), free_port()
    # make run's defaults: none of the tests' keys (tests/conftest.py) nor their REDIS_URL and database.
    # Its development keys, CA and timestamp authority are made under var/ if missing, as a developer's.
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE", "DATABASE_URL") and not k.startswith("LOGBOOK_")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        PORT=str(port),
        EMBEDDED_REDIS_PORT=str(redis_port),
        DEV_TSA_PORT=str(tsa_port),
        # This test's database and files: the signer's ledger of another database stays apart.
        LOGBOOK_CHECKPOINT_LEDGER=str(tmp_path / "checkpoint-ledger.json"),
        MEDIA_ROOT=str(tmp_path / "media"),
    )
    log = tmp_path / "run.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "scripts/run.py"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        wait_until(
            lambda: READY.search(log.read_text()) or process.poll() is not None,
            seconds=90,
            what=unseen("the URL", log),
            every=0.5,
        )
        assert process.poll() is None, log.read_text()
        output = log.read_text()
        url = READY.search(output).group(1)
        assert url == f"http://127.0.0.1:{port}/"
        for user in demo.DEMO_USERS:
            assert re.search(
                rf"{user.username}\s+{re.escape(demo.DEMO_PASSWORD)}\s+{re.escape(user.role_label)}", output
            )

        for path in ("", "admin/login/", "api/schema/"):
            assert get(url + path) == 200, path

        # Worker and beat are up: their process groups live and each reported for duty.
        children = {name: int(pid) for name, pid in STARTED.findall(log.read_text())}
        assert {"redis", "tsa", "web", "control_worker", "report_worker", "beat"} <= set(children)
        assert f"Timestamp authority: http://127.0.0.1:{tsa_port}/tsa" in output
        # One worker per queue: reports never hold back the overdue scan.
        for node in ("control", "reports"):
            wait_until(
                lambda node=node: re.search(rf"{node}@\S+ ready", log.read_text()),
                seconds=60,
                what=unseen(f"the {node} worker's ready line", log),
                every=0.5,
            )
        assert re.search(r"\.> control\s+exchange=control", log.read_text())
        assert re.search(r"\.> reports\s+exchange=reports", log.read_text())
        wait_until(
            lambda: "beat: Starting" in log.read_text(),
            seconds=60,
            what=unseen("beat's start line", log),
            every=0.5,
        )
        assert all(
            group_alive(children[name]) for name in ("redis", "tsa", "web", "control_worker", "report_worker", "beat")
        )
        assert accepts(redis_port) and accepts(tsa_port)

        # Issue 33, "Done when": a report made by make run's defaults carries trusted time from the
        # development authority and validates with pyHanko against the published CA alone.
        status, stamped = validated_against_the_published_ca(url, register_downloaded(url, tmp_path))
        assert status.bottom_line, status.pretty_print_details()
        assert status.timestamp_validity is not None, "the signature carries no timestamp"
        assert status.timestamp_validity.valid and status.timestamp_validity.trusted
        assert stamped.valid and stamped.intact and stamped.trusted

        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0, log.read_text()[-5000:]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    assert not accepts(port)
    assert not accepts(redis_port)
    assert not accepts(tsa_port)
    assert not any(group_alive(pgid) for pgid in children.values()), children


@pytest.mark.parametrize(
    ("given", "site"),
    [
        ({}, "http://127.0.0.1:8000"),
        ({"PORT": "8123"}, "http://127.0.0.1:8123"),
        ({"PORT": "8123", "SITE_URL": "https://logbook.keystone.example"}, "https://logbook.keystone.example"),
    ],
)
def test_make_run_on_another_port_links_the_labels_and_mail_to_it(given, site):
    """Issue 30: with PORT=8123 the QR labels (`/manage/tables/labels.pdf`) opened port 8000. make run
    gives the site's address at its port to every process it starts, unless SITE_URL is set."""
    from scripts import run

    env = dict(given)
    assert run.local_addresses(env) == int(given.get("PORT", 8000))
    assert env["SITE_URL"] == site


def test_make_run_refuses_when_the_timestamp_authoritys_port_is_taken(monkeypatch, capsys):
    """Issue 33: make run starts a development timestamp authority on DEV_TSA_PORT; a port already
    taken stops it before anything starts, saying what to do."""
    import socket

    from scripts import run

    def started(*args, **kwargs):
        raise AssertionError(f"make run went on: {args}")

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        held = taken.getsockname()[1]
        monkeypatch.setenv("DEV_TSA_PORT", str(held))
        monkeypatch.setenv("PORT", str(free_port()))
        monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
        monkeypatch.setenv("LOGBOOK_CHECKPOINT_KEYRING", "configured")
        monkeypatch.delenv("LOGBOOK_TSA_URL", raising=False)
        monkeypatch.setattr(run.subprocess, "run", started)
        monkeypatch.setattr(run.subprocess, "Popen", started)
        assert run.main(["run.py"]) == 1
    assert (
        f"ERROR: port {held} is already in use: set DEV_TSA_PORT to a free port "
        "or LOGBOOK_TSA_URL to your timestamp authority"
    ) in capsys.readouterr().out


def test_make_run_points_the_processes_at_its_timestamp_authority_unless_one_is_configured(monkeypatch, tmp_path):
    """Issue 33: without LOGBOOK_TSA_URL, make run adds Procfile.dev's `tsa` and gives the other
    processes its address and certificate, issued by the development compliance CA (under var/, here
    a temporary directory); with LOGBOOK_TSA_URL set, neither."""
    import subprocess

    from cryptography import x509

    from scripts import run

    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    tsa_port = free_port()
    monkeypatch.setenv("DEV_TSA_PORT", str(tsa_port))
    given = {"PORT": str(free_port()), "REDIS_URL": "redis://127.0.0.1:6379/0", "LOGBOOK_CHECKPOINT_KEYRING": "set"}

    env = dict(given)
    assert "tsa" in run.prepare(env)
    assert env["LOGBOOK_TSA_URL"] == f"http://127.0.0.1:{tsa_port}/tsa"
    assert env["LOGBOOK_TSA_CERTIFICATES"] == str(tmp_path / "var" / "keys" / "tsa" / "tsa.pem")
    authority = x509.load_pem_x509_certificate((tmp_path / "var" / "keys" / "tsa" / "tsa.pem").read_bytes())
    ca = x509.load_pem_x509_certificate((tmp_path / "var" / "ca" / "compliance-ca.pem").read_bytes())
    authority.verify_directly_issued_by(ca)
    assert authority.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value == x509.ExtendedKeyUsage(
        [x509.oid.ExtendedKeyUsageOID.TIME_STAMPING]
    )

    env = dict(given, LOGBOOK_TSA_URL="https://tsa.example/")
    assert "tsa" not in run.prepare(env)
    assert env["LOGBOOK_TSA_URL"] == "https://tsa.example/" and "LOGBOOK_TSA_CERTIFICATES" not in env


def test_make_run_embeds_its_development_cas_revocation_list_unless_one_is_configured(monkeypatch, tmp_path):
    """Issue 33: make run's development compliance CA issues an (empty) revocation list beside its
    certificate, and make run points LOGBOOK_REPORT_CA_CRL at it, so that its reports carry what
    long-term validation needs after the report certificate expires; a list or a CA configured is
    left alone."""
    import subprocess
    from datetime import UTC, datetime, timedelta

    from cryptography import x509

    from config import keyring
    from scripts import run

    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    given = {"PORT": str(free_port()), "REDIS_URL": "redis://127.0.0.1:6379/0", "LOGBOOK_TSA_URL": "https://tsa/"}

    env = dict(given)
    run.prepare(env)
    crl_path = tmp_path / "var" / "ca" / "compliance-ca.crl"
    assert env["LOGBOOK_REPORT_CA_CRL"] == str(crl_path)
    crl = x509.load_pem_x509_crl(crl_path.read_bytes())
    (ca,) = keyring.certificates_load(tmp_path / "var" / "ca" / "compliance-ca.pem")
    assert crl.issuer == ca.subject and crl.is_signature_valid(ca.public_key()) and len(crl) == 0
    assert keyring.load_crl(crl_path)  # as the report's signing reads it

    # Made once; made again when it has expired.
    now = datetime.now(UTC)
    assert keyring.development_keys(tmp_path / "var" / "keys", now=now) == []
    later = now + timedelta(days=826)
    assert keyring.development_keys(tmp_path / "var" / "keys", now=later) == [str(crl_path)]
    assert x509.load_pem_x509_crl(crl_path.read_bytes()).next_update_utc > later

    env = dict(given, LOGBOOK_REPORT_CA_CRL="/elsewhere/ca.crl")
    run.prepare(env)
    assert env["LOGBOOK_REPORT_CA_CRL"] == "/elsewhere/ca.crl"
    env = dict(given, LOGBOOK_REPORT_CA_CERT="/elsewhere/ca.pem")
    run.prepare(env)
    assert "LOGBOOK_REPORT_CA_CRL" not in env
