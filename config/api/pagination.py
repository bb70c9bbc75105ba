"""The API's pagination: page numbers with a count by default; keyset pages for the long time-ordered
lists (the register), unless the client asks for a count (docs/api.md, "Pagination")."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from datetime import datetime

from django.core.paginator import InvalidPage
from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_datetime
from rest_framework import pagination
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param


class PageNumberPagination(pagination.PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


TRUE = ("1", "true", "yes")


class KeysetPagination(PageNumberPagination):
    """Keyset pages over a list in a fixed order (`ordering`: unique; "-" for a descending name), with no COUNT and
    no OFFSET: a page is the rows after (or before) the position a `cursor` names, so the first page
    and the ten-thousandth cost the same. `{"next", "previous", "results"}`; `next` is null on the
    last page, `previous` on the first.

    A client that sends `page` or `count=true` gets the page-number form instead, with its `count`.

    The view gives `rows`: the page's queryset (ordered, sliced) → the list it answers with.
    """

    cursor_query_param = "cursor"
    count_query_param = "count"
    ordering: Sequence[str] = ()
    invalid_cursor_message = "Invalid cursor: use the `next` or `previous` link of a page."

    def paginate_queryset(self, queryset: QuerySet, request, view=None):
        self.request = request
        rows: Callable[[QuerySet], list] = view.rows
        self.keyset = not (
            self.page_query_param in request.query_params
            or request.query_params.get(self.count_query_param, "").lower() in TRUE
        )
        size = self.get_page_size(request)
        self.model = queryset.model
        if not self.keyset:
            return rows(self._numbered(queryset, request, size))
        position = self._cursor(request, queryset)
        forward = position is None or position[0] == "next"
        ordered = queryset.order_by(*(self.ordering if forward else [_flip(name) for name in self.ordering]))
        if position is not None:
            ordered = ordered.filter(self._beyond(position[1], forward))
        page = rows(ordered[: size + 1])
        more = len(page) > size
        page = page[:size]
        if not forward:
            page.reverse()
        self.next_key = self._key(page[-1]) if page and (more or not forward) else None
        self.previous_key = self._key(page[0]) if page and position is not None and (more or forward) else None
        return page

    def _numbered(self, queryset: QuerySet, request, size: int) -> QuerySet:
        """DRF's page-number pagination, giving the page's queryset (not its evaluated objects)."""
        paginator = self.django_paginator_class(queryset.order_by(*self.ordering), size)
        number = self.get_page_number(request, paginator)
        try:
            self.page = paginator.page(number)
        except InvalidPage as error:
            raise NotFound(self.invalid_page_message.format(page_number=number, message=str(error))) from error
        return self.page.object_list

    def get_paginated_response(self, data):
        if not self.keyset:
            return super().get_paginated_response(data)
        return Response(
            {
                "next": self._link(self.next_key, "next"),
                "previous": self._link(self.previous_key, "previous"),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema):
        numbered = super().get_paginated_response_schema(schema)
        numbered["properties"]["count"]["description"] = "Only with `count=true` or `page`."
        return numbered

    def get_schema_operation_parameters(self, view):
        return [
            *super().get_schema_operation_parameters(view),
            {
                "name": self.cursor_query_param,
                "required": False,
                "in": "query",
                "description": "A position in the list, from a page's `next` or `previous` link.",
                "schema": {"type": "string"},
            },
            {
                "name": self.count_query_param,
                "required": False,
                "in": "query",
                "description": "`true`: numbered pages with the list's `count` (slower on a long list).",
                "schema": {"type": "boolean"},
            },
        ]

    # --- the cursor: the ordering's values of a row, as opaque text ---------------------------

    def _key(self, row) -> list:
        names = [name.lstrip("-") for name in self.ordering]
        meta = self.model._meta
        values = [row[name] if isinstance(row, dict) else getattr(row, meta.get_field(name).attname) for name in names]
        return [value.isoformat() if isinstance(value, datetime) else value for value in values]

    def _link(self, key: list | None, direction: str) -> str | None:
        if key is None:
            return None
        token = base64.urlsafe_b64encode(json.dumps([direction, key]).encode()).decode().rstrip("=")
        url = remove_query_param(self.request.build_absolute_uri(), self.page_query_param)
        return replace_query_param(url, self.cursor_query_param, token)

    def _cursor(self, request, queryset: QuerySet) -> tuple[str, list] | None:
        token = request.query_params.get(self.cursor_query_param)
        if token is None:
            return None
        try:
            direction, key = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
            if direction not in ("next", "previous") or len(key) != len(self.ordering):
                raise ValueError
            values = []
            for name, value in zip(self.ordering, key, strict=True):
                kind = self._field(queryset, name).get_internal_type()
                if kind == "DateTimeField":
                    if not isinstance(value, str):
                        raise ValueError
                    moment = parse_datetime(value)
                    if moment is None or moment.tzinfo is None:
                        raise ValueError
                    values.append(moment)
                elif kind == "CharField":
                    if not isinstance(value, str) or "\x00" in value:
                        raise ValueError
                    values.append(value)
                elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63:
                    values.append(value)
                else:
                    raise ValueError
        except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
            raise NotFound(self.invalid_cursor_message) from None
        return direction, values

    def _beyond(self, key: list, forward: bool) -> Q:
        """The rows after `key` in the ordering (before it, backwards): (a, b, c) > (x, y, z) written
        out (< for a descending name), with `a >= x` beside it so that an index on the ordering
        starts its range there."""

        def after(name: str, *, equal: bool = False) -> str:
            smaller = name.startswith("-") == forward  # descending forwards, or ascending backwards
            return f"{name.lstrip('-')}__{'lt' if smaller else 'gt'}{'e' if equal else ''}"

        names = list(self.ordering)
        beyond = Q(**{after(names[-1]): key[-1]})
        for name, value in zip(names[-2::-1], key[-2::-1], strict=True):
            beyond = Q(**{after(name): value}) | (Q(**{name.lstrip("-"): value}) & beyond)
        return Q(**{after(names[0], equal=True): key[0]}) & beyond

    @staticmethod
    def _field(queryset: QuerySet, name: str):
        return queryset.model._meta.get_field(name.lstrip("-"))


class KeysetListMixin:
    """A list view paginated by KeysetPagination: the page's model instances (`rows`), then serialized."""

    def rows(self, queryset: QuerySet) -> list:
        return list(queryset)

    def list(self, request, *args, **kwargs):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))  # type: ignore[attr-defined]
        return self.get_paginated_response(self.get_serializer(page, many=True).data)  # type: ignore[attr-defined]


def keyset_pagination(*ordering: str) -> type[KeysetPagination]:
    """A KeysetPagination in this order (unique; "-" for a descending name)."""
    return type("KeysetPagination", (KeysetPagination,), {"ordering": ordering})


def _flip(name: str) -> str:
    return name[1:] if name.startswith("-") else f"-{name}"
