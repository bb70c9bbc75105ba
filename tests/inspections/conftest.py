"""The report tests' shared fixtures (tests/reporting.py), for every test of this folder."""

from tests.reporting import history, media  # noqa: F401 - fixtures
