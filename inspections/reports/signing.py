"""Every PDF report signed by the application's certificate (PAdES, with pyHanko), which the
deployment's compliance CA issued (config/keyring.py): any PDF reader shows who signed it and that
it is unchanged since, and a validator given the published CA certificate follows the chain. Where a timestamp authority is configured
(LOGBOOK_TSA_URL), the signature carries its RFC 3161 timestamp (PAdES B-T).

The signature is an incremental update: the PDF/A-3b file WeasyPrint made, its attachments (the
CSV, the chain segment) included, is kept byte for byte and covered whole by the signature. The
update keeps the file at PDF 1.7, the version PDF/A-3 is defined on (ISO 19005-3): it declares the
PAdES extension of PDF 1.7 (ESIC) and never raises the catalog's /Version to 2.0.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from inspections.logbook.timestamps import tsa_stamper

FIELD = "LogbookSignature"


def pdf_sign(source: Path, target: Path, *, reason: str, location: str) -> str | None:
    """Sign `source` into `target`; answers the signer's name, or None (and writes nothing) when no
    signing key is configured."""
    if not settings.LOGBOOK_REPORT_SIGNING_KEY:
        return None
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import signers
    from pyhanko.sign.fields import SigSeedSubFilter
    from pyhanko.sign.signers.constants import ESIC_EXTENSION_1

    # The CA's certificate travels in the signature, so that a validator given only the published CA
    # (or already trusting the enterprise CA) builds the path to the report certificate.
    chain = (settings.LOGBOOK_REPORT_CA_CERT,) if settings.LOGBOOK_REPORT_CA_CERT else ()
    signer = signers.SimpleSigner.load(
        settings.LOGBOOK_REPORT_SIGNING_KEY, settings.LOGBOOK_REPORT_SIGNING_CERT, ca_chain_files=chain
    )
    if signer is None:
        raise RuntimeError("the report signing key or certificate cannot be loaded")
    metadata = signers.PdfSignatureMetadata(
        field_name=FIELD, subfilter=SigSeedSubFilter.PADES, md_algorithm="sha256", reason=reason, location=location
    )

    class AtPdf17(signers.PdfSigner):
        """pyHanko declares ISO 32002 (a PDF 2.0 extension) for an ECDSA P-256 signature, which sets
        the catalog's /Version to 2.0 in a file that says it is PDF/A-3b: this signer declares only
        the PAdES extension of PDF 1.7, which covers the same signature."""

        def register_extensions(self, pdf_out, *, md_algorithm: str) -> None:
            pdf_out.register_extension(ESIC_EXTENSION_1)

    class KeepingMetadata(IncrementalPdfFileWriter):
        """pyHanko would rewrite the document's XMP metadata as its own (and the Info dictionary,
        which PDF/A wants to agree with it): the update leaves both as WeasyPrint wrote them."""

        def _update_meta(self) -> None:
            pass

    with source.open("rb") as handle, target.open("wb") as out:
        AtPdf17(metadata, signer=signer, timestamper=tsa_stamper()).sign_pdf(
            KeepingMetadata(handle, strict=False), output=out
        )
    return signer.signing_cert.subject.human_friendly
