"""Signatures: a person signs by re-entering their password (docs/architecture.md: Signatures). In the logbook
58 Pa. Code § 617a.2(e) asks for the signature of the individual; elsewhere it is product policy."""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.text import LENGTH_LIMITS
from compliance.rulebook.violations import Violation


def signature_citation(*, in_logbook: bool) -> str:
    """§ 617a.2(e) asks for the signature of the individual in the log (the inspection it certifies,
    an adjustment or replacement, and what else the log holds); elsewhere it is the product's policy."""
    return pa.INSPECTION_LOG if in_logbook else pa.SIGNATURE_POLICY


def signature_invalid(
    *, field: str, username: str, in_logbook: bool, remaining: int | None = None, minutes: int | None = None
) -> Violation:
    """The signature of the individual: the password re-entered is wrong; with `remaining`, how many
    more wrong passwords from this device lock signing as this name, and for how long."""
    citation = signature_citation(in_logbook=in_logbook)
    if remaining is None or minutes is None:
        return violation("signature_invalid", field=field, citation=citation, username=username)
    return violation(
        "signature_invalid/remaining",
        field=field,
        citation=citation,
        username=username,
        remaining=remaining,
        minutes=minutes,
    )


def signature_locked_out(*, field: str, username: str, minutes: int, in_logbook: bool) -> Violation:
    """The signature of the individual cannot be made while their name is locked after failed passwords."""
    return violation(
        "signature_locked_out",
        field=field,
        citation=signature_citation(in_logbook=in_logbook),
        username=username,
        minutes=minutes,
    )


def signature_directory_unavailable(*, field: str, username: str, in_logbook: bool) -> Violation:
    """The signature of the individual cannot be checked while the casino's directory, which holds
    the password, does not answer: refused, nothing recorded."""
    return violation(
        "signature_directory_unavailable",
        field=field,
        citation=signature_citation(in_logbook=in_logbook),
        username=username,
    )


def password_within_limit(*, password: str, field: str | None, max_length: int) -> Violation | None:
    """A password longer than `max_length` (config.validators.PASSWORD_MAX_LENGTH) is refused before
    it is hashed or checked."""
    if len(password) > max_length:
        return violation("max_length/password", field=field, citation=LENGTH_LIMITS, limit=max_length)
    return None
