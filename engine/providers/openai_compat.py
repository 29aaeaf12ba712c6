"""A provider for any server that speaks OpenAI's chat-completions protocol: OpenAI, Azure
OpenAI, vLLM, Ollama, llama.cpp server and the like. Built on the official `openai` package's
sync client, configured only by arguments (never by the environment), see docs/adr/0008.

Failures are translated here, at the edge, into engine.errors. The `openai` client's own retries
are switched off; this module retries, so the policy is explicit and tested:

    what happened                            raised                retried
    no answer in time, HTTP 408              ProviderTimeout       yes
    HTTP 429                                 ProviderRateLimited   yes, after Retry-After if given
    HTTP 5xx or 409, refused or dropped      ProviderUnavailable   yes
    connection, error event mid-stream
    stream ended before a finish_reason      ProviderUnavailable   yes
    an answer we cannot read                 ProviderBadResponse   no
    any other HTTP 4xx (key, model, input)   ProviderError         no

A stream is retried only until its first delta is yielded: after that the caller has already
passed text on, and a second attempt would repeat or contradict it. A Retry-After longer than
`max_retry_after` is not waited for: the call fails at once with ProviderRateLimited (or
ProviderUnavailable), because a shorter wait would only meet the same refusal.
"""

from __future__ import annotations

import email.utils
import json
import math
import random
import re
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import openai
from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolUnionParam

from engine.errors import (
    ProviderBadResponse,
    ProviderError,
    ProviderRateLimited,
    ProviderTimeout,
    ProviderUnavailable,
)
from engine.providers.base import Completion, Message, ToolCall, ToolSchema

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_SERVER_MESSAGE_LIMIT = 200  # characters of a server's error text worth carrying into ours
_LONG_SECRET = 16  # real keys are longer (OpenAI sk-..., Azure's 32 hex); placeholders shorter
_REDACTED = "[redacted]"

_T = TypeVar("_T")


