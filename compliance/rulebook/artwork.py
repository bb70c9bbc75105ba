"""Product policy on a layout's artwork: the picture of the layout the regulator approves.

58 Pa. Code § 617a.1(f) (and each game's and jurisdiction's like paragraph) has the layout submitted
to the Bureau and approved; the rules do not say in what form. The product keeps the layout's
artwork with the submission, so that the regulator decides on what they saw and the signatures bind
it: a PDF, PNG or JPEG file, recognised by its first bytes (never by its name), of a bounded size.

What the product keeps of it is bounded too (product policy, issue 32 item 4): a picture's pixels
(read from its header: a small file of a hundred megapixels costs whoever draws it the memory of
all of them), a PDF's active content (refused: it would run inside the viewer of every person who
opens it, and inside the signed approvals report that attaches it), and each property's share of
the store (one file per SHA-256, and a quota of bytes).
"""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.violations import Violation, gettext_noop, policy_template

# The artwork's kinds, each by the bytes its files begin with, and its media type.
ARTWORK_SIGNATURES = {
    "pdf": (b"%PDF-", "application/pdf"),
    "png": (b"\x89PNG\r\n\x1a\n", "image/png"),
    "jpeg": (b"\xff\xd8\xff", "image/jpeg"),
}
ARTWORK_HEAD_BYTES = max(len(magic) for magic, _ in ARTWORK_SIGNATURES.values())


ARTWORK_POLICY = policy_template(
    gettext_noop("Product policy: a layout is submitted with its artwork, a PDF, PNG or JPEG file of at most {size}")
)


ARTWORK_PIXELS_POLICY = policy_template(
    gettext_noop("Product policy: a layout's artwork image has at most {megapixels} megapixels")
)
ARTWORK_ACTIVE_POLICY = policy_template(
    gettext_noop(
        "Product policy: a layout's artwork PDF carries no active content (no JavaScript, no action run on "
        "opening, no launched program, no embedded file)"
    )
)
ARTWORK_QUOTA_POLICY = policy_template(
    gettext_noop("Product policy: a property keeps at most {size} of layout artwork")
)
ARTWORK_RETENTION_POLICY = policy_template(
    gettext_noop(
        "Product policy: the artwork of a rejected layout is removed {days} days after the rejection; its "
        "SHA-256 stays with the signatures"
    )
)

# What a PDF may not hold: names of active content (a dictionary's key, or an action's /S), as the
# PDF reference (ISO 32000-1, § 12.6 actions, § 7.11.4 embedded files, § 12.7.8 XFA) names them. An
# /OpenAction that is a destination (an array: the page to show) is no action and is allowed.
PDF_ACTIVE_KEYS = frozenset(
    {"/JS", "/JavaScript", "/AA", "/Launch", "/EmbeddedFiles", "/EmbeddedFile", "/RichMedia", "/XFA"}
)
PDF_ACTIVE_ACTIONS = frozenset(
    {"/JavaScript", "/Launch", "/SubmitForm", "/ImportData", "/ResetForm", "/Rendition", "/Sound", "/Movie"}
)


def _megapixels(pixels: int) -> str:
    return f"{pixels / 1_000_000:.3g}"


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


def artwork_pixels_check(*, pixels: int | None, max_pixels: int) -> Violation | None:
    """An image's pixels, read from its header (None: the header cannot be read)."""
    citation = ARTWORK_PIXELS_POLICY.format(megapixels=_megapixels(max_pixels))
    if pixels is None:
        return violation("layout_artwork_unreadable", field="artwork", citation=citation)
    if pixels > max_pixels:
        return violation(
            "layout_artwork_too_many_pixels",
            field="artwork",
            citation=citation,
            megapixels=_megapixels(pixels),
            max_megapixels=_megapixels(max_pixels),
        )
    return None


def artwork_pdf_check(*, readable: bool, active: list[str]) -> Violation | None:
    """A PDF that can be read, with no active content (`active`: the names found, none allowed)."""
    if not readable:
        return violation("layout_artwork_unreadable", field="artwork", citation=ARTWORK_ACTIVE_POLICY)
    if active:
        return violation(
            "layout_artwork_active", field="artwork", citation=ARTWORK_ACTIVE_POLICY, found=", ".join(active)
        )
    return None


def artwork_quota_check(*, kept: int, added: int, quota: int) -> Violation | None:
    """What the property keeps of artwork (each stored file once), with this one, within its quota."""
    if kept + added <= quota:
        return None
    return violation(
        "layout_artwork_quota",
        field="artwork",
        citation=ARTWORK_QUOTA_POLICY.format(size=_megabytes(quota)),
        total=_megabytes(kept + added),
        quota=_megabytes(quota),
    )
