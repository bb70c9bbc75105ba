"""The application's signing keys, kept outside the database: the checkpoints' Ed25519 keys and the
reports' certificate, issued by the deployment's compliance certificate authority.

The compliance CA is the trust root a regulator's validator is given (pdfsig, pyHanko, Acrobat): its
key is kept offline, never beside the application's keys, and is used only to issue a new report
certificate (`manage.py report_ca_make`, then `manage.py report_certificate_issue`). An existing
enterprise CA does as well: its certificate is configured instead (LOGBOOK_REPORT_CA_CERT). Every
report certificate ever issued is kept, public half only, in the published bundle
(LOGBOOK_REPORT_CERTIFICATES), so that older reports still name a certificate the application shows.

`make run` has a development compliance CA (var/ca/), which also issues the certificate of its
development timestamp authority (var/keys/tsa/, served by scripts/tsa_server.py): the published CA
alone is then the trust root of the reports' signatures and their timestamps. Every certificate here
comes from one builder, `certificate_build`.

A checkpoint key ring is a JSON file naming each key's PEM file (relative paths from the ring's own
directory) and when the key was in use:

    {"keys": [
        {"file": "checkpoint-2026-01.pem", "valid_from": "2026-01-01T00:00:00+00:00",
         "valid_until": "2026-07-01T00:00:00+00:00"},
        {"file": "checkpoint-2026-07.pem", "valid_from": "2026-07-01T00:00:00+00:00", "valid_until": null}
    ]}

A key still signing has its private key in its file; a retired one may keep only its public key, so
that what it signed still verifies. Nothing here imports Django: settings, `make run` and the
management commands use it alike.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


class KeyringError(Exception):
    """A key ring or key file that cannot be used, and why."""


@dataclass(frozen=True)
class CheckpointKey:
    key_id: str
    public_key: ed25519.Ed25519PublicKey
    private_key: ed25519.Ed25519PrivateKey | None
    valid_from: dt.datetime
    valid_until: dt.datetime | None

    def valid_at(self, moment: dt.datetime) -> bool:
        return self.valid_from <= moment and (self.valid_until is None or moment < self.valid_until)

    @property
    def public_pem(self) -> str:
        return public_pem(self.public_key)


def public_pem(public_key: ed25519.Ed25519PublicKey) -> str:
    return public_key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode(
        "ascii"
    )


def key_id_of(public_key: ed25519.Ed25519PublicKey) -> str:
    """The first 16 hexadecimal digits of the SHA-256 of the raw public key: what a checkpoint names."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def _moment(value, *, field: str, path: Path) -> dt.datetime | None:
    if value is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise KeyringError(f"{path}: {field} must be an ISO 8601 time, not {value!r}") from None
    if moment.tzinfo is None:
        raise KeyringError(f"{path}: {field} {value!r} must name its time zone (…+00:00)")
    return moment


def _load_key(path: Path) -> tuple[ed25519.Ed25519PublicKey, ed25519.Ed25519PrivateKey | None]:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise KeyringError(f"cannot read the key file {path}: {error.strerror}") from None
    if b"PRIVATE KEY" in data:
        private = serialization.load_pem_private_key(data, password=None)
        if not isinstance(private, ed25519.Ed25519PrivateKey):
            raise KeyringError(f"{path} is not an Ed25519 private key")
        return private.public_key(), private
    try:
        public = serialization.load_pem_public_key(data)
    except ValueError:
        raise KeyringError(f"{path} holds no PEM key") from None
    if not isinstance(public, ed25519.Ed25519PublicKey):
        raise KeyringError(f"{path} is not an Ed25519 public key")
    return public, None


