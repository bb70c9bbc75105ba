"""Reads of the reports, scoped by `Report.objects.restrict` (config.visibility), and what is wrong with
a request for one (saving nothing)."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet

from inspections.reports.models import Report, ReportKind


def report_problems(*, kind: str, prop, period_from, period_to, tables) -> dict[str, str]:
    """What is wrong with a request for a report, by field (the API and the page both ask)."""
    problems = {}
    if period_from > period_to:
        problems["from"] = "The period starts after it ends."
    if any(table.property_id != prop.pk for table in tables):
        problems["tables"] = "Every table must be of the report's property."
    elif kind == ReportKind.TABLE_HISTORY and not tables:
        problems["tables"] = "A table history names its table(s)."
    return problems


def reports_visible_to(user) -> QuerySet[Report]:
    """A property's reports: to its compliance manager and its jurisdiction's regulators only."""
    return Report.objects.restrict(user).select_related("property", "requested_by", "checkpoint")


def _certificate(certificate) -> dict:
    from cryptography.hazmat.primitives import hashes, serialization

    return {
        "subject": certificate.subject.rfc4514_string(),
        "issuer": certificate.issuer.rfc4514_string(),
        "serial_number": format(certificate.serial_number, "x"),
        "sha256": certificate.fingerprint(hashes.SHA256()).hex(),
        "valid_from": certificate.not_valid_before_utc,
        "valid_until": certificate.not_valid_after_utc,
        "pem": certificate.public_bytes(serialization.Encoding.PEM).decode("ascii"),
    }


def report_ca_list() -> list[dict]:
    """The compliance CA's certificate (an enterprise CA's chain, as configured): the trust root a
    regulator gives a validator. Public to everyone: it is a certificate, not a secret."""
    from config.keyring import certificates_load

    if not settings.LOGBOOK_REPORT_CA_CERT:
        return []
    return [_certificate(certificate) for certificate in certificates_load(settings.LOGBOOK_REPORT_CA_CERT)]


def report_certificate_list() -> list[dict]:
    """Every report-signing certificate issued (the published bundle) and the one signing now, oldest
    first, each with its validity; `signing` marks the current one."""
    from config.keyring import certificates_load

    bundle = certificates_load(settings.LOGBOOK_REPORT_CERTIFICATES) if settings.LOGBOOK_REPORT_CERTIFICATES else []
    current = (
        certificates_load(settings.LOGBOOK_REPORT_SIGNING_CERT)[:1] if settings.LOGBOOK_REPORT_SIGNING_CERT else []
    )
    signing = {_certificate(certificate)["sha256"] for certificate in current}
    rows = {row["sha256"]: row for row in map(_certificate, [*bundle, *current])}
    return sorted(
        ({**row, "signing": row["sha256"] in signing} for row in rows.values()), key=lambda row: row["valid_from"]
    )
