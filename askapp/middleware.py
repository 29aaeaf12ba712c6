"""Middleware of askapp's own."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

from django.contrib.messages import middleware as messages_middleware
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject, empty

from askapp.outages import error_page
from askapp.requestid import request_id_of

READABLE_CHARSETS = frozenset({"utf-8"})

# The site's own scripts and styles only: a question or excerpt that escaped escaping would
# still not run. connect-src covers the API calls the chat page's script makes. A view may
# send a policy of its own (the API docs do), which is kept.
_POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
CONTENT_SECURITY_POLICY = "; ".join(_POLICY)
# Django's admin widgets (the autocomplete's) write style attributes; scripts stay 'self'.
ADMIN_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)
API_CACHE_CONTROL = "private, no-store"
CHARSET_MESSAGE = "Send the request in UTF-8 (charset=utf-8); {charset!r} is not read here."


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


class FormCharsetMiddleware:
    """A request whose Content-Type names a charset other than UTF-8 is a 400 before
    anything reads its body: Django would decode a form with whatever codec is
    named, and utf-16, rot13, zlib or hex made every form (login included) a 500. The API
    answers in its error shape, the pages with a plain 400 page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        charset = request.content_params.get("charset") if request.content_params else None
        if charset is not None and not _readable(charset):
            return unreadable_charset(request, charset)
        return self.get_response(request)


def _readable(charset: str) -> bool:
    try:
        return codecs.lookup(charset.strip()).name in READABLE_CHARSETS
    except LookupError:
        return False


def unreadable_charset(request: HttpRequest, charset: str) -> HttpResponseBase:
    message = CHARSET_MESSAGE.format(charset=charset[:40])
    if request.path_info.startswith("/v1/"):
        body = {"error": {"code": "unsupported_charset", "message": message}}
        return JsonResponse(body, status=400)
    context = {"message": message, "request_id": request_id_of(request)}
    return HttpResponse(error_page("400.html", context), status=400)


class SecurityHeadersMiddleware:
    """A Content-Security-Policy on every response that has none (pages, the admin, login,
    error pages), and on the API's: `Cache-Control: private, no-store` and `Vary: Cookie,
    Authorization`, so no shared cache ever keeps or serves one user's answer to another."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        admin = request.path_info.startswith("/admin/")
        policy = ADMIN_CONTENT_SECURITY_POLICY if admin else CONTENT_SECURITY_POLICY
        response.headers.setdefault("Content-Security-Policy", policy)
        if request.path_info.startswith("/v1/"):
            response["Cache-Control"] = API_CACHE_CONTROL
            patch_vary_headers(response, ("Cookie", "Authorization"))
        return response


class MessageMiddleware(messages_middleware.MessageMiddleware):
    """Django's, with a request's message storage made when something first adds or reads a
    message (a page, the admin). Most requests (the API, /healthz) never do: making the
    storage (its cookie signer, its session storage, the setting read through import_string)
    was a sixth of what /healthz cost in Django (docs/adr/0080). A storage never made has
    nothing to store, which is what its update() would have found."""

    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(lambda: default_storage(request))  # type: ignore[attr-defined]

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        storage = getattr(request, "_messages", None)
        if isinstance(storage, SimpleLazyObject) and storage._wrapped is empty:
            return response
        return super().process_response(request, response)
