"""Settings of the benchmark: the project's own, plus the `bench` app and its baseline endpoint.

Everything the project reads from the environment still applies (DATABASE_URL above all; bench/run.py
points it at a bench_* database). What differs is only what a benchmark needs:
- DEBUG off, so Django does not keep every query in memory; a fixed SECRET_KEY, so that needs no setup;
- persistent database connections, as a production deployment would have (DB_CONN_MAX_AGE overrides);
- the project's password hashers (Argon2), untouched: a signature's password check is part of what is measured;
- the API's per-person throttle rate above what the clients send (see below).
"""

import os

# config.settings refuses to start without a SECRET_KEY when DEBUG is off in the environment.
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-never-used-outside-bench")

from config.settings import *  # noqa: F403
from config.settings import ALLOWED_HOSTS, DATABASES, INSTALLED_APPS, REST_FRAMEWORK, envint

DEBUG = False
SECRET_KEY = "bench-only-secret-key-never-used-outside-bench"
ALLOWED_HOSTS = [*ALLOWED_HOSTS, "127.0.0.1", "localhost"]
INSTALLED_APPS = [*INSTALLED_APPS, "bench"]
ROOT_URLCONF = "bench.urls"

DATABASES["default"]["CONN_MAX_AGE"] = envint("DB_CONN_MAX_AGE", "60")

# The API's throttles stay on, on both sides (a cache read and write per request is part of what is
# measured), with a per-second rate the closed-loop clients never reach: at production's 600 a minute
# per person, one client alone would be refused within seconds. DRF keeps each request's time within
# the window, so a one-second window also keeps that list as short as production's or shorter.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {**REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "user": "1000/second"},
}

# No collected static files: whitenoise need not look for them (as in tests/settings.py).
STATIC_ROOT = None

# gunicorn's workers log to the runner's pipe; one line per refused request is enough.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
}
