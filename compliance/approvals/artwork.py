"""A layout's artwork served: never as a public media file, only to those who may see the layout
(the caller found it through layouts_visible_to), inline, with its own media type; and the demo's."""

from __future__ import annotations

import struct
import zlib

from django.http import FileResponse, Http404

from compliance.approvals.models import LayoutSubmission
from compliance.rulebook.artwork import artwork_media_type


def artwork_response(layout: LayoutSubmission) -> FileResponse:
    if not layout.artwork:
        raise Http404("This layout was submitted without artwork.")
    response = FileResponse(
        layout.artwork.open("rb"),
        content_type=artwork_media_type(layout.artwork_kind),
        filename=f"layout-{layout.pk}-artwork.{layout.artwork_kind}",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


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
