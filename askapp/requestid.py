"""Every request gets an id: the response sends it (X-Request-ID), every log record written
while the request runs carries it (`%(request_id)s` in LOGGING's format), and the error pages
show it, so a visitor's "Reference: 3f2a..." finds the log lines of what went wrong.

The id is made here, never taken from the client: a client could otherwise write what it
likes into the server's logs.
"""

from __future__ import annotations

import contextvars
import logging
import secrets
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase

NO_REQUEST = "-"
_current: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default=NO_REQUEST)


def current_request_id() -> str:
    return _current.get()


def request_id_of(request: HttpRequest) -> str:
    return str(getattr(request, "request_id", "") or current_request_id())


class RequestIdMiddleware:
    """The outermost middleware: the id exists before anything else runs or logs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        request_id = secrets.token_hex(8)
        request.request_id = request_id  # type: ignore[attr-defined]
        # Left set after the response: Django logs a 5xx response after the middleware
        # returns, still in this request's context; the next request sets its own.
        _current.set(request_id)
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Gives a record written outside any request the id "-", so the format never fails."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id()
        return True


def install_record_factory() -> None:
    """Every log record is made with the id of the request it was written in, whatever
    handler (a test's, a deployment's) later reads it."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "_askapp_request_id", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.request_id = current_request_id()
        return record

    factory._askapp_request_id = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)
