"""The API's request parsers: DRF's, with a bound on what a request may make the server hold.

Django's DATA_UPLOAD_MAX_MEMORY_SIZE binds its own forms only: DRF reads the body itself, so
without these a request of any size was read whole, and JSON nested a thousand deep was a 500.
"""

from __future__ import annotations

import io
import json

from django.conf import settings
from django.utils.datastructures import MultiValueDict
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"


def _too_large(limit: int | None = None) -> RequestTooLarge:
    limit = limit or settings.API_MAX_BODY_BYTES
    return RequestTooLarge(f"The request is larger than the logbook accepts ({limit // 1024:,} KB at most).")


def _declared_length(parser_context) -> int:
    request = (parser_context or {}).get("request")
    meta = getattr(request, "META", {})
    try:
        return int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def nesting_depth(value) -> int:
    """How deep lists and objects go in a parsed JSON value (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


class BodyLimitMixin:
    def limit(self) -> int:
        return settings.API_MAX_BODY_BYTES

    def parse(self, stream, media_type=None, parser_context=None):
        if _declared_length(parser_context) > self.limit():
            raise _too_large(self.limit())
        return super().parse(stream, media_type, parser_context)


class JSONParser(parsers.JSONParser):
    """JSON of at most API_MAX_BODY_BYTES, nested at most API_MAX_JSON_DEPTH deep (else 413, 400)."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.API_MAX_BODY_BYTES
        if _declared_length(parser_context) > limit:
            raise _too_large()
        # Read no more than the limit, whatever the length the client declared.
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise _too_large()
        try:
            data = parsers.JSONParser.parse(self, io.BytesIO(body), media_type, parser_context)
        except RecursionError:
            data = None  # deeper than Python's parser goes: refused below with the same words
        else:
            if nesting_depth(data) <= settings.API_MAX_JSON_DEPTH:
                return data
        raise ParseError(f"lists and objects are nested more than {settings.API_MAX_JSON_DEPTH} deep.")


class FormParser(BodyLimitMixin, parsers.FormParser):
    pass


class MultiPartParser(BodyLimitMixin, parsers.MultiPartParser):
    pass


class ArtworkMultiPartParser(MultiPartParser):
    """A layout's submission: its fields and its artwork file (at most LAYOUT_ARTWORK_MAX_BYTES)."""

    def limit(self) -> int:
        return settings.API_MAX_BODY_BYTES + settings.LAYOUT_ARTWORK_MAX_BYTES


class EntryWithPhotosParser(MultiPartParser):
    """An entry with its photos: `multipart/form-data` with one part `data`, the entry's JSON body
    exactly as it is POSTed as JSON, and one part `photos` a photo (repeated). The photos are handed
    to the serializer as its `photos` list; the JSON bounded as JSONParser bounds it."""

    def limit(self) -> int:
        return settings.API_MAX_BODY_BYTES + settings.PHOTO_MAX_COUNT * settings.PHOTO_MAX_BYTES

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        text = parsed.data.get("data", "")
        if len(text) > settings.API_MAX_BODY_BYTES:
            raise _too_large()
        try:
            data = json.loads(text) if text else {}
        except (ValueError, RecursionError) as error:
            raise ParseError("The part `data` is not a JSON object.") from error
        if not isinstance(data, dict):
            raise ParseError("The part `data` is not a JSON object.")
        if nesting_depth(data) > settings.API_MAX_JSON_DEPTH:
            raise ParseError(f"lists and objects are nested more than {settings.API_MAX_JSON_DEPTH} deep.")
        # The files go in the data, so no merge of the two keeps only the last photo.
        return parsers.DataAndFiles({**data, "photos": parsed.files.getlist("photos")}, MultiValueDict())


PARSERS = [JSONParser, FormParser, MultiPartParser]