class OpenAICompatibleProvider:
    """The `Provider` Protocol over OpenAI's chat-completions API.

    Give `base_url` for OpenAI or any compatible server (OpenAI's own URL is the default), or
    `azure_endpoint` and `api_version` for Azure OpenAI, where `model` is the deployment name.
    Local servers that ignore the key still need a non-empty `api_key` (any placeholder).
    `client` injects a ready `openai.OpenAI` instead; its retries are switched off all the same.
    `sleep`, `wall_clock` and `jitter` are injected so tests never wait.
    """

    name = "openai"

    def __init__(
        self,
        *,
        model: str,
        api_key: str = "",
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        organization: str | None = None,
        project: str | None = None,
        default_headers: Mapping[str, str] | None = None,
        azure_endpoint: str | None = None,
        api_version: str | None = None,
        client: openai.OpenAI | None = None,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        max_retry_after: float = 20.0,
        sleep: Callable[[float], None] = time.sleep,
        wall_clock: Callable[[], float] = time.time,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        _require(bool(model), "model is required")
        _require(timeout > 0, "timeout must be positive")
        _require(max_retries >= 0, "max_retries cannot be negative")
        _require(0 <= backoff <= max_backoff, "backoff must be between 0 and max_backoff")
        _require(max_retry_after >= 0, "max_retry_after cannot be negative")
        self.model = model
        self._timeout = timeout
        self._retry = _RetryPolicy(max_retries, backoff, max_backoff, max_retry_after)
        self._sleep = sleep
        self._wall_clock = wall_clock
        self._jitter = jitter
        if client is not None:
            self._client = _without_retries(client, timeout)
            self._secret = client.api_key
            endpoint = str(client.base_url)
        else:
            _require(bool(api_key), "api_key is required (any placeholder for a keyless server)")
            self._secret = api_key
            self._client, endpoint = _build_client(
                api_key=api_key,
                base_url=base_url,
                azure_endpoint=azure_endpoint,
                api_version=api_version,
                organization=organization,
                project=project,
                default_headers=default_headers,
                timeout=timeout,
            )
        self._label = f"openai provider (model {model!r} at {_safe_url(endpoint)})"

    def __repr__(self) -> str:
        return f"<OpenAICompatibleProvider {self._label}>"

    def complete(
        self, messages: Sequence[Message], *, tools: Sequence[ToolSchema] | None = None
    ) -> Completion:
        """One chat-completions round: the model's answer or tool calls, arguments verbatim."""
        wire_messages = _wire_messages(messages)
        wire_tools = _wire_tools(tools)

        def attempt() -> Completion:
            response = self._client.chat.completions.with_raw_response.create(
                model=self.model, messages=wire_messages, tools=wire_tools
            )
            return _read_completion(_parse_json(response.content))

        return self._retrying(attempt)

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        """A text answer as content deltas, in order; retried only before the first delta."""
        wire_messages = _wire_messages(messages)
        attempts = 0
        while True:
            attempts += 1
            delivered = False
            try:
                with closing(self._stream_once(wire_messages)) as deltas:
                    for delta in deltas:
                        delivered = True
                        yield delta
                return
            except _FAILURES as exc:
                failure = self._classify(exc)
                wait = None if delivered else self._retry.wait(failure, attempts, self._jitter)
                if wait is None:
                    raise self._error(failure, attempts, delivered=delivered) from exc
            self._sleep(wait)

    def _stream_once(
        self, messages: list[ChatCompletionMessageParam]
    ) -> Generator[str, None, None]:
        chunks = self._client.chat.completions.create(
            model=self.model, messages=messages, stream=True
        )
        with chunks:
            content_type = chunks.response.headers.get("content-type", "")
            if not content_type.startswith("text/event-stream"):
                raise _Malformed(f"expected an event stream, got {content_type or 'no type'!r}")
            finished = False
            for chunk in chunks:
                content, chunk_finished = _read_chunk(chunk)
                finished = finished or chunk_finished
                if content:
                    yield content
        if not finished:
            raise _StreamCut("the stream ended before the model finished its answer")

    def _retrying(self, attempt: Callable[[], _T]) -> _T:
        attempts = 0
        while True:
            attempts += 1
            try:
                return attempt()
            except _FAILURES as exc:
                failure = self._classify(exc)
                wait = self._retry.wait(failure, attempts, self._jitter)
                if wait is None:
                    raise self._error(failure, attempts) from exc
            self._sleep(wait)

    def _classify(self, exc: Exception) -> _Failure:
        """What a foreign failure means for the engine, and whether to try again."""
        if isinstance(exc, openai.APITimeoutError):
            return _Failure(ProviderTimeout, f"no answer within {self._timeout:g} s", True)
        if isinstance(exc, openai.APIConnectionError):
            cause = type(exc.__cause__).__name__ if exc.__cause__ else "no detail"
            what = f"could not reach the server, or the connection broke ({cause})"
            return _Failure(ProviderUnavailable, what, True)
        if isinstance(exc, openai.APIStatusError):
            return self._status_failure(exc)
        if isinstance(exc, _StreamCut):
            return _Failure(ProviderUnavailable, str(exc), True)
        if isinstance(exc, (_Malformed, ValueError, openai.APIResponseValidationError)):
            return _Failure(ProviderBadResponse, f"unreadable answer: {exc}", False)
        if isinstance(exc, openai.APIError):  # an error event inside a stream
            what = f"the server reported an error mid-stream{_said(exc.message)}"
            return _Failure(ProviderUnavailable, what, True)
        return _Failure(ProviderError, f"the openai client failed ({type(exc).__name__})", False)

    def _status_failure(self, exc: openai.APIStatusError) -> _Failure:
        status, headers = exc.status_code, exc.response.headers
        said = _said(_server_message(exc.body))
        kind: type[ProviderError]
        if status == 429:
            kind, what = ProviderRateLimited, f"rate limited (HTTP 429){said}"
        elif status == 408:
            kind, what = ProviderTimeout, f"the server timed out (HTTP 408){said}"
        elif status >= 500 or status == 409:
            kind, what = ProviderUnavailable, f"unavailable (HTTP {status}){said}"
        else:
            kind, what = ProviderError, f"rejected the request (HTTP {status}){said}"
        retryable = _should_retry(status, headers.get("x-should-retry"))
        retry_after = _retry_after(headers, self._wall_clock) if retryable else None
        return _Failure(kind, what, retryable, retry_after)

    def _error(self, failure: _Failure, attempts: int, *, delivered: bool = False) -> ProviderError:
        text = f"{self._label}: {failure.what}"
        text += f" (after {attempts} attempt{'s' if attempts > 1 else ''})"
        if self._retry.refuses(failure):
            text += (
                f"; the server asked to wait {failure.retry_after:g} s, longer than the"
                f" {self._retry.max_retry_after:g} s allowed"
            )
        if delivered:
            text += "; part of the answer was already streamed, so it was not retried"
        return failure.kind(self._scrub(text))

    def _scrub(self, text: str) -> str:
        """Whatever a server echoed back, the key never reaches an exception message."""
        return _redact(text, self._secret)


# --- retry policy ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Failure:
    kind: type[ProviderError]
    what: str
    retryable: bool
    retry_after: float | None = None  # seconds the server asked us to wait, if it said


@dataclass(frozen=True, slots=True)
class _RetryPolicy:
    max_retries: int
    backoff: float
    max_backoff: float
    max_retry_after: float

    def wait(self, failure: _Failure, attempts: int, jitter: Callable[[], float]) -> float | None:
        """Seconds to wait before the next attempt, or None to give up now."""
        if not failure.retryable or attempts > self.max_retries or self.refuses(failure):
            return None
        if failure.retry_after is not None:
            return failure.retry_after
        exponential = min(self.max_backoff, self.backoff * 2.0 ** (attempts - 1))
        return exponential * (0.5 + 0.5 * jitter())  # spread the herd of callers retrying at once

    def refuses(self, failure: _Failure) -> bool:
        return failure.retry_after is not None and failure.retry_after > self.max_retry_after


def _should_retry(status: int, should_retry_header: str | None) -> bool:
    if should_retry_header in ("true", "false"):  # OpenAI's own hint wins when it gives one
        return should_retry_header == "true"
    return status in (408, 409, 429) or status >= 500


def _retry_after(headers: Mapping[str, str], wall_clock: Callable[[], float]) -> float | None:
    """Retry-After-Ms, else Retry-After as seconds or an HTTP date; None when absent or bad."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            continue
        return None if math.isnan(seconds) else max(0.0, seconds)
    date = headers.get("retry-after")
    parsed = email.utils.parsedate_tz(date) if date else None
    if parsed is None:
        return None
    return max(0.0, float(email.utils.mktime_tz(parsed)) - wall_clock())


# --- the wire -------------------------------------------------------------------------------------


class _StreamCut(Exception):
    """The body ended cleanly, but no chunk carried a finish_reason: the answer is incomplete."""


class _Malformed(ValueError):
    """JSON that does not have the shape of a chat completion."""


_FAILURES = (openai.OpenAIError, _StreamCut, ValueError)


def _wire_messages(messages: Sequence[Message]) -> list[ChatCompletionMessageParam]:
    """The messages as plain JSON values, exactly as given: nothing added, nothing dropped."""
    return cast("list[ChatCompletionMessageParam]", [_plain(message) for message in messages])


def _wire_tools(
    tools: Sequence[ToolSchema] | None,
) -> Iterable[ChatCompletionToolUnionParam] | openai.Omit:
    if not tools:
        return openai.omit  # an empty `tools` array is an error for OpenAI; leave the key out
    return cast("list[ChatCompletionToolUnionParam]", [_plain(tool) for tool in tools])


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def _parse_json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError as exc:
        raise _Malformed(f"the body is not JSON ({exc})") from exc


def _read_completion(payload: Any) -> Completion:
    choices = _get(payload, "choices")
    if not isinstance(choices, list) or not choices:
        problem = _server_message(_get(payload, "error"))
        raise _Malformed(
            f"an error in place of an answer{_said(problem)}" if problem else "no choices"
        )
    message = _get(choices[0], "message")
    if message is None:
        raise _Malformed("the first choice has no message")
    content = _get(message, "content")
    if content is not None and not isinstance(content, str):
        raise _Malformed("the message content is not text")
    calls = _get(message, "tool_calls") or []
    if not isinstance(calls, list):
        raise _Malformed("tool_calls is not a list")
    return Completion(content=content, tool_calls=tuple(_read_tool_call(call) for call in calls))


def _read_tool_call(call: Any) -> ToolCall:
    function = _get(call, "function")
    call_id, name, arguments = _get(call, "id"), _get(function, "name"), _get(function, "arguments")
    if not isinstance(call_id, str) or not call_id:
        raise _Malformed("a tool call has no id")
    if not isinstance(name, str) or not name:
        raise _Malformed("a tool call has no function name")
    if not isinstance(arguments, str):
        raise _Malformed("a tool call's arguments are not JSON text")
    return ToolCall(id=call_id, name=name, arguments=arguments)


def _read_chunk(chunk: Any) -> tuple[str, bool]:
    """One streamed chunk: its text, and whether it ends the answer (it has a finish_reason)."""
    choices = _get(chunk, "choices")
    if not isinstance(choices, list):
        raise _Malformed("a stream chunk has no choices list")
    text, finished = "", False
    for choice in choices:
        delta = _get(choice, "delta")
        if _get(delta, "tool_calls"):
            raise _Malformed("the model called a tool in a text-only stream")
        content = _get(delta, "content")
        if content is not None and not isinstance(content, str):
            raise _Malformed("a stream delta's content is not text")
        text += content or ""
        finished = finished or _get(choice, "finish_reason") is not None
    return text, finished


def _get(value: Any, key: str) -> Any:
    """A field of a JSON object or of the SDK's loosely built model; None when missing."""
    if isinstance(value, Mapping):
        return value.get(key)
    return getattr(value, key, None) if value is not None else None


def _server_message(body: Any) -> str | None:
    message = _get(body, "message")
    return message if isinstance(message, str) and message else None


def _said(message: str | None) -> str:
    if not message:
        return ""
    clipped = message if len(message) <= _SERVER_MESSAGE_LIMIT else message[:_SERVER_MESSAGE_LIMIT]
    return f": {clipped!r}"


# --- the client -----------------------------------------------------------------------------------


def _build_client(
    *,
    api_key: str,
    base_url: str | None,
    azure_endpoint: str | None,
    api_version: str | None,
    organization: str | None,
    project: str | None,
    default_headers: Mapping[str, str] | None,
    timeout: float,
) -> tuple[openai.OpenAI, str]:
    """An `openai` client with every setting given, so none is filled in from the environment."""
    common: dict[str, Any] = {
        "api_key": api_key,
        "organization": organization,
        "project": project,
        "timeout": timeout,
        "max_retries": 0,  # we retry, see the module docstring
    }
    client: openai.OpenAI
    if azure_endpoint is not None:
        _require(base_url is None, "give base_url or azure_endpoint, not both")
        _require(bool(api_version), "api_version is required with azure_endpoint")
        headers = _explicit_auth(default_headers, authorization=openai.Omit())
        client = openai.AzureOpenAI(
            azure_endpoint=azure_endpoint,
            api_version=api_version,
            default_headers=headers,
            **common,
        )
        endpoint = azure_endpoint
    else:
        endpoint = base_url or DEFAULT_BASE_URL
        headers = _explicit_auth(default_headers, authorization=f"Bearer {api_key}")
        client = openai.OpenAI(base_url=endpoint, default_headers=headers, **common)
    _pin_identity(client, organization, project)
    return client, endpoint


def _explicit_auth(
    headers: Mapping[str, str] | None, *, authorization: str | openai.Omit
) -> Mapping[str, str]:
    # The SDK merges headers from OPENAI_CUSTOM_HEADERS, and an Authorization found there would
    # replace the key we were given. An explicit Authorization (our bearer token; for Azure,
    # which authenticates with `api-key`, an omission) makes the SDK drop the ambient one.
    explicit = dict(headers or {})
    if any(name.lower() == "authorization" for name in explicit):
        return explicit  # the caller's own Authorization (a gateway token, say) stands
    return cast("Mapping[str, str]", {**explicit, "Authorization": authorization})


def _without_retries(client: openai.OpenAI, timeout: float) -> openai.OpenAI:
    copy = client.with_options(timeout=timeout, max_retries=0)
    _pin_identity(copy, client.organization, client.project)
    return copy


def _pin_identity(client: openai.OpenAI, organization: str | None, project: str | None) -> None:
    # The SDK reads OPENAI_ORG_ID and OPENAI_PROJECT_ID when these are None; the engine takes
    # its configuration from arguments only, so an unset value stays unset.
    client.organization = organization
    client.project = project


def _safe_url(url: str) -> str:
    """scheme://host:port/path only: no user info, query or fragment, which may hold secrets."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path.rstrip('/')}"


def _redact(text: str, secret: str) -> str:
    """`text` with `secret` replaced by [redacted]: everywhere when the secret is long, and
    only where it stands as a whole token when it is short. A keyless local server's
    placeholder ("x", "EMPTY", "ollama") is no secret, and replacing it inside words would
    mangle every message ("the connection bro[redacted]e")."""
    if not secret:
        return text
    if len(secret) >= _LONG_SECRET:
        return text.replace(secret, _REDACTED)
    token = re.compile(rf"(?<![\w-]){re.escape(secret)}(?![\w-])")
    return token.sub(_REDACTED, text)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(f"OpenAICompatibleProvider: {message}")
