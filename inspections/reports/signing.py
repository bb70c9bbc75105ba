"""Every PDF report signed by the application's certificate (PAdES, with pyHanko), which the
deployment's compliance CA issued (config/keyring.py): any PDF reader shows who signed it and that
it is unchanged since, and a validator given the published CA certificate follows the chain.

Where a timestamp authority is configured (LOGBOOK_TSA_URL), the report is PAdES B-LTA (the
baseline levels of ETSI EN 319 142-1): its signature carries the authority's RFC 3161 timestamp
(B-T); one more update adds the Document Security Store, with the certificates and the revocation
data (the compliance CA's list, LOGBOOK_REPORT_CA_CRL) that validate the signer and the authority
(B-LT), and a document timestamp over the whole file (B-LTA), which an archive renews before its
authority's certificate expires. A report is never issued without the trusted time promised: the
authority is asked again after a pause (RETRY_PAUSES); if it still does not answer, the signing
raises TimestampUnavailable and the report fails saying so (docs/architecture.md, "Trusted time").
Without an authority (`make run`), the signature is PAdES B-B: the signer's own clock.

The signature is an incremental update: the PDF/A-3b file WeasyPrint made, its attachments (the
CSV, the chain segment) included, is kept byte for byte and covered whole by the signature. Every
update keeps the file at PDF 1.7, the version PDF/A-3 is defined on (ISO 19005-3): it declares the
PAdES extension of PDF 1.7 (ESIC), never raises the catalog's /Version to 2.0, and leaves the XMP
metadata and the Info dictionary as WeasyPrint wrote them.
"""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path

from django.conf import settings

from inspections.logbook.timestamps import TimestampUnavailable, trusted_tsa_certificates, tsa_stamper

FIELD = "LogbookSignature"
DOCUMENT_TIMESTAMP_FIELD = "LogbookDocumentTimestamp"
# The pauses, in seconds, before asking a timestamp authority that did not answer again: three
# attempts in all, then the report fails (product policy: no report without the trusted time promised).
RETRY_PAUSES = (1, 5)


class SigningRefused(Exception):
    """The signature just made does not validate (its certificate path, its timestamp's authority)."""


def pdf_sign(source: Path, target: Path, *, reason: str, location: str) -> str | None:
    """Sign `source` into `target`; answers the signer's name, or None (and writes nothing) when no
    signing key is configured. With an authority configured, the file is B-LTA or nothing:
    TimestampUnavailable when the authority did not answer after RETRY_PAUSES."""
    if not settings.LOGBOOK_REPORT_SIGNING_KEY:
        return None
    from pyhanko.sign import signers

    # The CA's certificate travels in the signature, so that a validator given only the published CA
    # (or already trusting the enterprise CA) builds the path to the report certificate.
    chain = (settings.LOGBOOK_REPORT_CA_CERT,) if settings.LOGBOOK_REPORT_CA_CERT else ()
    signer = signers.SimpleSigner.load(
        settings.LOGBOOK_REPORT_SIGNING_KEY, settings.LOGBOOK_REPORT_SIGNING_CERT, ca_chain_files=chain
    )
    if signer is None:
        raise RuntimeError("the report signing key or certificate cannot be loaded")
    for pause in (*RETRY_PAUSES, None):
        try:
            signed = asyncio.run(_signed(source.read_bytes(), signer, reason=reason, location=location))
            break
        except TimestampUnavailable:
            if pause is None:
                raise
            time.sleep(pause)
    target.write_bytes(signed)
    return signer.signing_cert.subject.human_friendly


