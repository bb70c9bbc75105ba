"""The REST API as a test calls it: a signed-in client, a signature in a body, and the check of a
refusal in docs/api.md's error format."""

from rest_framework.test import APIClient

from tests.factories import PASSWORD


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def signature(user, password=PASSWORD) -> dict:
    return {"username": user.username, "password": password}


def assert_refused(response, code: str, citation: str | None = None, field: str | None = "unset"):
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert all(set(e) == {"code", "message", "citation", "field"} for e in errors), errors
    matching = [e for e in errors if e["code"] == code]
    assert matching, errors
    assert matching[0]["citation"] == citation
    if field != "unset":
        assert matching[0]["field"] == field
    return errors
