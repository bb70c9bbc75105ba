"""A real RFC 3161 timestamp authority on 127.0.0.1 for the tests: OpenSSL's, in a process of its own.

`LocalTSA` makes the authority's RSA key and certificate (config/keyring.py: extended key usage
timeStamping, critical, as RFC 3161 § 2.3 requires) and starts `make run`'s development authority,
scripts/tsa_server.py, which answers each request over HTTP with `openssl ts -reply`. The
application's client, its checks, pyHanko's validator and the offline verifier all meet tokens
signed by an authority that is not the application's code nor pyHanko's, never a stand-in.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

from config import keyring

SERVER = Path(__file__).resolve().parent.parent / "scripts" / "tsa_server.py"


def tsa_certificate(name: str = "Test timestamp authority"):
    """An RSA key and a self-signed certificate for time stamping (extended key usage timeStamping)."""
    return keyring.tsa_certificate(name, now=dt.datetime.now(dt.UTC))


class LocalTSA:
    """Serves on a free port of 127.0.0.1 until `stop()`; `url`, and `certificate_path` (PEM) to trust.
    `refuse` first requests are answered 503 (an authority down, then back)."""

    def __init__(self, directory: Path, *, name: str = "Test timestamp authority", refuse: int = 0):
        self.directory = Path(directory) / f"tsa-{id(self)}"
        keyring.tsa_files_make(self.directory, common_name=name, now=dt.datetime.now(dt.UTC))
        self.certificate_path = self.directory / "tsa.pem"
        self.log = self.directory / "answered.log"
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER), str(self.directory), "--refuse", str(refuse), "--log", str(self.log)],
            stdout=subprocess.PIPE,
            text=True,
        )
        port = self.process.stdout.readline().strip()
        if not port.isdigit():
            self.process.kill()
            raise RuntimeError("the test timestamp authority did not start")
        self.url = f"http://127.0.0.1:{port}/tsa"

    def _answers(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.is_file() else []

    @property
    def requests(self) -> int:
        """How many requests it answered with a token."""
        return self._answers().count("answered")

    @property
    def refused(self) -> int:
        """How many requests it refused (503), as asked to."""
        return self._answers().count("refused")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
