"""Middleware of askapp's own."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase


class SyncStackMiddleware:
    """The innermost middleware, and synchronous only: under ASGI, Django then runs the sync
    middleware stack and the view together in one worker thread per request.

    Django's built-in middleware can run in async mode, so under ASGI each of their hooks
    is its own hop from the event loop to a thread and back (about 30 per request with this
    stack). A sync-only middleware at the bottom makes Django adapt the stack once, at the
    top. Responses are unchanged, streaming ones included (the event loop still iterates an
    async body); see docs/adr/0019.
    """

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)


class TrailingSlashMiddleware:
    """/v1/docs/ is /v1/docs: a trailing slash on an API path (or /healthz) is dropped
    before the URL is resolved, for every method. The chat pages' URLs end in a slash and
    Django's APPEND_SLASH adds a missing one; the API's do not, and a redirect cannot carry
    a POST, so the API's are read as if written without it."""

    _TOLERANT = re.compile(r"^/(v1/.+|healthz)/+$")

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if self._TOLERANT.match(request.path_info):
            request.path_info = request.path_info.rstrip("/")
        return self.get_response(request)
