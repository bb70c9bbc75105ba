"""bench/post_profile.py's settings: the benchmark's, with the password hash taken out (MD5, as the
tests use) so that what is left of a signed POST is the logbook's own work. Never used by `make bench`'s
HTTP runs (bench/run.py), which keep the real hasher."""

from bench.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
