"""The API's JSON parser, bounded before it parses: a body over the size limit is a 413, one
nested deeper than MAX_DEPTH a 400, both in the API's error shape. Python's json module parses
by recursion, so a body of 100,000 brackets was a RecursionError (a 500), and a body of any
size was read whole into memory first."""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from django.conf import settings
from rest_framework import exceptions, renderers, status
from rest_framework.parsers import BaseParser

# The deepest thing an ask needs is {"history": [[role, text]]}: 3 levels.
MAX_DEPTH = 16
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"


class TooDeep(exceptions.ParseError):
    default_code = "too_deep"


class BoundedJSONParser(BaseParser):
    """JSON, read from the stream up to the limit (DRF hands its own JSONParser the whole
    body, which Django refuses past the limit with an exception the API saw as a 500)."""

    media_type = "application/json"
    renderer_class = renderers.JSONRenderer

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        limit = int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        body = _read(stream, limit, parser_context)
        if depth(body) > MAX_DEPTH:
            raise TooDeep(f"The JSON body is nested deeper than {MAX_DEPTH} levels.")
        try:
            return json.loads(body.decode("utf-8"), parse_constant=_no_constant)
        except (ValueError, UnicodeDecodeError) as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from exc


def _read(stream: Any, limit: int, parser_context: Any) -> bytes:
    """The body, refusing one longer than `limit` bytes, by its Content-Length or as read."""
    request = (parser_context or {}).get("request")
    declared = request.META.get("CONTENT_LENGTH") if request is not None else None
    if declared and declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)
    body = stream.read(limit + 1) if stream is not None else b""
    if len(body) > limit:
        raise _too_large(limit)
    return bytes(body)


def _too_large(limit: int) -> RequestTooLarge:
    return RequestTooLarge(f"The request body is over {limit:,} bytes.")


def depth(body: bytes) -> int:
    """How deep the brackets of a JSON text nest, strings left out (a linear scan)."""
    brackets = _STRING.sub(b"", body).translate(None, delete=_NOT_BRACKETS)
    return max(accumulate(_STEP[b] for b in brackets), default=0)


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
