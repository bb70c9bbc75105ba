"""Compiles each catalogue (locale/<language>/LC_MESSAGES/django.po) into its .mo with polib, in pure
Python: GNU gettext's msgfmt (which Django's compilemessages needs) is not on every machine. The .mo
is committed beside its .po; tests/test_i18n.py fails when it no longer matches it.

    .venv/bin/python scripts/compile_messages.py    (make messages runs it)
"""

from __future__ import annotations

import sys
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def compile_all(locale: Path = LOCALE) -> list[Path]:
    """Writes every catalogue's .mo (only its translated entries, never a fuzzy one); returns them."""
    written = []
    for po_path in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"wrote {path.relative_to(LOCALE.parent)}")
    sys.exit(0)
