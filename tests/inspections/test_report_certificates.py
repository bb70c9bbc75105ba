"""A chain a validator follows: the report certificate is issued by the deployment's compliance CA,
whose certificate the application publishes (/api/report-ca/) with every report certificate ever
used (/api/report-certificates/); with only that CA as trust root, pyHanko judges a rendered report
VALID and poppler's pdfsig names its signer. A stranger's certificate is not trusted."""

import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from config import keyring
from tests.inspections.test_signed_reports import forge, generated
from tests.support.reports import pdf_pages


def published_ca(tmp_path) -> list[x509.Certificate]:
    """The CA as a regulator fetches it: no account needed, as PEM."""
    response = APIClient().get("/api/report-ca/", {"format": "pem"})
    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-pem-file")
    (tmp_path / "compliance-ca.pem").write_bytes(response.content)
    return x509.load_pem_x509_certificates(response.content)


def validated(path, trust_roots):
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    roots = []
    for index, root in enumerate(trust_roots):
        pem = root.public_bytes(serialization.Encoding.PEM)
        file = path.parent / f"root-{index}.pem"
        file.write_bytes(pem)
        roots.append(load_cert_from_pemder(str(file)))
    with open(path, "rb") as handle:
        (signature,) = PdfFileReader(handle).embedded_signatures
        return validate_pdf_signature(signature, ValidationContext(trust_roots=roots))


def test_a_report_validates_with_only_the_published_ca_as_trust_root(
    committed_db, media, history, signing_keys, tmp_path
):
    report = generated(history)
    assert report.status == "done", report.error
    (authority,) = published_ca(tmp_path)
    assert authority.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    status = validated(Path(report.file.path), [authority])
    assert status.intact and status.valid and status.trusted, status.pretty_print_details()
    assert status.bottom_line
    assert "Logbook tests compliance CA" in status.signing_cert.issuer.human_friendly
    # The signer is one of the published report certificates, the one signing now.
    certificates = APIClient().get("/api/report-certificates/").json()
    (current,) = [row for row in certificates if row["signing"]]
    assert current["sha256"] == status.signing_cert.sha256_fingerprint.replace(" ", "").lower()
    assert current["valid_from"] and current["valid_until"]
    # The cover tells its reader where the trust root is published.
    assert "/api/report-ca/" in " ".join(pdf_pages(report)[0].split())


def test_a_stranger_signed_report_is_not_trusted_by_the_published_ca(committed_db, media, history, tmp_path):
    report = generated(history)
    (authority,) = published_ca(tmp_path)
    forged = forge(tmp_path, Path(report.file.path))
    status = validated(forged, [authority])
    assert status.intact and not status.trusted and not status.bottom_line


@pytest.mark.skipif(not shutil.which("pdfsig"), reason="poppler's pdfsig is not installed")
def test_pdfsig_names_the_signer_and_trusts_it_through_the_published_ca(committed_db, media, history, tmp_path):
    report = generated(history)
    out = subprocess.run(["pdfsig", report.file.path], capture_output=True, text=True, check=False).stdout
    assert "Signer Certificate Common Name: Logbook tests" in out, out
    assert "Signature is Valid." in out and "Total document signed" in out, out
    if not shutil.which("certutil"):
        return  # NSS's tools (libnss3-tools) make the database pdfsig reads its trust roots from
    published_ca(tmp_path)
    nss = tmp_path / "nss"
    nss.mkdir()
    run = {"capture_output": True, "text": True, "check": True}
    subprocess.run(["certutil", "-N", "-d", f"sql:{nss}", "--empty-password"], **run)
    ca = str(tmp_path / "compliance-ca.pem")
    subprocess.run(["certutil", "-A", "-d", f"sql:{nss}", "-n", "compliance CA", "-t", "CT,C,C", "-i", ca], **run)
    out = subprocess.run(["pdfsig", "-nssdir", f"sql:{nss}", report.file.path], **run).stdout
    assert "Certificate Validation: Certificate is Trusted." in out, out
    forged = forge(tmp_path, Path(report.file.path))
    out = subprocess.run(["pdfsig", "-nssdir", f"sql:{nss}", str(forged)], capture_output=True, text=True).stdout
    assert "Signer Certificate Common Name: Forger" in out and "Certificate is Trusted." not in out, out


def test_the_published_certificates_list_the_retired_one_and_the_one_signing_now(
    committed_db, signing_keys, settings, tmp_path
):
    before = APIClient().get("/api/report-certificates/").json()
    assert [row["signing"] for row in before] == [True]
    published = tmp_path / "report-certificates.pem"
    shutil.copy(signing_keys.report_certificates, published)
    call_command(
        "report_certificate_issue",
        ca_key=str(signing_keys.ca_key),
        ca_cert=str(signing_keys.ca_cert),
        key=str(tmp_path / "new.key"),
        cert=str(tmp_path / "new.pem"),
        published=str(published),
        name="Logbook tests rotated",
    )
    settings.LOGBOOK_REPORT_CERTIFICATES = str(published)
    settings.LOGBOOK_REPORT_SIGNING_KEY = str(tmp_path / "new.key")
    settings.LOGBOOK_REPORT_SIGNING_CERT = str(tmp_path / "new.pem")
    after = APIClient().get("/api/report-certificates/").json()
    assert after[0]["sha256"] == before[0]["sha256"]  # the retired one stays, oldest first
    assert [row["signing"] for row in after] == [False, True]
    assert "Logbook tests rotated" in after[1]["subject"] and "compliance CA" in after[1]["issuer"]
    pem = APIClient().get("/api/report-certificates/", {"format": "pem"}).content
    assert len(x509.load_pem_x509_certificates(pem)) == 2