def keyring_load(path: str | Path) -> list[CheckpointKey]:
    """Every key of the ring, oldest first; a ring that cannot be used raises KeyringError saying why."""
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise KeyringError(f"cannot read the checkpoint key ring {path}: {error.strerror}") from None
    except ValueError as error:
        raise KeyringError(f"{path} is not JSON: {error}") from None
    entries = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(entries, list) or not entries:
        raise KeyringError(f'{path} must hold {{"keys": [...]}} with at least one key')
    keys = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise KeyringError(f'{path}: each key is {{"file": …, "valid_from": …, "valid_until": …}}')
        public, private = _load_key(path.parent / entry["file"])
        valid_from = _moment(entry.get("valid_from"), field="valid_from", path=path)
        if valid_from is None:
            raise KeyringError(f"{path}: the key {entry['file']} needs its valid_from")
        keys.append(
            CheckpointKey(
                key_id=key_id_of(public),
                public_key=public,
                private_key=private,
                valid_from=valid_from,
                valid_until=_moment(entry.get("valid_until"), field="valid_until", path=path),
            )
        )
    if len({key.key_id for key in keys}) != len(keys):
        raise KeyringError(f"{path} names the same key twice")
    return sorted(keys, key=lambda key: key.valid_from)


def signing_key(keys: list[CheckpointKey], at: dt.datetime) -> CheckpointKey:
    """The key that signs at `at`: the newest one valid then whose private key is at hand."""
    usable = [key for key in keys if key.private_key is not None and key.valid_at(at)]
    if not usable:
        raise KeyringError(f"no checkpoint key with its private key is valid at {at.isoformat()}")
    return usable[-1]


def _write_private(path: Path, data: bytes) -> None:
    """A secret file readable by its owner only, never overwritten."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def checkpoint_key_add(ring: str | Path, *, now: dt.datetime, name: str | None = None) -> CheckpointKey:
    """Rotation: a new Ed25519 key in the ring's directory, valid from `now`; the key that signed until
    now is valid until `now`. The ring is made if it does not exist."""
    ring = Path(ring)
    ring.parent.mkdir(parents=True, exist_ok=True)
    document = json.loads(ring.read_text(encoding="utf-8")) if ring.exists() else {"keys": []}
    private = ed25519.Ed25519PrivateKey.generate()
    file_name = name or f"checkpoint-{now:%Y%m%dT%H%M%S}-{key_id_of(private.public_key())[:8]}.pem"
    _write_private(
        ring.parent / file_name,
        _private_pem(private),
    )
    for entry in document["keys"]:
        if entry.get("valid_until") is None:
            entry["valid_until"] = now.isoformat()
    document["keys"].append({"file": file_name, "valid_from": now.isoformat(), "valid_until": None})
    temporary = ring.with_suffix(".tmp")
    temporary.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    temporary.replace(ring)
    return next(key for key in keyring_load(ring) if key.key_id == key_id_of(private.public_key()))


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Roulette compliance logbook"),
        ]
    )


def certificate_build(
    subject: x509.Name,
    public_key,
    *,
    issuer_key,
    issuer: x509.Certificate | None = None,
    not_before: dt.datetime,
    not_after: dt.datetime,
    digest: hashes.SHA256 | hashes.SHA384,
    authority: bool = False,
    time_stamping: bool = False,
    key_identifiers: bool = True,
) -> x509.Certificate:
    """The one certificate builder of the application's keys: self-signed without `issuer` (then
    `issuer_key` is the subject's own key), else issued by `issuer` with its key. An `authority` may
    only sign certificates and revocation lists, of end entities (path length 0); any other signs
    (digital signature, non-repudiation), and with `time_stamping` for a timestamp authority only
    (extended key usage timeStamping, critical, as RFC 3161 § 2.3 requires)."""
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer.subject if issuer is not None else subject)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=authority, path_length=0 if authority else None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=not authority,
                content_commitment=not authority,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=authority,
                crl_sign=authority,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
    )
    if time_stamping:
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
    if key_identifiers:
        builder = builder.add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
        if issuer is not None:
            builder = builder.add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False
            )
    return builder.sign(issuer_key, digest)


def _private_pem(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _key_and_certificate_write(key_path: Path, cert_path: Path, key, certificate: x509.Certificate) -> None:
    """The key (owner only, never overwritten) and its certificate (PEM), their folders made."""
    key_path.parent.mkdir(parents=True, exist_ok=True)
    cert_path.parent.mkdir(parents=True, exist_ok=True)
    _write_private(key_path, _private_pem(key))
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))


def report_certificate_make(
    key_path: str | Path, cert_path: str | Path, *, common_name: str, now: dt.datetime, days: int = 3650
) -> None:
    """A key and a self-signed certificate that sign the reports (a development's, or a test's; in
    production, a certificate from the casino's certification authority does better)."""
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = certificate_build(
        _name(common_name),
        key.public_key(),
        issuer_key=key,
        not_before=now - dt.timedelta(days=1),
        not_after=now + dt.timedelta(days=days),
        digest=hashes.SHA256(),
        key_identifiers=False,
    )
    _key_and_certificate_write(Path(key_path), Path(cert_path), key, certificate)


def report_ca_make(
    key_path: str | Path, cert_path: str | Path, *, common_name: str, now: dt.datetime, days: int = 7300
) -> x509.Certificate:
    """The deployment's compliance certificate authority: a key (kept offline) and its self-signed CA
    certificate (published), which may issue report certificates only (path length 0)."""
    key = ec.generate_private_key(ec.SECP384R1())
    certificate = certificate_build(
        _name(common_name),
        key.public_key(),
        issuer_key=key,
        not_before=now - dt.timedelta(days=1),
        not_after=now + dt.timedelta(days=days),
        digest=hashes.SHA384(),
        authority=True,
    )
    _key_and_certificate_write(Path(key_path), Path(cert_path), key, certificate)
    return certificate


def certificates_load(path: str | Path) -> list[x509.Certificate]:
    """Every certificate of a PEM file (a bundle), in its order; none if the file does not exist."""
    path = Path(path)
    if not path.exists():
        return []
    try:
        return x509.load_pem_x509_certificates(path.read_bytes())
    except ValueError:
        raise KeyringError(f"{path} holds no PEM certificate") from None


def _ca_loaded(ca_key_path: str | Path, ca_cert_path: str | Path):
    """The compliance CA's private key and its certificate, the key checked to be the certificate's."""
    try:
        ca_key = serialization.load_pem_private_key(Path(ca_key_path).read_bytes(), password=None)
    except OSError as error:
        raise KeyringError(f"cannot read the CA's key {ca_key_path}: {error.strerror}") from None
    if not isinstance(ca_key, ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey):
        raise KeyringError(f"{ca_key_path} is not an EC or RSA private key")
    authorities = certificates_load(ca_cert_path)
    if not authorities:
        raise KeyringError(f"no CA certificate in {ca_cert_path}")
    ca_certificate = authorities[0]
    if ca_certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    ) != ca_key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo):
        raise KeyringError(f"{ca_key_path} is not the key of the CA certificate {ca_cert_path}")
    return ca_key, ca_certificate


