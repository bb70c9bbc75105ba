"""Fuzzing the API from its own OpenAPI schema (schemathesis), signed in as a compliance manager:
no answer is ever a 5xx, and every 400 is in docs/api.md's format, each error with code, message,
citation and field. A bounded pass (FUZZ_EXAMPLES per operation) runs in CI."""

import json
import os

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from knox.models import AuthToken

from config.wsgi import application

EXAMPLES = int(os.getenv("FUZZ_EXAMPLES", "6"))
CASES = {"run": 0, "by_status": {}}


# The schema /api/schema/ serves, made by the same generator at collection. Not fetched from the view:
# like every API view it is throttled, and the throttle's counts live in the database.
schema = schemathesis.openapi.from_dict(
    json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))
)
schema.app = application


@pytest.fixture(autouse=True)
def _requests_keep_the_test_transaction(db):
    """As Django's test client does: a request made inside the test's transaction must not close
    its database connection when it finishes."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def token(casino):
    return AuthToken.objects.create(user=casino.compliance)[1]


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same cases on every run: a failure in CI reproduces here
    suppress_health_check=list(HealthCheck),
)
def test_the_api_never_fails_and_refuses_in_the_agreed_format(case, token):
    response = case.call(headers={"Authorization": f"Token {token}"})
    CASES["run"] += 1
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:500]}"
    )
    if response.status_code == 400:
        body = response.json()
        assert set(body) == {"errors"} and body["errors"], body
        for error in body["errors"]:
            assert set(error) == {"code", "message", "citation", "field"}, error
            assert isinstance(error["code"], str) and error["message"], error
