"""The API's one exception handler: every error is `{"error": {"code", "message", "field"?}}`.

Validation errors name the first field at fault with a path (`history[3]`, `question`), DRF's
own errors keep their codes (`parse_error`, `not_authenticated`, `throttled`, ...), askapp's
service errors (askapp/errors.py) bring their status, and an unexpected exception becomes a
logged 500 in the same shape rather than an HTML page.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

from askapp.database import RETRY_AFTER_SECONDS, busy_body, pool_exhausted
from askapp.errors import AskappError, AskFailed, NotFound

logger = logging.getLogger(__name__)


def error_body(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if field:
        error["field"] = field
    return {"error": error}


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, AskappError):
        return _askapp_error(exc)
    if isinstance(exc, exceptions.ValidationError):
        field, detail = first_error(exc.detail)
        code = getattr(detail, "code", None) or "invalid"
        return Response(error_body(code, str(detail), field), status=exc.status_code)
    if isinstance(exc, exceptions.APIException):
        return _api_exception(exc)
    if pool_exhausted(exc):
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        return Response(busy_body(), status=status.HTTP_503_SERVICE_UNAVAILABLE, headers=headers)
    logger.error("unexpected error in the API", exc_info=exc)
    body = error_body("internal_error", "Something went wrong on our side; it was logged.")
    return Response(body, status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def _api_exception(exc: exceptions.APIException) -> Response:
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        headers["Retry-After"] = str(max(1, round(exc.wait)))
    detail = exc.detail
    code = getattr(detail, "code", None) or exc.default_code
    body = error_body(code, str(detail))
    return Response(body, status=exc.status_code, headers=headers)


def _askapp_error(exc: AskappError) -> Response:
    body = error_body(exc.code, exc.message, exc.field)
    if isinstance(exc, AskFailed):
        body["conversation"] = str(exc.conversation.pk)
        body["turn"] = str(exc.turn.pk)
        return Response(body, status=exc.status)
    code = status.HTTP_404_NOT_FOUND if isinstance(exc, NotFound) else status.HTTP_400_BAD_REQUEST
    return Response(body, status=code)


def first_error(detail: Any, path: str = "") -> tuple[str | None, Any]:
    """The first error in a nested ValidationError detail, and the path of its field."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if key == "non_field_errors":
                return first_error(value, path)
            return first_error(value, _join(path, key))
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        for index, value in enumerate(detail):
            if _has_error(value):
                nested = isinstance(value, (Mapping, list))
                return first_error(value, f"{path}[{index}]" if nested else path)
    return (path or None), detail


def _has_error(value: Any) -> bool:
    return bool(value) if isinstance(value, (Mapping, list)) else True


def _join(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def json_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """A path under /v1/ that names nothing: the same error shape as every API error."""
    return JsonResponse(error_body("not_found", f"No API endpoint at {request.path}."), status=404)
