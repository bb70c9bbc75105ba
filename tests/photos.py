"""Real image files for the photo tests, made with Pillow in the test, and hostile ones."""

from __future__ import annotations

import io
import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image


def image_bytes(fmt: str = "JPEG", *, size=(64, 48), exif_gps: bool = False) -> bytes:
    """A real picture (a green felt with a red square) in `fmt`; a JPEG may carry a GPS position."""
    image = Image.new("RGB", size, (27, 94, 32))
    image.paste((176, 28, 28), (8, 8, 24, 24))
    out = io.BytesIO()
    if exif_gps:
        exif = Image.Exif()
        exif[0x010F] = "TabletMaker"  # Make
        exif.get_ifd(0x8825).update({1: "N", 2: (40.0, 26.0, 46.0), 3: "W", 4: (79.0, 58.0, 56.0)})
        image.save(out, format=fmt, exif=exif)
    else:
        image.save(out, format=fmt)
    return out.getvalue()


def upload(data: bytes, name: str = "photo.jpg", content_type: str = "image/jpeg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type=content_type)


def png_bomb(width: int = 20000, height: int = 20000) -> bytes:
    """A small PNG whose header claims width × height pixels (all zero, compressed to almost nothing)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    row = b"\x00" + b"\x00" * width  # 8-bit greyscale, no filter
    compressor = zlib.compressobj(9)
    body = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


SVG = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(document.cookie)</script><rect width='10' height='10'/></svg>"
)


def polyglot_appended() -> bytes:
    """A real JPEG with a page after its end: opens as an image and as HTML."""
    return image_bytes("JPEG") + b"<html><script>alert(document.cookie)</script></html>"


def polyglot_comment() -> bytes:
    """A real JPEG that carries a script inside (in a comment segment), ending as a JPEG does."""
    data = image_bytes("JPEG")
    payload = b"<script>alert(1)</script>"
    comment = b"\xff\xfe" + struct.pack(">H", len(payload) + 2) + payload
    return data[:2] + comment + data[2:]
