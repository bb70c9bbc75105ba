"""`make run` smoke test: honcho starts everything on a fresh database and stops it all."""

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
    port, redis_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        PORT=str(port),
        EMBEDDED_REDIS_PORT=str(redis_port),
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
        assert {"redis", "web", "control_worker", "report_worker", "beat"} <= set(children)
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
        assert all(group_alive(children[name]) for name in ("redis", "web", "control_worker", "report_worker", "beat"))
        assert accepts(redis_port)

        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=20) == 0, log.read_text()[-5000:]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

    assert not accepts(port)
    assert not accepts(redis_port)
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
