"""An RFC 3161 timestamp authority over HTTP, run by the tests as a process of its own on 127.0.0.1.

Each request's TimeStampReq is answered by OpenSSL's own authority (`openssl ts -reply`), with the
key, certificate and configuration in the directory it is given (tests/tsa.py makes them). It uses
the standard library only, so that it runs with any Python, and prints its port once it listens.

    python tsa_server.py DIRECTORY [--refuse N]

`--refuse N` answers the first N requests with 503 (an authority down for a while, then back).
Each request answered with a token adds a line "answered" to DIRECTORY/answered.log, each refused
one a line "refused".
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("directory", type=Path)
    parser.add_argument("--refuse", type=int, default=0)
    arguments = parser.parse_args()
    directory: Path = arguments.directory
    lock = threading.Lock()  # OpenSSL's serial file is read and rewritten by each reply
    refused = [0]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with lock:
                if refused[0] < arguments.refuse:
                    refused[0] += 1
                    with (directory / "answered.log").open("a") as log:
                        log.write("refused\n")
                    self.answer(503, b"")
                    return
                reply = self.openssl_reply(body)
                if reply is not None:
                    with (directory / "answered.log").open("a") as log:
                        log.write("answered\n")
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
                done = subprocess.run(
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

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
