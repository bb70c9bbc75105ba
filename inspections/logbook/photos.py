"""The photos attached to an entry: read and judged before the entry is signed, stored with it.

A photo is judged by its content, with Pillow, never by the client's name or media type: its format
(compliance/rulebook/photos.py allows JPEG, PNG and WebP; HEIC is not read by this Pillow, so a
tablet's HEIC photo is refused and the tablet's camera is asked for JPEG by the browser), its
pixels read from the header before anything is decoded (a decompression bomb is refused, never
decoded), then decoded in full (a truncated or broken file is refused). A file with bytes after the
image's end, or with markup inside (HTML, SVG, script, PHP), is refused as a polyglot.

Two files are kept, each through Django's storage API (the default storage: MEDIA_ROOT, or an
S3-compatible store by configuration) and named by the product from the hash, never the client's
name: the original, byte for byte, whose SHA-256 the entry signs (kept for verification and never
served, since it keeps its EXIF, location included); and a copy re-encoded as JPEG without any
metadata, turned upright, at most PHOTO_DISPLAY_SIDE pixels a side, which the pages show.

A property keeps one original and one display copy per SHA-256: the same photo attached again (to
another entry, or twice) is the file already kept. What a property keeps of photos is bounded
(PHOTO_QUOTA_BYTES). The files are written by services.entry_append under the property's chain
lock, after every rule has judged the entry (a refused entry writes nothing), and the files it
newly wrote are removed again if the entry's row is not written after all (a storage is no part of
the database's transaction; the chain lock keeps any other entry from taking them meanwhile).
"""

from __future__ import annotations

import hashlib
import io
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db.models import Sum
from django.http import FileResponse, Http404
from PIL import Image, ImageOps, UnidentifiedImageError

from compliance.rulebook import Violation, raise_if_any
from compliance.rulebook.photos import (
    PHOTO_FORMATS,
    photo_check,
    photo_item_check,
    photos_count_check,
    photos_quota_check,
)
from config.uploads import uploaded_file_headers
from inspections.logbook.models import Entry, EntryPhoto

# Markup that has no business inside a photo: a file that is also a page or a script (a polyglot).
_MARKUP = re.compile(rb"<\s*(?:script|html|svg|body|iframe|!doctype|\?php)", re.IGNORECASE)
# A PNG ends with its IEND chunk (its length, name and CRC).
_PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"


@dataclass(frozen=True)
class PhotoUpload:
    """A photo read and judged, ready to be stored with its entry."""

    sha256: str
    kind: str
    size: int
    width: int
    height: int
    original: bytes
    display: bytes
    item: str = ""

    def record(self) -> dict:
        """What the entry signs of it (its `details["photos"]`)."""
        return {"sha256": self.sha256, "kind": self.kind, "size": self.size, "item": self.item}


def _limits() -> dict[str, int]:
    return {
        "max_bytes": settings.PHOTO_MAX_BYTES,
        "max_pixels": settings.PHOTO_MAX_PIXELS,
        "max_count": settings.PHOTO_MAX_COUNT,
    }


def _shown_name(name: str | None) -> str:
    """The client's file name as a refusal quotes it (its last part, printable, short): never stored."""
    last = re.split(r"[\\/]", name or "")[-1]
    return "“" + "".join(c for c in last if c.isprintable())[:80] + "”"


def _trailing(data: bytes, image_format: str) -> bool:
    """Bytes after the image's end, or markup inside it: a file that is also another kind of file."""
    if _MARKUP.search(data):
        return True
    if image_format == "PNG":
        return not data.endswith(_PNG_END)
    if image_format == "JPEG":
        return not data.rstrip(b"\x00").endswith(b"\xff\xd9")
    if image_format == "WEBP":
        return int.from_bytes(data[4:8], "little") + 8 != len(data)
    return False


