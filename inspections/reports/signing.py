"""Every PDF report signed by the application's certificate (PAdES, with pyHanko): any PDF reader
shows who signed it and that it is unchanged since. Where a timestamp authority is configured
(LOGBOOK_TSA_URL), the signature carries its RFC 3161 timestamp (PAdES B-T).

The signature is an incremental update: the PDF/A-3b file WeasyPrint made, its attachments (the
CSV, the chain segment) included, is kept byte for byte and covered whole by the signature.
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

    signer = signers.SimpleSigner.load(settings.LOGBOOK_REPORT_SIGNING_KEY, settings.LOGBOOK_REPORT_SIGNING_CERT)
    if signer is None:
        raise RuntimeError("the report signing key or certificate cannot be loaded")
    metadata = signers.PdfSignatureMetadata(
        field_name=FIELD, subfilter=SigSeedSubFilter.PADES, md_algorithm="sha256", reason=reason, location=location
    )

    class KeepingMetadata(IncrementalPdfFileWriter):
        """pyHanko would rewrite the document's XMP metadata as its own (and the Info dictionary,
        which PDF/A wants to agree with it): the update leaves both as WeasyPrint wrote them."""

        def _update_meta(self) -> None:
            pass

    with source.open("rb") as handle, target.open("wb") as out:
        signers.sign_pdf(
            KeepingMetadata(handle, strict=False),
            metadata,
            signer=signer,
            timestamper=tsa_stamper(),
            output=out,
        )
    return signer.signing_cert.subject.human_friendly
