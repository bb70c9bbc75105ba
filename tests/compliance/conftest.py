import pytest

from tests.support.people import bare_casino_staff


@pytest.fixture
def casino(db):
    """The approvals tests start from a property with nothing registered, filed or approved."""
    return bare_casino_staff("Keystone Casino")


@pytest.fixture
def other_casino(db):
    return bare_casino_staff("Other Casino")