def _read(data: bytes) -> tuple[str | None, int | None, Image.Image | None]:
    """The image's format and pixels from its header, then the image decoded, if it is within the pixels."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            header = Image.open(io.BytesIO(data))
            image_format, pixels = header.format, header.width * header.height
            if image_format not in PHOTO_FORMATS or pixels > settings.PHOTO_MAX_PIXELS:
                return image_format, pixels, None
            header.verify()
            image = Image.open(io.BytesIO(data))
            image.load()
            return image_format, pixels, image
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as bomb:
        # Pillow's own refusal of the header names the pixels it read.
        found = re.search(r"\((\d+) pixels\)", str(bomb))
        return None, int(found.group(1)) if found else settings.PHOTO_MAX_PIXELS + 1, None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return None, None, None


def _display_copy(image: Image.Image) -> bytes:
    """The copy the pages show: upright, at most PHOTO_DISPLAY_SIDE a side, JPEG, with no metadata."""
    upright = ImageOps.exif_transpose(image)
    upright = upright.convert("RGB")
    upright.thumbnail((settings.PHOTO_DISPLAY_SIDE, settings.PHOTO_DISPLAY_SIDE))
    out = io.BytesIO()
    # A fresh image of the pixels alone: nothing of the original's EXIF, ICC or comments goes along.
    clean = Image.new("RGB", upright.size)
    clean.paste(upright)
    clean.save(out, format="JPEG", quality=85)
    return out.getvalue()


def photos_read(files: Sequence, *, item: str = "") -> list[PhotoUpload]:
    """The uploaded files (Django's UploadedFile, or any object with `read()` and `name`) read and
    judged; refused together, every refusal at once, with nothing stored."""
    limits = _limits()
    violations: list[Violation | None] = [photos_count_check(count=len(files), **limits)]
    photos: list[PhotoUpload] = []
    for upload in files:
        data = upload.read(settings.PHOTO_MAX_BYTES + 1)
        size = max(len(data), getattr(upload, "size", 0) or 0)
        image_format, pixels, image = (None, None, None) if size > settings.PHOTO_MAX_BYTES else _read(data)
        refusal = photo_check(
            name=_shown_name(getattr(upload, "name", "")),
            size=size,
            # A header read but a content that does not decode is no image of any kind.
            image_format=image_format if image is not None else None,
            pixels=pixels,
            trailing=image is not None and image_format is not None and _trailing(data, image_format),
            **limits,
        )
        violations.append(refusal)
        if refusal is None and image is not None and image_format is not None:
            photos.append(
                PhotoUpload(
                    sha256=hashlib.sha256(data).hexdigest(),
                    kind=PHOTO_FORMATS[image_format],
                    size=size,
                    width=image.width,
                    height=image.height,
                    original=data,
                    display=_display_copy(image),
                    item=item,
                )
            )
    raise_if_any(violations)
    return photos


def photos_item_check(photos: Sequence[PhotoUpload], *, checklist: list[str]) -> Violation | None:
    """The checklist item the photos name is one of the table's (an inspection's)."""
    items = {p.item for p in photos if p.item}
    for item in sorted(items):
        refusal = photo_item_check(item=item, checklist=checklist, **_limits())
        if refusal is not None:
            return refusal
    return None


@dataclass(frozen=True)
class StoredPhoto:
    """A photo judged and written: the names of its two files, and whether this entry wrote them
    (False: the property kept them already, for the same content)."""

    photo: PhotoUpload
    original: str
    display: str
    written: bool = False


def _kept_bytes(property_id: int) -> int:
    """What the property's photos take, by their originals' sizes (each attachment counted)."""
    return EntryPhoto.objects.filter(entry__property_id=property_id).aggregate(total=Sum("size"))["total"] or 0


def photos_store(photos: Sequence[PhotoUpload], *, property_id: int) -> list[StoredPhoto]:
    """Each photo's two files, one per SHA-256 in the property: those the property keeps already
    referenced again, the others written through the default storage under the names the product
    gives them (the property, the hash); refused, nothing written, beyond the property's quota.
    Call under the property's chain lock (services.entry_append)."""
    raise_if_any(
        [
            photos_quota_check(
                kept=_kept_bytes(property_id),
                added=sum(photo.size for photo in photos),
                quota=settings.PHOTO_QUOTA_BYTES,
            )
        ]
    )
    stored: list[StoredPhoto] = []
    try:
        for photo in photos:
            base = f"photos/{property_id}/{photo.sha256}"
            original, display = f"{base}.{photo.kind}", f"{base}-display.jpg"
            if default_storage.exists(original) and default_storage.exists(display):
                stored.append(StoredPhoto(photo, original, display))
                continue
            # Written as one pair: a pair half written (an earlier failure) is written again whole.
            for name in (original, display):
                default_storage.delete(name)
            original = default_storage.save(original, ContentFile(photo.original))
            stored.append(StoredPhoto(photo, original, "", written=True))
            display = default_storage.save(display, ContentFile(photo.display))
            stored[-1] = StoredPhoto(photo, original, display, written=True)
    except BaseException:
        photos_unwritten(stored)
        raise
    return stored


def photos_unwritten(stored: Sequence[StoredPhoto]) -> None:
    """The files an entry refused after all had written, removed (those kept before stay)."""
    for photo in stored:
        if photo.written:
            for name in (photo.original, photo.display):
                if name:
                    default_storage.delete(name)


def photo_rows(entry: Entry, stored: Sequence[StoredPhoto]) -> list[EntryPhoto]:
    """The entry's photo rows (not saved: services.entry_append writes them with the entry)."""
    return [
        EntryPhoto(
            entry=entry,
            position=position,
            sha256=s.photo.sha256,
            kind=s.photo.kind,
            size=s.photo.size,
            width=s.photo.width,
            height=s.photo.height,
            item=s.photo.item,
            original=s.original,
            display=s.display,
        )
        for position, s in enumerate(stored, start=1)
    ]


def photo_response(photo: EntryPhoto) -> FileResponse:
    """The photo's display copy (never the original), for one who may see its entry (the caller
    found the entry among those the person may see): like every uploaded file, an attachment (an
    <img> shows it all the same), never sniffed, sandboxed, not cached."""
    if not photo.display:
        raise Http404("No such photo.")
    filename = f"entry-{photo.entry_id}-photo-{photo.position}.jpg"
    response = FileResponse(photo.display.open("rb"), content_type="image/jpeg", filename=filename)
    uploaded_file_headers(response, filename=filename)
    return response