def _writer(data: io.BytesIO):
    """An incremental update that keeps the file's metadata: pyHanko would rewrite the document's
    XMP metadata as its own (and the Info dictionary, which PDF/A wants to agree with it)."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter

    class KeepingMetadata(IncrementalPdfFileWriter):
        def _update_meta(self) -> None:
            pass

    return KeepingMetadata(data, strict=False)


async def _signed(pdf: bytes, signer, *, reason: str, location: str) -> bytes:
    from pyhanko.sign import signers
    from pyhanko.sign.fields import SigSeedSubFilter
    from pyhanko.sign.signers.constants import ESIC_EXTENSION_1

    stamper = tsa_stamper()
    metadata = signers.PdfSignatureMetadata(
        field_name=FIELD, subfilter=SigSeedSubFilter.PADES, md_algorithm="sha256", reason=reason, location=location
    )

    class AtPdf17(signers.PdfSigner):
        """pyHanko declares ISO 32002 (a PDF 2.0 extension) for an ECDSA P-256 signature, which sets
        the catalog's /Version to 2.0 in a file that says it is PDF/A-3b: this signer declares only
        the PAdES extension of PDF 1.7, which covers the same signature."""

        def register_extensions(self, pdf_out, *, md_algorithm: str) -> None:
            pdf_out.register_extension(ESIC_EXTENSION_1)

    out = io.BytesIO()
    await AtPdf17(metadata, signer=signer, timestamper=stamper).async_sign_pdf(_writer(io.BytesIO(pdf)), output=out)
    if stamper is not None:
        await _archived(out, stamper, signer)
    return out.getvalue()


async def _archived(out: io.BytesIO, stamper, signer) -> None:
    """B-T to B-LTA, in one more update of `out`: the validation data of the signature and of its
    timestamp in the Document Security Store, then a document timestamp over the whole file. The
    signature is validated first, against the compliance CA (or the signer's own certificate where
    none is configured) and the authority's certificates (LOGBOOK_TSA_CERTIFICATES): a report whose
    signer or timestamp does not validate is refused, never archived."""
    from pyhanko.keys import load_cert_from_pemder
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.signers.pdf_signer import PdfTimeStamper, TimestampDSSContentSettings
    from pyhanko.sign.validation import DocumentSecurityStore, async_validate_pdf_signature
    from pyhanko_certvalidator import ValidationContext

    from config.keyring import load_crl

    (signature,) = PdfFileReader(out, strict=False).embedded_signatures
    ca = settings.LOGBOOK_REPORT_CA_CERT
    roots = [load_cert_from_pemder(ca)] if ca else [signer.signing_cert]
    # The revocation data embedded: the compliance CA's list (LOGBOOK_REPORT_CA_CRL, issued offline),
    # and whatever a certificate names where it is published (an enterprise CA's, an authority's). A
    # certificate with neither is soft-failed now, as pyHanko does; without the CA's list, a validator
    # cannot check the report certificate once it has expired (docs/architecture.md, "Trusted time").
    crls = [load_crl(path) for path in [settings.LOGBOOK_REPORT_CA_CRL] if path]
    context = ValidationContext(trust_roots=roots, crls=crls, allow_fetching=True, revocation_mode="soft-fail")
    tokens = [
        attribute["values"][0]["content"]
        for attribute in signature.signer_info["unsigned_attrs"]
        if attribute["type"].native == "signature_time_stamp_token"
    ]
    token_certificates = [c.chosen for token in tokens for c in token["certificates"] if c.name == "certificate"]
    authorities = trusted_tsa_certificates() or token_certificates
    ts_context = ValidationContext(trust_roots=authorities, allow_fetching=True, revocation_mode="soft-fail")
    status = await async_validate_pdf_signature(signature, context, ts_context)
    timestamp = status.timestamp_validity
    if not (status.bottom_line and timestamp is not None and timestamp.valid and timestamp.trusted):
        raise SigningRefused(
            f"the report's signature does not validate before archiving: {status.summary()}"
            + ("" if timestamp is None else f"; its timestamp: {timestamp.summary()}")
        )
    writer = _writer(out)
    DocumentSecurityStore.supply_dss_in_writer(
        writer,
        None,
        paths=[status.validation_path, timestamp.validation_path],
        validation_context=context,
    )
    await PdfTimeStamper(stamper, field_name=DOCUMENT_TIMESTAMP_FIELD).async_timestamp_pdf(
        writer,
        "sha256",
        ts_context,
        in_place=True,
        dss_settings=TimestampDSSContentSettings(update_before_ts=True, include_vri=False),
    )
