"""Django's own rendering of a date or time (a plain `{{ value }}`, the admin's read-only fields) in
the logbook's one format (compliance.rulebook.words), in the active zone, named; the same in every
language (config/formats/es/).

A date, a date and time, or a time written into a form's input is ISO in every language, first of
the *_INPUT_FORMATS (Django writes a field's value with the first): a browser's
`<input type="date">` reads only ISO, and drops anything else (issue 30; tests/test_input_dates.py).
The other forms listed are still read when typed."""

DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i T"
TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
YEAR_MONTH_FORMAT = "Y-m"  # the admin's date drill-down
MONTH_DAY_FORMAT = "m-d"

ISO_DATE_INPUT_FORMATS = ["%Y-%m-%d"]
ISO_DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"]
TIME_INPUT_FORMATS = ["%H:%M:%S", "%H:%M"]

DATE_INPUT_FORMATS = [*ISO_DATE_INPUT_FORMATS, "%m/%d/%Y", "%m/%d/%y"]
DATETIME_INPUT_FORMATS = [*ISO_DATETIME_INPUT_FORMATS, "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %H:%M"]
