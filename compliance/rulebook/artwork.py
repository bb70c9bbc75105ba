"""Product policy on a layout's artwork: the picture of the layout the regulator approves.

58 Pa. Code § 617a.1(f) (and each game's and jurisdiction's like paragraph) has the layout submitted
to the Bureau and approved; the rules do not say in what form. The product keeps the layout's
artwork with the submission, so that the regulator decides on what they saw and the signatures bind
it: a PDF, PNG or JPEG file, recognised by its first bytes (never by its name), of a bounded size.
"""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.violations import Violation, policy_template

# The artwork's kinds, each by the bytes its files begin with, and its media type.
ARTWORK_SIGNATURES = {
    "pdf": (b"%PDF-", "application/pdf"),
    "png": (b"\x89PNG\r\n\x1a\n", "image/png"),
    "jpeg": (b"\xff\xd8\xff", "image/jpeg"),
}
ARTWORK_HEAD_BYTES = max(len(magic) for magic, _ in ARTWORK_SIGNATURES.values())


ARTWORK_POLICY = policy_template(
    "Product policy: a layout is submitted with its artwork, a PDF, PNG or JPEG file of at most {size}"
)


def artwork_policy(*, max_bytes: int) -> str:
    return ARTWORK_POLICY.format(size=_megabytes(max_bytes))


def _megabytes(size: int) -> str:
    """A size as a person reads it: 10 MB, 10.5 MB, 1.96 KB."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.3g} MB"
    return f"{size / 1024:.3g} KB"


def artwork_kind(head: bytes) -> str | None:
    """The artwork's kind (pdf, png, jpeg) from its first bytes, or None."""
    for kind, (magic, _) in ARTWORK_SIGNATURES.items():
        if head.startswith(magic):
            return kind
    return None


def artwork_media_type(kind: str) -> str:
    return ARTWORK_SIGNATURES[kind][1]


def layout_artwork_check(*, head: bytes | None, size: int, max_bytes: int) -> Violation | None:
    """A layout's artwork is given, is a PDF, PNG or JPEG by its content, and is at most `max_bytes`."""
    citation = artwork_policy(max_bytes=max_bytes)
    if head is None or size == 0:
        return violation("layout_artwork_missing", field="artwork", citation=citation)
    if size > max_bytes:
        return violation(
            "layout_artwork_too_large",
            field="artwork",
            citation=citation,
            size=_megabytes(size),
            max_size=_megabytes(max_bytes),
        )
    if artwork_kind(head) is None:
        return violation("layout_artwork_type", field="artwork", citation=citation)
    return None
