"""Test settings: the project's own, with a fast password hasher (benchmarks and production never)."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# No collected static files in tests: whitenoise serves nothing and need not look for them.
STATIC_ROOT = None

# A file, not SQLite's shared in-memory database, so that threads in the concurrency tests get
# connections of their own and queue on the write lock as they would in production.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / "test-db.sqlite3")}  # noqa: F405
    (BASE_DIR / "var").mkdir(exist_ok=True)  # noqa: F405
