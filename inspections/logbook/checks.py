"""`manage.py check --deploy`: production signs its logbook and its reports, with keys and a ledger
only the application can read, and trusts only its own timestamp authority."""

import json
import stat
from pathlib import Path

from django.conf import settings
from django.core.checks import Tags, Warning, register

from inspections.logbook.ledger import ledger_path


@register(Tags.security, deploy=True)
def signing_configured(app_configs, **kwargs) -> list[Warning]:
    found = []
    if not settings.LOGBOOK_CHECKPOINT_KEYRING:
        found.append(
            Warning(
                "No checkpoint key ring: the logbook's chain is not signed, and a rewritten history can go unseen.",
                hint="Make one with `manage.py checkpoint_key_rotate --keyring PATH` and set LOGBOOK_CHECKPOINT_KEYRING.",
                id="logbook.W001",
            )
        )
    if not settings.LOGBOOK_REPORT_SIGNING_KEY:
        found.append(
            Warning(
                "No report signing key and certificate: PDF reports are not signed.",
                hint="Set LOGBOOK_REPORT_SIGNING_KEY and LOGBOOK_REPORT_SIGNING_CERT (docs/operations.md).",
                id="logbook.W002",
            )
        )
    if not settings.LOGBOOK_TSA_URL:
        found.append(
            Warning(
                "No timestamp authority (LOGBOOK_TSA_URL): checkpoints and reports carry only the server's own "
                "clock, and a report cannot be validated once its certificate expires (no PAdES B-LTA).",
                hint="Set LOGBOOK_TSA_URL to an RFC 3161 authority and LOGBOOK_TSA_CERTIFICATES to its "
                "certificate (docs/operations.md).",
                id="logbook.W006",
            )
        )
    return found


@register(Tags.security, deploy=True)
def signing_kept_apart(app_configs, **kwargs) -> list[Warning]:
    """Issue 32: the timestamp authority trusted without its certificates, a private key others may
    read, and the key ring or the signer's ledger where the web server hands out files."""
    found = []
    if settings.LOGBOOK_TSA_URL and not settings.LOGBOOK_TSA_CERTIFICATES:
        found.append(
            Warning(
                "A timestamp authority is set (LOGBOOK_TSA_URL) without its certificates: a token signed by any "
                "authority is trusted.",
                hint="Set LOGBOOK_TSA_CERTIFICATES to the authority's certificate or its CA's (PEM).",
                id="logbook.W003",
            )
        )
    for path in _private_key_files():
        if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            found.append(
                Warning(
                    f"The signing key file {path} may be read by other users of the machine.",
                    hint=f"chmod 600 {path} (owned by the user the web and workers run as).",
                    id="logbook.W004",
                )
            )
    media = Path(settings.MEDIA_ROOT).resolve()
    kept: list[tuple[str, Path | None]] = [
        ("key ring", Path(settings.LOGBOOK_CHECKPOINT_KEYRING) if settings.LOGBOOK_CHECKPOINT_KEYRING else None),
        ("signer's ledger", ledger_path()),
    ]
    for name, where in kept:
        if where is not None and where.resolve().is_relative_to(media):
            found.append(
                Warning(
                    f"The checkpoint {name} {where} is under MEDIA_ROOT ({media}), where people's files are kept.",
                    hint="Keep the key ring and its ledger in a directory of their own, outside MEDIA_ROOT and "
                    "the database's backups (docs/operations.md).",
                    id="logbook.W005",
                )
            )
    return found


def _private_key_files() -> list[Path]:
    """The files holding a private signing key: the checkpoint keys that still sign, the report's key."""
    files = []
    if settings.LOGBOOK_CHECKPOINT_KEYRING:
        ring = Path(settings.LOGBOOK_CHECKPOINT_KEYRING)
        try:
            entries = json.loads(ring.read_text(encoding="utf-8"))["keys"]
        except (OSError, ValueError, KeyError, TypeError):
            entries = []  # an unusable ring already stops the start (settings)
        files += [ring.parent / entry["file"] for entry in entries if isinstance(entry, dict) and "file" in entry]
    if settings.LOGBOOK_REPORT_SIGNING_KEY:
        files.append(Path(settings.LOGBOOK_REPORT_SIGNING_KEY))
    return [path for path in files if path.is_file() and b"PRIVATE KEY" in path.read_bytes()]
