"""One test item that checks many cases and names each one that fails, instead of an item a case."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Failures:
    """Collects the failed assertions of each case, under the case's name:

    failures = Failures()
    for depth in (33, 100_000):
        with failures.case(f"depth {depth}"):
            assert ...
    failures.assert_none()
    """

    def __init__(self) -> None:
        self.found: list[str] = []

    @contextmanager
    def case(self, name: str) -> Iterator[None]:
        try:
            yield
        except AssertionError as failed:
            self.found.append(f"{name}: {str(failed)[:500]}")

    def assert_none(self) -> None:
        assert self.found == [], "\n".join(self.found)
