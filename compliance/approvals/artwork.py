"""A layout's artwork read for what the rulebook judges (an image's pixels from its header, a PDF's
active content), and served: never as a public media file, only to those who may see the layout
(the caller found it through layouts_visible_to), as an attachment under `Content-Security-Policy:
sandbox` and never sniffed, with its own media type (an <img> shows it all the same); and the demo's."""

from __future__ import annotations

import hashlib
import re
import struct
import warnings
import zlib
from dataclasses import dataclass
from typing import IO

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from PIL import Image, UnidentifiedImageError

from compliance.approvals.models import LayoutSubmission
from compliance.rulebook import Violation
from compliance.rulebook.artwork import (
    ARTWORK_HEAD_BYTES,
    PDF_ACTIVE_ACTIONS,
    PDF_ACTIVE_KEYS,
    artwork_kind,
    artwork_media_type,
    artwork_pdf_check,
    artwork_pixels_check,
)
from config.uploads import uploaded_file_headers

# A PDF of more objects than this is not walked to the end: refused as unreadable.
PDF_MAX_OBJECTS = 200_000


def artwork_response(layout: LayoutSubmission) -> FileResponse:
    if not layout.artwork:
        raise Http404("This layout was submitted without artwork.")
    if not default_storage.exists(layout.artwork.name):
        # A rejected layout's file, removed under the retention rule (services.rejected_artwork_purge).
        raise Http404("This layout's artwork was removed under the retention rule; its SHA-256 stays.")
    filename = f"layout-{layout.pk}-artwork.{layout.artwork_kind}"
    response = FileResponse(
        layout.artwork.open("rb"), content_type=artwork_media_type(layout.artwork_kind), filename=filename
    )
    uploaded_file_headers(response, filename=filename)
    return response


def image_pixels(file: IO[bytes]) -> int | None:
    """An image's pixels (width times height) from its header, nothing decoded; None when it cannot be
    read. A header past Pillow's own bomb limit is read from Pillow's refusal, which names its pixels."""
    file.seek(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(file) as header:
                return header.width * header.height
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as bomb:
        found = re.search(r"\((\d+) pixels\)", str(bomb))
        return int(found.group(1)) if found else None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return None
    finally:
        file.seek(0)


def pdf_active_content(file: IO[bytes]) -> tuple[bool, list[str]]:
    """Whether the PDF can be read (not encrypted, its objects parsed), and the names of active content
    found in any of its objects, reached from its trailer or listed in its cross-reference (an object
    no page reaches is looked at too): names are read decoded (`/J#53` is `/JS`), and objects inside
    compressed object streams are read like the others."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject

    file.seek(0)
    found: set[str] = set()
    try:
        reader = PdfReader(file, strict=False)
        if reader.is_encrypted:
            return False, []
        pending: list = [reader.trailer]
        for generation, numbers in reader.xref.items():
            pending.extend(IndirectObject(number, generation, reader) for number in numbers)
        pending.extend(IndirectObject(number, 0, reader) for number in reader.xref_objStm)
        seen: set[tuple[int, int]] = set()
        walked = 0
        while pending:
            walked += 1
            if walked > PDF_MAX_OBJECTS:
                return False, []
            item = pending.pop()
            if isinstance(item, IndirectObject):
                if (item.idnum, item.generation) in seen:
                    continue
                seen.add((item.idnum, item.generation))
                item = item.get_object()
            if isinstance(item, DictionaryObject):
                for key, value in item.items():
                    if key in PDF_ACTIVE_KEYS:
                        found.add(str(key))
                    if key == "/S" and isinstance(value, NameObject) and value in PDF_ACTIVE_ACTIONS:
                        found.add(str(value))
                    if key == "/OpenAction" and isinstance(value.get_object(), DictionaryObject):
                        found.add("/OpenAction")
                    pending.append(value)
            elif isinstance(item, ArrayObject):
                pending.extend(item)
    except Exception:
        return False, []
    finally:
        file.seek(0)
    return True, sorted(found)


def demo_artwork_png(*, width: int = 240, height: int = 100) -> bytes:
    """A small generated picture of a Roulette layout (green felt, a zero column, a grid of numbers'
    boxes), for the demo and the tests: a real PNG, made without an imaging library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    felt, zero, red, black, line = b"\x1b\x5e\x20", b"\x2e\x8b\x57", b"\xb0\x1c\x1c", b"\x11\x11\x11", b"\xee\xee\xee"
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")  # no filter
        for x in range(width):
            if x < 20 or y >= 90 or y < 10:
                row += zero if x < 20 and 10 <= y < 90 else felt
            elif (x - 20) % 18 == 0 or (y - 10) % 27 == 0:
                row += line
            else:
                row += red if ((x - 20) // 18 + (y - 10) // 27) % 2 == 0 else black
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


@dataclass(frozen=True)
class Artwork:
    """A layout's artwork as read once: its kind by its first bytes, its size and its SHA-256."""

    file: File | None
    head: bytes | None
    size: int
    sha256: str
    kind: str | None


def artwork_read(upload: File | None) -> Artwork:
    """Read the uploaded artwork once, in chunks (never whole in memory), for its head and hash."""
    if upload is None:
        return Artwork(None, None, 0, "", None)
    digest, head, size = hashlib.sha256(), b"", 0
    upload.seek(0)
    for chunk in upload.chunks():
        if len(head) < ARTWORK_HEAD_BYTES:
            head += chunk[: ARTWORK_HEAD_BYTES - len(head)]
        digest.update(chunk)
        size += len(chunk)
    upload.seek(0)
    return Artwork(upload, head, size, digest.hexdigest(), artwork_kind(head))


def artwork_content_check(picture: Artwork) -> Violation | None:
    """What the artwork holds: a picture within the pixels (its header read, nothing decoded), a PDF
    that can be read with no active content."""
    if picture.file is None or picture.kind is None:
        return None
    if picture.kind == "pdf":
        readable, active = pdf_active_content(picture.file)
        return artwork_pdf_check(readable=readable, active=active)
    return artwork_pixels_check(pixels=image_pixels(picture.file), max_pixels=settings.LAYOUT_ARTWORK_MAX_PIXELS)


def artwork_name(*, property_id: int, picture: Artwork) -> str:
    """The one name a property's artwork of this content is stored under: its SHA-256."""
    return f"layouts/{property_id}/{picture.sha256}.{picture.kind}"
