"""Trusted time (issue 33, item 2): with a timestamp authority configured, each checkpoint carries an
RFC 3161 token over its signature and each PDF report is PAdES B-LTA (a timestamped signature, the
validation data in the Document Security Store, a document timestamp). Every test here meets a real
authority: OpenSSL's `ts -reply` in a process of its own on 127.0.0.1 (tests/tsa.py)."""

import hashlib
import subprocess

import pytest
from django.core.management import call_command
from django.utils import timezone
from pypdf import PdfReader

from inspections.logbook import checkpoints, services
from inspections.logbook.checks import signing_configured
from inspections.logbook.timestamps import TimestampUnavailable
from inspections.reports import render, signing
from inspections.reports.models import Report
from tests.inspections.test_reports import pdf_pages, requested
from tests.inspections.test_signed_reports import generated
from tests.tsa import LocalTSA


def validated(path, tsa):
    """pyHanko's validation of the report, with only the published CA and the authority as trust roots."""
    from django.conf import settings
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import DocumentSecurityStore, validate_pdf_signature, validate_pdf_timestamp
    from pyhanko_certvalidator import ValidationContext

    ca = load_cert_from_pemder(settings.LOGBOOK_REPORT_CA_CERT)
    authority = load_cert_from_pemder(str(tsa.certificate_path))
    with open(path, "rb") as handle:
        reader = PdfFileReader(handle)
        (signature,) = reader.embedded_regular_signatures
        (document_timestamp,) = reader.embedded_timestamp_signatures
        status = validate_pdf_signature(
            signature, ValidationContext(trust_roots=[ca]), ValidationContext(trust_roots=[authority])
        )
        stamped = validate_pdf_timestamp(document_timestamp, ValidationContext(trust_roots=[authority]))
        dss = DocumentSecurityStore.read_dss(reader)
        carried = {certificate.sha256 for certificate in dss.load_certs()}
    return status, stamped, carried, ca, authority


def test_with_an_authority_a_report_is_pades_b_lta_and_validates_against_the_published_ca(
    committed_db, media, history, tsa
):
    from pyhanko.sign.diff_analysis import ModificationLevel
    from pyhanko.sign.validation import SignatureCoverageLevel

    report = generated(history)
    assert report.status == "done", report.error
    status, stamped, carried, ca, authority = validated(report.file.path, tsa)
    cover = " ".join(pdf_pages(report)[0].split())
    assert (
        f"Trusted time PAdES B-LTA: this file's signature carries an RFC 3161 timestamp by the authority at {tsa.url}"
        in cover
    )
    # B-T: the casino's signature, valid and trusted through the CA, with the authority's timestamp.
    assert status.bottom_line, status.pretty_print_details()
    assert status.timestamp_validity is not None
    assert status.timestamp_validity.valid and status.timestamp_validity.trusted
    assert status.timestamp_validity.signing_cert.sha256 == authority.sha256
    # B-LT: what validates the signer and the authority is in the file (the DSS), whatever the
    # network says later; the updates after the signature are those archiving allows, nothing else.
    assert {ca.sha256, status.signing_cert.sha256, authority.sha256} <= carried
    assert status.modification_level == ModificationLevel.LTA_UPDATES
    assert status.coverage == SignatureCoverageLevel.ENTIRE_REVISION
    # B-LTA: a document timestamp over the whole file, DSS included.
    assert stamped.valid and stamped.intact and stamped.trusted
    assert stamped.coverage == SignatureCoverageLevel.ENTIRE_FILE
    assert stamped.timestamp >= status.timestamp_validity.timestamp
    # Every update kept the file at PDF 1.7 with WeasyPrint's PDF/A metadata (issue 33, item 5).
    catalog = PdfReader(report.file.path).trailer["/Root"]
    assert catalog.get("/Version") in (None, "/1.7")
    metadata = catalog["/Metadata"].get_object().get_data()
    assert b'pdfaid:part="3"' in metadata and b"pyHanko" not in metadata


def test_a_b_lta_report_still_validates_after_its_certificate_expires(
    committed_db, media, history, tsa, signing_keys, settings, tmp_path
):
    """pyHanko's PAdES LTA validation (ETSI EN 319 102-1's long-term process), simulated 900 days
    ahead, past the report certificate's 825: what the file carries (the certificates, the CA's
    revocation list, the timestamps) proves the signature was made while its certificate was valid
    and not revoked. The trust roots are the published CA and the authority alone. Without the CA's
    revocation list pyHanko answers INDETERMINATE (no proof of existence), hence LOGBOOK_REPORT_CA_CRL."""
    import asyncio
    from datetime import timedelta

    from django.conf import settings
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.ades.report import AdESPassed
    from pyhanko.sign.validation.ades import simulate_future_ades_lta_validation
    from pyhanko.sign.validation.policy_decl import PdfSignatureValidationSpec, SignatureValidationSpec
    from pyhanko_certvalidator.context import CertValidationPolicySpec
    from pyhanko_certvalidator.policy_decl import REQUIRE_REVINFO, CertRevTrustPolicy
    from pyhanko_certvalidator.registry import SimpleTrustManager

    crl = tmp_path / "compliance-ca.crl"
    # The CA's revocation list, issued offline as docs/operations.md says (no certificate revoked).
    call_command(
        "report_ca_crl_issue", ca_key=str(signing_keys.ca_key), ca_cert=str(signing_keys.ca_cert), crl=str(crl)
    )
    settings.LOGBOOK_REPORT_CA_CRL = str(crl)
    report = generated(history)
    roots = [load_cert_from_pemder(settings.LOGBOOK_REPORT_CA_CERT), load_cert_from_pemder(str(tsa.certificate_path))]
    policy = CertValidationPolicySpec(
        trust_manager=SimpleTrustManager.build(trust_roots=roots), revinfo_policy=CertRevTrustPolicy(REQUIRE_REVINFO)
    )
    spec = PdfSignatureValidationSpec(SignatureValidationSpec(cert_validation_policy=policy))
    with open(report.file.path, "rb") as handle:
        reader = PdfFileReader(handle)
        (signature,) = reader.embedded_regular_signatures
        assert signature.signer_cert.not_valid_after < timezone.now() + timedelta(days=900)
        result = asyncio.run(
            simulate_future_ades_lta_validation(
                signature, spec, future_validation_time=timezone.now() + timedelta(days=900)
            )
        )
    assert result.ades_subindic == AdESPassed.OK, result


