"""How every file a person uploaded is served (a layout's artwork, an entry's photo): issue 32 item 4."""

from __future__ import annotations

from django.http.response import HttpResponseBase


def uploaded_file_headers(response: HttpResponseBase, *, filename: str) -> None:
    """What every file a person uploaded is served with: a download (never shown inline from the
    application's origin), sandboxed (no script of it runs with the origin's rights, were it opened),
    never sniffed into another type, never cached."""
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Content-Security-Policy"] = "sandbox; default-src 'none'"
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
