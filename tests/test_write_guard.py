"""The guard of tests/write_guard.py catches a write around a service, and lets a service's through."""

import pytest

from compliance.casinos.models import Property
from tests import write_guard

WRITE = "def write():\n    return Property.objects.create(name='Probe', licence_number='PROBE-1', jurisdiction='PA')\n"


def _function_in(module_name: str):
    namespace = {"__name__": module_name, "Property": Property}
    exec(compile(WRITE, f"<{module_name}>", "exec"), namespace)
    return namespace["write"]


@pytest.mark.django_db
def test_a_view_that_writes_a_model_itself_is_caught():
    before = len(write_guard.bypasses)
    _function_in("compliance.casinos.views_probe")()
    found = write_guard.bypasses[before:]
    del write_guard.bypasses[before:]  # caught on purpose: this test's own teardown must not fail on it
    assert [str(b) for b in found] == [
        "Property.save from compliance.casinos.views_probe:write (line 2), not through a service"
    ]


@pytest.mark.django_db
def test_a_service_that_writes_its_model_passes():
    before = len(write_guard.bypasses)
    _function_in("compliance.casinos.services")()
    assert write_guard.bypasses[before:] == []