def test_a_report_certificate_is_issued_only_with_the_cas_own_key(signing_keys, tmp_path):
    other_key, other_cert = tmp_path / "other-ca.key", tmp_path / "other-ca.pem"
    keyring.report_ca_make(other_key, other_cert, common_name="Another CA", now=datetime.now(UTC))
    with pytest.raises(CommandError, match="is not the key of the CA certificate"):
        call_command(
            "report_certificate_issue",
            ca_key=str(other_key),
            ca_cert=str(signing_keys.ca_cert),
            key=str(tmp_path / "x.key"),
            cert=str(tmp_path / "x.pem"),
            published=str(tmp_path / "bundle.pem"),
            name="x",
        )
    assert not (tmp_path / "x.key").exists()


def test_make_runs_keys_are_issued_by_a_development_ca_kept_apart(tmp_path):
    keys, ca = tmp_path / "var" / "keys", tmp_path / "var" / "ca"
    # A development from before there was a CA: its self-signed report certificate is replaced.
    keys.mkdir(parents=True)
    keyring.report_certificate_make(
        keys / "report-signing.key", keys / "report-signing.pem", common_name="old", now=datetime.now(UTC)
    )
    made = keyring.development_keys(keys, now=datetime.now(UTC))
    assert str(ca / "compliance-ca.pem") in made and str(keys / "report-signing.pem") in made
    assert not list(keys.glob("compliance-ca*"))  # the CA's key is not among the application's keys
    (authority,) = keyring.certificates_load(ca / "compliance-ca.pem")
    (leaf,) = keyring.certificates_load(keys / "report-signing.pem")
    assert leaf.issuer == authority.subject
    leaf.verify_directly_issued_by(authority)
    assert keyring.certificates_load(keys / "report-certificates.pem") == [leaf]
    assert keyring.development_keys(keys, now=datetime.now(UTC)) == []  # made once


# ---- The offline verifier trusts only a signer that chains to the trust root given ----


def signed_again(source: Path, target: Path, key: Path, cert: Path, field: str) -> Path:
    """`source` with one more signature, an incremental update over the whole file."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers

    with source.open("rb") as handle, target.open("wb") as out:
        signers.sign_pdf(
            IncrementalPdfFileWriter(handle, strict=False),
            signers.PdfSignatureMetadata(field_name=field),
            signer=signers.SimpleSigner.load(str(key), str(cert)),
            output=out,
        )
    return target


def test_the_verifier_refuses_to_answer_without_a_trust_root(committed_db, media, history, signing_keys, tmp_path):
    """A stranger's signature over the genuine rows was VERIFIED when --cert was left out, with a hint."""
    from tests.inspections.test_signed_reports import keys_pem, offline

    report = generated(history)
    forged = forge(tmp_path, Path(report.file.path))
    keys = str(keys_pem(tmp_path, signing_keys.ring))
    result = offline(forged, "--key", keys, trust=False)
    assert result.returncode == 2 and "VERIFIED" not in result.stdout, result.stdout
    assert "Cannot check: give the trust root the report's signer must chain to: --ca" in result.stderr
    # With the published CA, the stranger is refused, and the genuine report verifies.
    ca = tmp_path / "compliance-ca.pem"
    ca.write_bytes(APIClient().get("/api/report-ca/", {"format": "pem"}).content)
    result = offline(forged, "--key", keys, "--ca", str(ca))
    assert result.returncode == 1, result.stdout
    assert "Common Name: Forger, whose certificate does not chain to the trust root you gave" in result.stdout
    result = offline(Path(report.file.path), "--key", keys, "--ca", str(ca))
    assert result.returncode == 0, result.stdout
    assert "the signer's certificate chains to the trust root you gave (--ca/--cert)" in result.stdout


def test_the_verifier_checks_every_signature_not_only_the_last(committed_db, media, history, signing_keys, tmp_path):
    """A stranger's signature in the middle, re-signed over by the casino's key: the last signature
    alone is genuine and covers the file, yet the file carries a signer nobody vouches for."""
    from tests.inspections.test_signed_reports import keys_pem, offline

    report = generated(history)
    forged = forge(tmp_path, Path(report.file.path))  # makes the forger's key and certificate
    stranger = signed_again(
        Path(report.file.path), tmp_path / "stranger.pdf", tmp_path / "forger.key", tmp_path / "forger.pem", "Stranger"
    )
    again = signed_again(stranger, tmp_path / "again.pdf", signing_keys.report_key, signing_keys.report_cert, "Again")
    assert forged.exists()
    keys = str(keys_pem(tmp_path, signing_keys.ring))
    result = offline(again, "--key", keys, "--cert", str(signing_keys.report_cert))
    assert result.returncode == 1, result.stdout
    assert "Common Name: Forger, whose certificate does not chain to the trust root you gave" in result.stdout
    assert "NOT VERIFIED" in result.stdout
