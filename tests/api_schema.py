"""The API as its OpenAPI schema describes it, for tests that must cover every endpoint, every
field and every filter: a new one is covered the day it is added."""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer

WRITE_METHODS = ("post", "put", "patch")


@functools.cache
def api_schema() -> dict:
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True)))


def _resolve(node: dict) -> dict:
    components = api_schema()["components"]["schemas"]
    while True:
        if "$ref" in node:
            node = components[node["$ref"].rsplit("/", 1)[-1]]
        elif len(node.get("allOf", [])) == 1:
            node = node["allOf"][0]
        else:
            return node


@dataclass(frozen=True)
class BodyField:
    """A value a request body carries: its dotted path (as the API's errors name it) and schema."""

    path: str
    schema: dict

    @property
    def type(self) -> str | None:
        return self.schema.get("type")

    @property
    def free_string(self) -> bool:
        """A string a person types (not one of a list, a date, a number or a password)."""
        return (
            self.type == "string"
            and "enum" not in self.schema
            and self.schema.get("format") in (None, "email")
            and self.path.rsplit(".", 1)[-1] != "password"
        )


def _fields(node: dict, prefix: str = "") -> Iterator[BodyField]:
    node = _resolve(node)
    if "properties" in node:
        for name, child in node["properties"].items():
            if not _resolve(child).get("readOnly") and not child.get("readOnly"):
                yield from _fields(child, f"{prefix}{name}.")
    elif node.get("type") == "array":
        yield from _fields(node.get("items", {}), f"{prefix}0.")
    elif prefix:
        yield BodyField(prefix[:-1], node)


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    spec: dict

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def body_fields(self) -> list[BodyField]:
        content = self.spec.get("requestBody", {}).get("content", {}).get("application/json")
        return list(_fields(content["schema"])) if content else []

    @property
    def query_parameters(self) -> list[dict]:
        return [p for p in self.spec.get("parameters", []) if p["in"] == "query"]

    def url(self, ids: dict[str, int]) -> str:
        """The address, {id} filled with the id of a fitting object (by the path's first word)."""
        if "{id}" not in self.path:
            return self.path
        return self.path.replace("{id}", str(ids[self.path.split("/")[2]]))


def operations(methods: tuple[str, ...]) -> list[Operation]:
    return [
        Operation(method, path, spec)
        for path, item in api_schema()["paths"].items()
        for method, spec in item.items()
        if method in methods
    ]


def body_with(fields: dict[str, object]) -> dict:
    """A JSON body with the given values at their dotted paths ("signature.username", "features.0")."""
    body: dict = {}
    for path, value in fields.items():
        node: dict | list = body
        parts = path.split(".")
        for part, following in itertools.pairwise(parts):
            child = [] if following.isdigit() else {}
            if isinstance(node, list):
                if not node:
                    node.append(child)
                node = node[0]
            else:
                node = node.setdefault(part, child)
        if isinstance(node, list):
            node.append(value)
        else:
            node[parts[-1]] = value
    return body
