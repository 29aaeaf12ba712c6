"""Middleware of askapp's own."""

from __future__ import annotations

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
