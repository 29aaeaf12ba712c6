"""Failures askapp's services raise. The API's one exception handler (askapp/api/errors.py)
turns each into an HTTP status and the JSON error shape; views never catch and format them.

    AskappError                  code, message, field (the request field at fault, if any)
    ├── NotFound                 404: no such conversation or turn, or not the caller's
    ├── Invalid                  400: a request the services cannot act on
    └── AskFailed                the engine or its provider failed (its status comes from
                                 the failure's class); the question was stored with status
                                 error and no answer was written
"""

from __future__ import annotations

from typing import Any

from engine import (
    EngineError,
    ProviderBadResponse,
    ProviderError,
    ProviderRateLimited,
    ProviderTimeout,
    ProviderUnavailable,
    StoreError,
    ToolError,
)

# What each failure the engine reports (engine.errors) means to a client, by its class: 503
# when trying again later may work, 502 when the upstream misbehaved, 500 when the engine
# itself failed. A test fails when an engine failure class is missing here.
FAILURE_RESPONSES: dict[type[Exception], tuple[int, str]] = {
    ProviderTimeout: (503, "provider_timeout"),
    ProviderRateLimited: (503, "provider_rate_limited"),
    ProviderUnavailable: (503, "provider_unavailable"),
    ProviderBadResponse: (502, "provider_bad_response"),
    ProviderError: (502, "provider_error"),
    ToolError: (502, "provider_bad_tool_call"),
    StoreError: (503, "knowledge_base_unavailable"),
    EngineError: (500, "internal_error"),
    TimeoutError: (503, "timeout"),
    ConnectionError: (503, "connection_failed"),
}
UNEXPECTED = (500, "internal_error")


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
    """The answer could not be made: `failure` is the class of what failed. `conversation`
    and `turn` name what was stored."""

    def __init__(
        self, message: str, *, failure: type[Exception], conversation: Any, turn: Any
    ) -> None:
        self.status, code = FAILURE_RESPONSES.get(failure, UNEXPECTED)
        super().__init__(message, code=code)
        self.failure = failure
        self.conversation = conversation
        self.turn = turn

    @property
    def reason(self) -> str:
        """What is stored as the question's reason: the failure's class name."""
        return self.failure.__name__
