"""A development RFC 3161 timestamp authority over HTTP on 127.0.0.1: `make run`'s (Procfile.dev's
`tsa`) and the tests'. Not for production, which names its own authority (LOGBOOK_TSA_URL).

Each request's TimeStampReq (POST, any path) is answered by OpenSSL's own authority
(`openssl ts -reply`), with the key and certificate in the directory it is given, `tsa.key` and
`tsa.pem` (config/keyring.py makes them: `development_tsa` for `make run`, issued by the
development compliance CA); it writes OpenSSL's `ts` configuration (`tsa.cnf`) and serial number
file beside them. It uses the standard library only, so that it runs with any Python, and prints
its port once it listens.

    python scripts/tsa_server.py DIRECTORY [--port N] [--refuse N] [--log FILE]

`--port 0` (the default) listens on a free port. `--refuse N` answers the first N requests with 503
(an authority down for a while, then back). With `--log FILE`, each request answered with a token
adds a line "answered" to FILE, each refused one a line "refused".
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CONFIGURATION = """\
[ tsa ]
default_tsa = tsa_config

[ tsa_config ]
dir = {directory}
serial = $dir/serial
crypto_device = builtin
signer_cert = $dir/tsa.pem
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
"""


def configure(directory: Path) -> None:
    """OpenSSL's `ts` configuration for the key and certificate in `directory`, and its serial file
    (kept: each token's serial number is new)."""
    for name in ("tsa.key", "tsa.pem"):
        if not (directory / name).is_file():
            sys.exit(f"tsa_server: no {name} in {directory} (config/keyring.py makes it)")
    (directory / "tsa.cnf").write_text(CONFIGURATION.format(directory=directory))
    if not (directory / "serial").exists():
        (directory / "serial").write_text("01\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("directory", type=Path)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--refuse", type=int, default=0)
    parser.add_argument("--log", type=Path)
    arguments = parser.parse_args()
    directory: Path = arguments.directory.resolve()
    configure(directory)

    def note(line: str) -> None:
        if arguments.log is not None:
            with arguments.log.open("a") as log:
                log.write(f"{line}\n")

    lock = threading.Lock()  # OpenSSL's serial file is read and rewritten by each reply
    refused = [0]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                if refused[0] < arguments.refuse:
                    refused[0] += 1
                    note("refused")
                    self.answer(503, b"")
                    return
                reply = self.openssl_reply(body)
                if reply is not None:
                    note("answered")
            if reply is None:
                self.answer(400, b"")
            else:
                self.answer(200, reply, "application/timestamp-reply")

        def openssl_reply(self, query: bytes) -> bytes | None:
            with tempfile.TemporaryDirectory(dir=directory) as work:
                query_file, reply_file = Path(work) / "query.tsq", Path(work) / "reply.tsr"
                query_file.write_bytes(query)
                command = ["openssl", "ts", "-reply", "-config", str(directory / "tsa.cnf")]
                command += ["-queryfile", str(query_file), "-out", str(reply_file)]
                done = subprocess.run(  # noqa: S603 (OpenSSL, fixed arguments and our own files)
                    command,
                    capture_output=True,
                    timeout=30,
                    check=False,
                )
                if done.returncode != 0 or not reply_file.is_file():
                    sys.stderr.write(done.stderr.decode(errors="replace"))
                    return None
                return reply_file.read_bytes()

        def answer(self, status: int, body: bytes, content_type: str = "text/plain") -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
