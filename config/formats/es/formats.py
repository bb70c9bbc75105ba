"""The same format in Spanish (config/formats/en/formats.py): no month names, nothing to translate.
A form's input writes ISO (first) and still reads a date typed the Spanish way (day/month/year)."""

from config.formats.en.formats import (  # noqa: F401
    DATE_FORMAT,
    DATETIME_FORMAT,
    ISO_DATE_INPUT_FORMATS,
    ISO_DATETIME_INPUT_FORMATS,
    MONTH_DAY_FORMAT,
    SHORT_DATE_FORMAT,
    SHORT_DATETIME_FORMAT,
    TIME_FORMAT,
    TIME_INPUT_FORMATS,
    YEAR_MONTH_FORMAT,
)

DATE_INPUT_FORMATS = [*ISO_DATE_INPUT_FORMATS, "%d/%m/%Y", "%d/%m/%y"]
DATETIME_INPUT_FORMATS = [*ISO_DATETIME_INPUT_FORMATS, "%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M"]
