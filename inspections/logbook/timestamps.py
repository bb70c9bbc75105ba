"""Trusted time: RFC 3161 timestamp tokens from the authority named by LOGBOOK_TSA_URL, and their check.

A token binds the SHA-256 of some bytes (a checkpoint's signature) to the authority's clock, signed
by the authority; the check verifies that signature, that the token is about these bytes, and, when
LOGBOOK_TSA_CERTIFICATES names them, that the authority's certificate is one of them or issued by one.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from asn1crypto import cms, tsp  # type: ignore[import-untyped]
from asn1crypto import pem as asn1_pem
from asn1crypto import x509 as asn1_x509
from django.conf import settings


class TimestampUnavailable(Exception):
    """No token: no authority configured, or it did not answer as it should."""


def tsa_stamper():
    """pyHanko's HTTP client of the configured authority, or None when none is configured. Whatever
    keeps it from answering with a token (the network, a refusal, a malformed answer) is raised as
    TimestampUnavailable, saying why, wherever pyHanko asks it (a checkpoint, a report's signature)."""
    if not settings.LOGBOOK_TSA_URL:
        return None
    from pyhanko.sign.timestamps.requests_client import RequestsHTTPTimeStamper

    class Stamper(RequestsHTTPTimeStamper):
        async def async_timestamp(self, message_digest, md_algorithm):
            try:
                return await super().async_timestamp(message_digest, md_algorithm)
            except Exception as error:  # each of pyHanko's and the network's failures says why
                raise TimestampUnavailable(
                    f"the timestamp authority did not answer: {type(error).__name__}: {error}"
                ) from None

    return Stamper(settings.LOGBOOK_TSA_URL, timeout=settings.LOGBOOK_TSA_TIMEOUT_SECONDS)


def timestamp_fetch(data: bytes) -> bytes:
    """A DER-encoded RFC 3161 token over SHA-256(data); TimestampUnavailable says why there is none."""
    stamper = tsa_stamper()
    if stamper is None:
        raise TimestampUnavailable("no timestamp authority is configured (LOGBOOK_TSA_URL)")
    return asyncio.run(stamper.async_timestamp(hashlib.sha256(data).digest(), "sha256")).dump()


def trusted_tsa_certificates() -> list[asn1_x509.Certificate]:
    """The certificates LOGBOOK_TSA_CERTIFICATES names (PEM, one or several), or none."""
    if not settings.LOGBOOK_TSA_CERTIFICATES:
        return []
    data = Path(settings.LOGBOOK_TSA_CERTIFICATES).read_bytes()
    return [asn1_x509.Certificate.load(der) for _, _, der in asn1_pem.unarmor(data, multiple=True)]


@dataclass(frozen=True)
class TimestampCheck:
    ok: bool
    reason: str = ""
    time: datetime | None = None
    authority: str = ""


def timestamp_check(token: bytes, data: bytes, *, trusted: list[asn1_x509.Certificate] | None = None) -> TimestampCheck:
    """Whether `token` is a valid RFC 3161 token over SHA-256(data), signed by a trusted authority
    (any, when `trusted` is empty: the signature and the imprint are still checked)."""
    from pyhanko.sign.validation.generic_cms import validate_tst_signed_data
    from pyhanko_certvalidator import ValidationContext

    try:
        content = cms.ContentInfo.load(bytes(token))
        signed_data = content["content"]
        tst_info = signed_data["encap_content_info"]["content"].parsed
        if not isinstance(tst_info, tsp.TSTInfo):
            return TimestampCheck(False, "the token holds no timestamp")
        moment = tst_info["gen_time"].native
        embedded = [c.chosen for c in signed_data["certificates"] if c.name == "certificate"]
    except (ValueError, TypeError, KeyError) as error:
        return TimestampCheck(False, f"the token cannot be read: {error}")
    trusted = trusted if trusted is not None else trusted_tsa_certificates()
    roots = trusted or embedded
    context = ValidationContext(trust_roots=roots, allow_fetching=False)
    try:
        status = asyncio.run(
            validate_tst_signed_data(signed_data, context, lambda algorithm: hashlib.new(algorithm, data).digest())
        )
    except Exception as error:  # pyHanko's refusals are several classes; each is a reason
        return TimestampCheck(False, f"the token's signature does not verify: {error}")
    authority = status["signing_cert"].subject.human_friendly if status.get("signing_cert") else ""
    if not status.get("intact"):
        return TimestampCheck(False, "the token is not about this signature", moment, authority)
    if not status.get("valid"):
        return TimestampCheck(False, "the token's signature does not verify", moment, authority)
    # pyHanko names a certificate path it could not build to the trusted roots as a trust problem.
    if trusted and status.get("trust_problem_indic") is not None:
        return TimestampCheck(False, f"the token is signed by {authority}, not a trusted authority", moment, authority)
    return TimestampCheck(True, "", moment, authority)