def test_a_report_of_a_deployment_without_an_authority_is_signed_without_trusted_time(
    committed_db, media, history, settings
):
    """`make run`'s default: no authority; the report is signed (PAdES B-B) and its cover says its
    checkpoint has no trusted timestamp."""
    from pyhanko.pdf_utils.reader import PdfFileReader

    assert settings.LOGBOOK_TSA_URL == ""
    report = generated(history)
    assert report.status == "done" and report.signed_by
    with open(report.file.path, "rb") as handle:
        reader = PdfFileReader(handle)
        assert len(reader.embedded_regular_signatures) == 1 and not reader.embedded_timestamp_signatures
    cover = " ".join(pdf_pages(report)[0].split())
    assert "No trusted timestamp" in cover  # the checkpoint's
    assert "Trusted time None: no timestamp authority is configured" in cover  # the file's


def test_a_checkpoints_token_verifies_for_its_signature_with_openssl(history, tsa, tmp_path):
    checkpoint = services.checkpoint_sign(property_id=history.property.pk)
    assert checkpoint.timestamp_token and tsa.requests == 1
    check = checkpoints.checkpoint_check(checkpoint, checkpoints.checkpoint_keys())
    assert check.ok, check.reason
    # OpenSSL's own verification, independent of the application's and pyHanko's: the token is about
    # SHA-256 of the checkpoint's signature, signed by the authority.
    token = tmp_path / "token.der"
    token.write_bytes(bytes(checkpoint.timestamp_token))

    def openssl_verify(data: bytes) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["openssl", "ts", "-verify", "-digest", hashlib.sha256(data).hexdigest(), "-in", str(token),
             "-token_in", "-CAfile", str(tsa.certificate_path), "-untrusted", str(tsa.certificate_path)],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip

    verified = openssl_verify(bytes.fromhex(checkpoint.signature))
    assert verified.returncode == 0 and "Verification: OK" in verified.stdout, verified.stdout + verified.stderr
    assert openssl_verify(b"another signature").returncode != 0


def test_an_authority_down_a_moment_is_asked_again_and_the_report_keeps_its_trusted_time(
    committed_db, media, history, settings, tmp_path
):
    """The authority refuses its first two requests: the report's checkpoint (asked once, it never
    waits) says it has no token, the signature's first attempt fails, the second is timestamped."""
    authority = LocalTSA(tmp_path, refuse=2)
    try:
        settings.LOGBOOK_TSA_URL, settings.LOGBOOK_TSA_CERTIFICATES = authority.url, str(authority.certificate_path)
        report = generated(history)
    finally:
        authority.stop()
    assert report.status == "done", report.error
    assert authority.refused == 2
    assert report.checkpoint.timestamp_token is None and "did not answer" in report.checkpoint.timestamp_note
    status, stamped, *_ = validated(report.file.path, authority)
    assert status.bottom_line and status.timestamp_validity.trusted and stamped.trusted


def test_an_authority_that_stays_down_fails_the_report_saying_why(committed_db, media, history, settings, tmp_path):
    """No report without the trusted time promised (docs/architecture.md, "Trusted time"): asked three
    times, then the report fails, says why, and no file of it is served."""
    authority = LocalTSA(tmp_path, refuse=1000)
    try:
        settings.LOGBOOK_TSA_URL, settings.LOGBOOK_TSA_CERTIFICATES = authority.url, str(authority.certificate_path)
        report = requested(history)
        with pytest.raises(TimestampUnavailable):
            render.generate_locally(report.pk, processes=1)
    finally:
        authority.stop()
    report = Report.objects.get(pk=report.pk)
    assert report.status == "failed" and not report.file
    assert "TimestampUnavailable: the timestamp authority did not answer" in report.error
    # The checkpoint once, then the signature's three attempts (each stops at its first request).
    assert authority.refused == 1 + 1 + len(signing.RETRY_PAUSES)


def test_check_deploy_warns_without_a_timestamp_authority(settings):
    settings.LOGBOOK_TSA_URL = ""
    assert "logbook.W006" in [warning.id for warning in signing_configured(None)]
    settings.LOGBOOK_TSA_URL = "https://tsa.example/"
    assert "logbook.W006" not in [warning.id for warning in signing_configured(None)]