def _digest_of(ca_key) -> hashes.SHA256 | hashes.SHA384:
    """What the compliance CA signs with: SHA-384 with an EC key, SHA-256 with an RSA one."""
    return hashes.SHA384() if isinstance(ca_key, ec.EllipticCurvePrivateKey) else hashes.SHA256()


def report_certificate_issue(
    ca_key_path: str | Path,
    ca_cert_path: str | Path,
    key_path: str | Path,
    cert_path: str | Path,
    *,
    common_name: str,
    now: dt.datetime,
    days: int = 825,
    published: str | Path | None = None,
) -> x509.Certificate:
    """A new report-signing key and its certificate, issued by the compliance CA; the certificate
    is appended to the `published` bundle, where the earlier ones stay. The key and certificate
    files must not exist yet (a rotation writes new ones, then the settings name them)."""
    ca_key, ca_certificate = _ca_loaded(ca_key_path, ca_cert_path)
    key = ec.generate_private_key(ec.SECP256R1())
    not_after = min(now + dt.timedelta(days=days), ca_certificate.not_valid_after_utc)
    certificate = certificate_build(
        _name(common_name),
        key.public_key(),
        issuer_key=ca_key,
        issuer=ca_certificate,
        not_before=now - dt.timedelta(minutes=5),
        not_after=not_after,
        digest=_digest_of(ca_key),
    )
    Path(key_path).parent.mkdir(parents=True, exist_ok=True)
    _write_private(Path(key_path), _private_pem(key))
    pem = certificate.public_bytes(serialization.Encoding.PEM)
    fd = os.open(cert_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    if published is not None:
        with Path(published).open("ab") as handle:
            handle.write(pem)
    return certificate


def tsa_certificate(
    common_name: str, *, now: dt.datetime, days: int = 3650, ca_key=None, ca_certificate: x509.Certificate | None = None
) -> tuple[rsa.RSAPrivateKey, x509.Certificate]:
    """An RFC 3161 timestamp authority's RSA key and certificate (extended key usage timeStamping):
    issued by the compliance CA given (its key and certificate), else self-signed."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    if ca_certificate is None:
        certificate = certificate_build(
            x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]),
            key.public_key(),
            issuer_key=key,
            not_before=now - dt.timedelta(days=1),
            not_after=now + dt.timedelta(days=days),
            digest=hashes.SHA256(),
            time_stamping=True,
            key_identifiers=False,
        )
    else:
        certificate = certificate_build(
            _name(common_name),
            key.public_key(),
            issuer_key=ca_key,
            issuer=ca_certificate,
            not_before=now - dt.timedelta(minutes=5),
            not_after=min(now + dt.timedelta(days=days), ca_certificate.not_valid_after_utc),
            digest=_digest_of(ca_key),
            time_stamping=True,
        )
    return key, certificate


def tsa_files_make(
    directory: str | Path, *, common_name: str, now: dt.datetime, ca_key_path=None, ca_cert_path=None
) -> x509.Certificate:
    """A timestamp authority's `tsa.key` (owner only) and `tsa.pem` in `directory`, what
    scripts/tsa_server.py serves with: issued by the compliance CA whose key and certificate are
    given, else self-signed. The files must not exist yet."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    ca_key = ca_certificate = None
    if ca_key_path is not None:
        ca_key, ca_certificate = _ca_loaded(ca_key_path, ca_cert_path)
    key, certificate = tsa_certificate(common_name, now=now, ca_key=ca_key, ca_certificate=ca_certificate)
    _key_and_certificate_write(directory / "tsa.key", directory / "tsa.pem", key, certificate)
    return certificate


def _issued_by(certificates: list[x509.Certificate], authority: x509.Certificate) -> bool:
    """Whether the first certificate of a file is one `authority` signed (not only one naming it)."""
    if not certificates or certificates[0].issuer != authority.subject:
        return False
    try:
        certificates[0].verify_directly_issued_by(authority)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True


def _development_ca(ca_directory: Path, *, now: dt.datetime, made: list[str]) -> tuple[Path, Path]:
    ca_key, ca_cert = ca_directory / "compliance-ca.key", ca_directory / "compliance-ca.pem"
    if not ca_key.exists() or not ca_cert.exists():
        ca_key.unlink(missing_ok=True)
        report_ca_make(ca_key, ca_cert, common_name="Logbook development compliance CA (not for production)", now=now)
        made.append(str(ca_cert))
    # Its revocation list, empty: embedded in each report (LOGBOOK_REPORT_CA_CRL, which scripts/run.py
    # points at it), it lets a validator check the report certificate after it expires. Made again
    # when missing, expired or not this CA's.
    crl = development_crl_path(ca_directory)
    if not _crl_current(crl, ca_cert, now=now):
        report_ca_crl_issue(ca_key, ca_cert, crl, now=now)
        made.append(str(crl))
    return ca_key, ca_cert


def development_crl_path(ca_directory: str | Path) -> Path:
    """Where `make run`'s development compliance CA keeps its revocation list."""
    return Path(ca_directory) / "compliance-ca.crl"


def _crl_current(path: Path, ca_cert: Path, *, now: dt.datetime) -> bool:
    """Whether `path` holds a revocation list signed by the CA of `ca_cert` and not yet due for renewal."""
    try:
        crl = x509.load_pem_x509_crl(path.read_bytes())
    except (OSError, ValueError):
        return False
    (authority,) = certificates_load(ca_cert)
    public_key = authority.public_key()
    if not isinstance(public_key, ec.EllipticCurvePublicKey | rsa.RSAPublicKey):
        return False
    return (
        crl.issuer == authority.subject
        and crl.is_signature_valid(public_key)
        and crl.next_update_utc is not None
        and crl.next_update_utc > now
    )


def development_keys(directory: str | Path, *, now: dt.datetime, ca_directory: str | Path | None = None) -> list[str]:
    """`make run`: a checkpoint key ring under `directory` (git-ignored), a development compliance
    CA under `ca_directory` (beside it, never in it: the CA's key is not the application's), and a
    report certificate the CA issues; each made only if it is missing (a report certificate the CA
    did not issue, from before there was a CA, is replaced). Answers what was made."""
    directory = Path(directory)
    ca_directory = Path(ca_directory) if ca_directory is not None else directory.parent / "ca"
    made: list[str] = []
    ring = directory / "checkpoint-keyring.json"
    if not ring.exists():
        checkpoint_key_add(ring, now=now)
        made.append(str(ring))
    ca_key, ca_cert = _development_ca(ca_directory, now=now, made=made)
    key, cert = directory / "report-signing.key", directory / "report-signing.pem"
    (authority,) = certificates_load(ca_cert)
    if not key.exists() or not _issued_by(certificates_load(cert), authority):
        key.unlink(missing_ok=True)
        cert.unlink(missing_ok=True)
        report_certificate_issue(
            ca_key,
            ca_cert,
            key,
            cert,
            common_name="Logbook development (not for production)",
            now=now,
            published=directory / "report-certificates.pem",
        )
        made.append(str(cert))
    return made


def development_tsa(directory: str | Path, *, now: dt.datetime, ca_directory: str | Path | None = None) -> list[str]:
    """`make run`'s timestamp authority (scripts/tsa_server.py): its key and certificate in
    `directory` (git-ignored), the certificate issued by the development compliance CA of
    `ca_directory` (made if missing), so that the published CA alone is the trust root of the
    reports' signatures and of their timestamps. Made only if missing or not issued by that CA;
    answers what was made."""
    directory = Path(directory)
    ca_directory = Path(ca_directory) if ca_directory is not None else directory.parent.parent / "ca"
    made: list[str] = []
    ca_key, ca_cert = _development_ca(ca_directory, now=now, made=made)
    (authority,) = certificates_load(ca_cert)
    if not (directory / "tsa.key").exists() or not _issued_by(certificates_load(directory / "tsa.pem"), authority):
        (directory / "tsa.key").unlink(missing_ok=True)
        (directory / "tsa.pem").unlink(missing_ok=True)
        tsa_files_make(
            directory,
            common_name="Logbook development timestamp authority (not for production)",
            now=now,
            ca_key_path=ca_key,
            ca_cert_path=ca_cert,
        )
        made.append(str(directory / "tsa.pem"))
    return made


def load_crl(path: str | Path):
    """A certificate revocation list (PEM or DER), as asn1crypto reads it."""
    from asn1crypto import crl, pem  # type: ignore[import-untyped]

    data = Path(path).read_bytes()
    if pem.detect(data):
        _, _, data = pem.unarmor(data)
    return crl.CertificateList.load(data)


def report_ca_crl_issue(
    ca_key_path: str | Path,
    ca_cert_path: str | Path,
    crl_path: str | Path,
    *,
    now: dt.datetime,
    days: int = 825,
    revoked: tuple[int, ...] = (),
) -> None:
    """The compliance CA's revocation list: the serials of the report certificates it revoked (none
    usually), signed by its key and valid `days` (issued with each report certificate, offline)."""
    ca_key, ca_certificate = _ca_loaded(ca_key_path, ca_cert_path)
    builder = (
        x509.CertificateRevocationListBuilder()
        .issuer_name(ca_certificate.subject)
        .last_update(now - dt.timedelta(minutes=5))
        .next_update(now + dt.timedelta(days=days))
        .add_extension(x509.CRLNumber(int(now.timestamp())), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
    )
    for serial in revoked:
        builder = builder.add_revoked_certificate(
            x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(now).build()
        )
    Path(crl_path).write_bytes(builder.sign(ca_key, _digest_of(ca_key)).public_bytes(serialization.Encoding.PEM))
