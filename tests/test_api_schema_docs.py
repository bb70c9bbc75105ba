"""docs/api.md agrees with the OpenAPI schema (issue 34, item 6): the page is written by hand to stay
readable, so this test holds it to the schema drf-spectacular generates from the serializers.

- Every endpoint the page declares ("`/api/…/` — GET, POST") exists in the schema with those
  methods, and every operation of the schema is declared on the page: a new route, method or
  action fails here until the page says it exists.
- Every request the page shows or names ("POST /api/amendments/") is an operation of the schema.
- In each resource's section, every field its tables name is a field of the resource (its answer or
  its request body), and every field of the resource is named there: a renamed, added or removed
  serializer field fails here until the page follows.
"""

from __future__ import annotations

import pprint
import re

import pytest
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator

from tests.servers import ROOT

API_MD = ROOT / "docs" / "api.md"
METHODS = ("GET", "POST", "PATCH", "PUT", "DELETE")
# "`/api/properties/` — GET, POST · `/api/properties/{id}/` — GET, PATCH"
DECLARED = re.compile(r"`(/api/[^`\s]*)` — ((?:GET|POST|PATCH|PUT|DELETE)(?:, (?:GET|POST|PATCH|PUT|DELETE))*)")
# "POST /api/amendments/" in prose, in a code span or as an example's request line.
NAMED = re.compile(r"(?<![\w/])(GET|POST|PATCH|PUT|DELETE) (/api/[^\s`?\"']*)")
# The first cell of a row of a field table: "| `a`, `b` (part) | …".
FIELD_CELL = re.compile(r"^\| ([^|]*) \|")
# The fields every logbook entry shares are documented once, in their own section.
SHARED_ENTRY_SECTION = "Logbook entries: the fields they share"
PHOTOS_SECTION = "Photos on an entry"
# What the page names that the schema does not describe: the API's root and the schema itself.
OUTSIDE_THE_SCHEMA = {("GET", "/api/"), ("GET", "/api/schema/")}
ENTRY_RESOURCES = ("inspections", "adjustments", "irregularities", "deck-changes", "amendments")


def template(path: str) -> str:
    """A path with its parameters, named or given as ids, made one shape: /api/tables/{}/open/."""
    return re.sub(r"/(\{[^}]*\}|\d+)(?=/)", "/{}", path.split("?")[0])


@pytest.fixture(scope="module")
def schema() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema: dict) -> set[tuple[str, str]]:
    return {
        (method.upper(), template(path))
        for path, ops in schema["paths"].items()
        for method in ops
        if method.upper() in METHODS
    }


def declared(text: str) -> set[tuple[str, str]]:
    text = re.sub(r" ·\n", " · ", text)  # a declaration may wrap after its separator
    return {(method, template(path)) for path, methods in DECLARED.findall(text) for method in methods.split(", ")}


def sections(text: str) -> dict[str, str]:
    """The resource half of the page, by its level-2 headings (each with its level-3 subsections)."""
    resources = text.split("\n# Resources\n", 1)[1]
    parts = re.split(r"^## (.+)$", resources, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def fields_named(section: str) -> set[str]:
    """The field names in the first column of the section's field tables ("| field | …")."""
    names: set[str] = set()
    in_table = False
    for line in section.splitlines():
        if line.startswith("| field |"):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        cell = FIELD_CELL.match(line)
        if in_table and cell and not cell.group(1).startswith("---"):
            first = cell.group(1)
            if "(part)" in first:  # a multipart part, not a field of the JSON body
                continue
            names.update(re.findall(r"`([a-z_][a-z0-9_]*)`", first))
    return names


def _component(schema: dict, node: dict | None) -> set[str]:
    if not node:
        return set()
    if "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if node.get("type") == "array":
        return _component(schema, node["items"])
    properties = node.get("properties", {})
    if set(properties) >= {"results", "next", "previous"}:  # a page of the list
        return _component(schema, properties["results"])
    return set(properties)


def resource_fields(schema: dict, paths: set[tuple[str, str]]) -> set[str]:
    """The top-level fields of the JSON answers and request bodies of these operations."""
    found: set[str] = set()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            if (method.upper(), template(path)) not in paths:
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            found |= _component(schema, body and body["schema"])
            for answer in op.get("responses", {}).values():
                found |= _component(schema, answer.get("content", {}).get("application/json", {}).get("schema"))
    return found


def test_every_endpoint_declared_exists_and_every_endpoint_is_declared(schema):
    text = API_MD.read_text(encoding="utf-8")
    page, actual = declared(text), operations(schema)
    assert sorted(page - actual) == [], "declared on docs/api.md, not in the schema"
    assert sorted(actual - page) == [], "in the schema, not declared on docs/api.md"


def test_every_request_the_page_names_is_an_operation_of_the_schema(schema):
    text = API_MD.read_text(encoding="utf-8")
    named = {(method, template(path)) for method, path in NAMED.findall(text)}
    assert sorted(named - operations(schema) - OUTSIDE_THE_SCHEMA) == []
    for _, path in OUTSIDE_THE_SCHEMA:
        resolve(path)  # still routed


def test_each_resource_section_names_its_fields_and_only_them(schema):
    parts = sections(API_MD.read_text(encoding="utf-8"))
    shared, photos = fields_named(parts[SHARED_ENTRY_SECTION]), fields_named(parts[PHOTOS_SECTION])
    drift, entry_fields = {}, set()
    for heading, text in parts.items():
        # A file (a photo, a PDF) answers no fields: its section describes the resource it belongs to.
        paths = {op for op in declared(text) if resource_fields(schema, {op})}
        if not paths:
            continue
        page = covered = fields_named(text)
        actual = resource_fields(schema, paths)
        if any(path.startswith(f"/api/{name}/") for _, path in paths for name in ENTRY_RESOURCES):
            # Every entry has the shared fields; the photo fields are on the entries that take photos.
            covered = page | shared | photos
            entry_fields |= actual
            if shared - actual:
                drift[heading + ": shared"] = {"named, not in the schema": sorted(shared - actual)}
        unknown, missing = sorted(page - actual), sorted(actual - covered)
        if unknown or missing:
            drift[heading] = {"named, not in the schema": unknown, "in the schema, not named": missing}
    if photos - entry_fields:
        drift[PHOTOS_SECTION] = {"named, not in the schema": sorted(photos - entry_fields)}
    assert drift == {}, pprint.pformat(drift)
