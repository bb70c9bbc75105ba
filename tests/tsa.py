"""A real RFC 3161 timestamp authority on 127.0.0.1 for the tests: HTTP in, DER tokens out.

It answers TimeStampReq bodies with tokens that pyHanko's testing authority (DummyTimeStamper)
signs with an RSA key and a certificate made here, so the application's client, its check and the
offline verifier meet a real token over the network, never a stand-in that accepts anything.
"""

from __future__ import annotations

import datetime as dt
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from asn1crypto import keys as asn1_keys
from asn1crypto import tsp
from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def tsa_certificate(name: str = "Test timestamp authority"):
    """An RSA key and a self-signed certificate for time stamping (extended key usage timeStamping)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=3650))
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, certificate


class LocalTSA:
    """Serves on a free port of 127.0.0.1 until `stop()`; `url`, and `certificate_path` (PEM) to trust."""

    def __init__(self, directory: Path, *, name: str = "Test timestamp authority"):
        from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper

        key, certificate = tsa_certificate(name)
        self.certificate_path = Path(directory) / f"tsa-{id(self)}.pem"
        self.certificate_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        stamper = DummyTimeStamper(
            tsa_cert=asn1_x509.Certificate.load(certificate.public_bytes(serialization.Encoding.DER)),
            tsa_key=asn1_keys.PrivateKeyInfo.load(
                key.private_bytes(
                    serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            ),
        )
        self.requests = 0
        tsa = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    request = tsp.TimeStampReq.load(body)
                    request.native  # noqa: B018 (parses it whole: a malformed request is refused here)
                    answer = stamper.request_tsa_response(request).dump()
                except ValueError:
                    self.send_response(400)
                    self.end_headers()
                    return
                tsa.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/timestamp-reply")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/tsa"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
