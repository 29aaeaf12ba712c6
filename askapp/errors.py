"""Failures askapp's services raise. The API's one exception handler (askapp/api/errors.py)
turns each into an HTTP status and the JSON error shape; views never catch and format them.

    AskappError                  code, message, field (the request field at fault, if any)
    ├── NotFound                 404: no such conversation or turn, or not the caller's
    ├── Invalid                  400: a request the services cannot act on
    └── AskFailed                the engine or its provider failed; the question was stored
                                 with status error and no answer was written
"""

from __future__ import annotations

from typing import Any

# What the engine reports as an error's reason (its exception's class name), and what it
# means to a client: 503 when trying again later may work, 502 when the upstream misbehaved.
UNAVAILABLE_REASONS = frozenset(
    {
        "ProviderTimeout",
        "ProviderRateLimited",
        "ProviderUnavailable",
        "StoreError",
        "TimeoutError",
        "ConnectionError",
    }
)
_CODES = {
    "ProviderTimeout": "provider_timeout",
    "ProviderRateLimited": "provider_rate_limited",
    "ProviderUnavailable": "provider_unavailable",
    "ProviderBadResponse": "provider_bad_response",
    "ProviderError": "provider_error",
    "ToolError": "provider_bad_tool_call",
    "StoreError": "knowledge_base_unavailable",
    "TimeoutError": "timeout",
    "ConnectionError": "connection_failed",
}


class AskappError(Exception):
    code = "error"

    def __init__(self, message: str, *, code: str | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code or self.code
        self.field = field


class NotFound(AskappError):
    code = "not_found"


class Invalid(AskappError):
    code = "invalid"


class AskFailed(AskappError):
    """The answer could not be made. `conversation` and `turn` name what was stored."""

    def __init__(self, message: str, *, reason: str, conversation: Any, turn: Any) -> None:
        super().__init__(message, code=_CODES.get(reason, "internal_error"))
        self.reason = reason
        self.conversation = conversation
        self.turn = turn

    @property
    def status(self) -> int:
        if self.reason in UNAVAILABLE_REASONS:
            return 503
        return 502 if self.reason in _CODES else 500
