"""gunicorn's settings for `make serve`: its own lines (start, workers, errors) in the application's
format (LOG_FORMAT: JSON in production). Each request is logged once, by the application
(logger logbook.request, with who and how long), so gunicorn's access log is off."""

from config.settings import LOGGING

logconfig_dict = {
    **LOGGING,
    "loggers": {
        **LOGGING["loggers"],
        "gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
    },
}

# gunicorn's control socket (for gunicornc) is not used here, and every gunicorn of a machine would
# share the one in the home directory.
control_socket_disable = True
