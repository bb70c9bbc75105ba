"""Django's own rendering of a date or time (a plain `{{ value }}`, the admin's read-only fields) in
the logbook's one format (compliance.rulebook.words), in the active zone, named; the same in every
language (config/formats/es/). Typed input keeps Django's formats (ISO first)."""

DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i T"
TIME_FORMAT = "H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
YEAR_MONTH_FORMAT = "Y-m"  # the admin's date drill-down
MONTH_DAY_FORMAT = "m-d"
