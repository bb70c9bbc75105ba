"""The same format in Spanish (config/formats/en/formats.py): no month names, nothing to translate."""

from config.formats.en.formats import (  # noqa: F401
    DATE_FORMAT,
    DATETIME_FORMAT,
    MONTH_DAY_FORMAT,
    SHORT_DATE_FORMAT,
    SHORT_DATETIME_FORMAT,
    TIME_FORMAT,
    YEAR_MONTH_FORMAT,
)
