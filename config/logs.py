"""Logging for the web processes, the Celery workers and gunicorn alike: one JSON object per line in
production (LOG_FORMAT=json, the default with DEBUG off), plain lines on a developer's console."""

from __future__ import annotations

JSON_FORMATTER = {
    "()": "pythonjsonlogger.json.JsonFormatter",
    "fmt": ["levelname", "name", "message"],
    "rename_fields": {"levelname": "level", "name": "logger"},
    "timestamp": "time",  # ISO 8601, UTC
}
TEXT_FORMATTER = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}


def logging_config(*, fmt: str, level: str, quiet: dict[str, str] | None = None) -> dict:
    """A dictConfig with every record on standard error, in `fmt` ("json" or "text")."""
    if fmt not in ("json", "text"):
        raise ValueError(f"LOG_FORMAT must be json or text, not {fmt!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": JSON_FORMATTER if fmt == "json" else TEXT_FORMATTER},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "default"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {name: {"level": value} for name, value in (quiet or {}).items()},
    }
