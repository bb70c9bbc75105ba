"""Test settings: the project's own, with a fast password hasher (benchmarks and production never)."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# No collected static files in tests: whitenoise serves nothing and need not look for them.
STATIC_ROOT = None
