"""A real RFC 3161 timestamp authority on 127.0.0.1 for the tests: OpenSSL's, in a process of its own.

`LocalTSA` makes the authority's RSA key and certificate (extended key usage timeStamping, critical,
as RFC 3161 § 2.3 requires), writes OpenSSL's `ts` configuration beside them and starts
tests/tsa_server.py, which answers each request over HTTP with `openssl ts -reply`. The
application's client, its checks, pyHanko's validator and the offline verifier all meet tokens
signed by an authority that is not the application's code nor pyHanko's, never a stand-in.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

SERVER = Path(__file__).resolve().parent / "tsa_server.py"

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
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, certificate


class LocalTSA:
    """Serves on a free port of 127.0.0.1 until `stop()`; `url`, and `certificate_path` (PEM) to trust.
    `refuse` first requests are answered 503 (an authority down, then back)."""

    def __init__(self, directory: Path, *, name: str = "Test timestamp authority", refuse: int = 0):
        key, certificate = tsa_certificate(name)
        self.directory = Path(directory) / f"tsa-{id(self)}"
        self.directory.mkdir(parents=True)
        self.certificate_path = self.directory / "tsa.pem"
        self.certificate_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        key_path = self.directory / "tsa.key"
        key_path.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        key_path.chmod(0o600)
        (self.directory / "serial").write_text("01\n")
        (self.directory / "tsa.cnf").write_text(CONFIGURATION.format(directory=self.directory))
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER), str(self.directory), "--refuse", str(refuse)],
            stdout=subprocess.PIPE,
            text=True,
        )
        port = self.process.stdout.readline().strip()
        if not port.isdigit():
            self.process.kill()
            raise RuntimeError("the test timestamp authority did not start")
        self.url = f"http://127.0.0.1:{port}/tsa"

    def _answers(self) -> list[str]:
        log = self.directory / "answered.log"
        return log.read_text().splitlines() if log.is_file() else []

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
