"""Local ports for the servers the tests start (gunicorn, Redis, make run): 127.0.0.1 only."""

import socket
import subprocess
import time


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
