"""A database that is busy, cannot be written to or cannot be reached is an outage, not a
bug: 503 with Retry-After, in the API's error shape on the API and as a plain page elsewhere,
instead of a generic 500. One mechanism for every such case (the API's exception handler and
the site's handler500 both ask `outage`): a pool with no connection to give in time
(askapp/database.py, docs/adr/0033), a read-only database (SQLite's "readonly", PostgreSQL's
read_only_sql_transaction), one that refuses connections or drops them (OperationalError,
InterfaceError).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import InterfaceError, InternalError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.html import escape

from askapp.database import BUSY_MESSAGE, pool_exhausted
from askapp.database import RETRY_AFTER_SECONDS as BUSY_RETRY_AFTER_SECONDS
from askapp.requestid import request_id_of

RETRY_AFTER_SECONDS = 5
READ_ONLY_SQLSTATE = "25006"


@dataclass(frozen=True, slots=True)
class Outage:
    code: str
    message: str
    retry_after: int = RETRY_AFTER_SECONDS


BUSY = Outage("database_busy", BUSY_MESSAGE, retry_after=BUSY_RETRY_AFTER_SECONDS)


READ_ONLY = Outage(
    "database_read_only",
    "The database accepts no writes at the moment (it is read-only); try again later.",
)
UNREACHABLE = Outage(
    "database_unavailable", "The database cannot be reached at the moment; try again later."
)


def outage(exc: BaseException | None) -> Outage | None:
    """The outage `exc` (or what it wraps) reports, or None when it is no outage."""
    if pool_exhausted(exc):
        return BUSY
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if _read_only(exc):
            return READ_ONLY
        if isinstance(exc, (OperationalError, InterfaceError)):
            return UNREACHABLE
        exc = exc.__cause__ or exc.__context__
    return None


def _read_only(exc: BaseException) -> bool:
    if getattr(exc, "sqlstate", None) == READ_ONLY_SQLSTATE:
        return True
    if isinstance(exc, (OperationalError, InternalError)):
        text = str(exc).lower()
        return "readonly database" in text or "read-only transaction" in text
    return False


def error_page(template: str, context: dict[str, str]) -> str:
    """An error page, or when even it fails (its stylesheet missing from a server that
    never collected its static files, say) the same words in plain HTML: an error page must
    never be a second error."""
    try:
        return loader.get_template(template).render(context)
    except Exception:
        words = [context.get("message") or "Something went wrong on our side."]
        if context.get("request_id"):
            words.append(f"Reference: {context['request_id']}")
        return "".join(f"<p>{escape(w)}</p>" for w in words)


def error_body(found: Outage) -> dict[str, dict[str, str]]:
    return {"error": {"code": found.code, "message": found.message}}


def outage_response(request: HttpRequest, found: Outage) -> HttpResponse:
    """503 with Retry-After: JSON under /v1/, a page elsewhere (with the request id)."""
    if request.path_info.startswith("/v1/"):
        response: HttpResponse = JsonResponse(error_body(found), status=503)
    else:
        context = {"message": found.message, "request_id": request_id_of(request)}
        response = HttpResponse(error_page("503.html", context), status=503)
    response["Retry-After"] = str(found.retry_after)
    return response
