"""What a rule answers: nothing, or a Violation naming its citation."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Violation:
    code: str
    message: str
    citation: str | None = None
    field: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return asdict(self)


class RuleViolation(Exception):
    """Raised with every violation found; the API answers it with HTTP 400 (docs/api.md's format)."""

    def __init__(self, violations: Iterable[Violation]):
        self.violations = list(violations)
        super().__init__("; ".join(v.message for v in self.violations))


def raise_if_any(violations: Iterable[Violation | None]) -> None:
    found = [v for v in violations if v is not None]
    if found:
        raise RuleViolation(found)


class LimitReached(RuleViolation):
    """A limit of the product's own on how much may wait at once: answered with HTTP 429 (not 400),
    since the same request succeeds once what waits is done."""

    http_status = 429
