"""Local ports and servers the tests start (gunicorn, Redis, make run): on 127.0.0.1 only."""

import socket
import subprocess
import sys
import time
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
