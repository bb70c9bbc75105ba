import pytest

# The shared helpers' assertions explain themselves in a failure, as a test module's do: registered
# here, the package's first import, before tests/conftest.py imports any of them.
pytest.register_assert_rewrite("tests.support")
