"""Product policy on the photos attached to a logbook entry.

The Code asks for no photograph; a security officer or floorperson may attach some to an inspection
(naming a checklist item), an adjustment or replacement, a ball change or a "no spin", taken with
the tablet's camera or chosen from its files. Each is judged by its content (never by its name or
the media type the client sends): a JPEG, PNG or WebP image, bounded in bytes and in pixels, with
nothing after the image's end (a file that is also another kind of file is refused), and no more
than a few to an entry. The facts are read by the logbook (inspections/logbook/photos.py, with
Pillow); this module judges them.
"""

from __future__ import annotations

from compliance.rulebook.artwork import _megabytes
from compliance.rulebook.catalogue import violation
from compliance.rulebook.violations import Violation, gettext_noop, policy_template

# The kinds a photo may be, by the name Pillow gives the format it decoded.
PHOTO_FORMATS = {"JPEG": "jpeg", "PNG": "png", "WEBP": "webp"}

PHOTO_POLICY = policy_template(
    gettext_noop(
        "Product policy: a photo on an entry is a JPEG, PNG or WebP image of at most {size} and "
        "{megapixels} megapixels, at most {count} to an entry"
    )
)


def photo_policy(*, max_bytes: int, max_pixels: int, max_count: int) -> str:
    return PHOTO_POLICY.format(size=_megabytes(max_bytes), megapixels=f"{max_pixels / 1_000_000:.3g}", count=max_count)


def photo_check(
    *,
    name: str,
    size: int,
    image_format: str | None,
    pixels: int | None,
    trailing: bool,
    max_bytes: int,
    max_pixels: int,
    max_count: int,
) -> Violation | None:
    """One photo: within the size, an image of an allowed kind by its content, within the pixels,
    and nothing hidden after its end or inside it (`trailing`: a polyglot)."""
    citation = photo_policy(max_bytes=max_bytes, max_pixels=max_pixels, max_count=max_count)
    if size > max_bytes:
        return violation(
            "photo_too_large",
            field="photos",
            citation=citation,
            name=name,
            size=_megabytes(size),
            max_size=_megabytes(max_bytes),
        )
    if pixels is not None and pixels > max_pixels:
        return violation(
            "photo_too_many_pixels",
            field="photos",
            citation=citation,
            name=name,
            megapixels=f"{pixels / 1_000_000:.3g}",
            max_megapixels=f"{max_pixels / 1_000_000:.3g}",
        )
    if image_format not in PHOTO_FORMATS or trailing:
        return violation("photo_type", field="photos", citation=citation, name=name)
    return None


def photos_count_check(*, count: int, max_bytes: int, max_pixels: int, max_count: int) -> Violation | None:
    if count <= max_count:
        return None
    citation = photo_policy(max_bytes=max_bytes, max_pixels=max_pixels, max_count=max_count)
    return violation("photos_too_many", field="photos", citation=citation, count=count, max_count=max_count)


def photo_item_check(
    *, item: str, checklist: list[str], max_bytes: int, max_pixels: int, max_count: int
) -> Violation | None:
    """The checklist item an inspection's photos show, if named, is one of the table's."""
    if not item or item in checklist:
        return None
    citation = photo_policy(max_bytes=max_bytes, max_pixels=max_pixels, max_count=max_count)
    return violation("photo_item_unknown", field="photo_item", citation=citation, item=item)


PHOTOS_QUOTA_POLICY = policy_template(gettext_noop("Product policy: a property keeps at most {size} of photos"))


def photos_quota_check(*, kept: int, added: int, quota: int) -> Violation | None:
    """What the property keeps of photos (each stored file once), with these, within its quota."""
    if kept + added <= quota:
        return None
    return violation(
        "photos_quota",
        field="photos",
        citation=PHOTOS_QUOTA_POLICY.format(size=_megabytes(quota)),
        total=_megabytes(kept + added),
        quota=_megabytes(quota),
    )
