"""OpenAICompatibleProvider over real HTTP: the real `openai` client against a fake
OpenAI-compatible server on 127.0.0.1. Waits between retries go to an injected sleep, so the
only real waiting is the timeout tests' short client timeout."""

from __future__ import annotations

import email.utils
import json
from collections.abc import Callable, Iterator
from typing import Any

import openai
import pytest

from engine.errors import (
    ProviderBadResponse,
    ProviderError,
    ProviderRateLimited,
    ProviderTimeout,
    ProviderUnavailable,
)
from engine.providers.base import Completion, Provider, ToolCall
from engine.providers.openai_compat import OpenAICompatibleProvider
from tests.fakes.openai_server import (
    FakeOpenAIServer,
    Reply,
    completion,
    cut_stream,
    error,
    openai_server_fixture,  # noqa: F401  (provides the `openai_server` fixture)
    raw,
    refused_base_url,
    slow,
    stream,
    tool_call,
    tool_call_stream,
)

MODEL = "gpt-test"
KEY = "sk-test-5a1f0c9e2b7d4e8f"
NOW = 1_750_000_000.0  # the injected wall clock, for Retry-After given as an HTTP date
QUESTION = [
    {"role": "system", "content": "Answer from the knowledge base only."},
    {"role": "user", "content": "What was Shanghai's revenue in FY2023?"},
]
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_fact",
            "description": "Read one reported figure.",
            "parameters": {
                "type": "object",
                "properties": {
                    "entity": {"type": "string"},
                    "metric": {"type": "string"},
                    "period": {"type": "string"},
                },
                "required": ["entity", "metric", "period"],
            },
        },
    }
]


class Sleeps(list[float]):
    """The injected sleep: records each wait instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def provider_at(sleeps: Sleeps) -> Callable[..., OpenAICompatibleProvider]:
    """Build a provider for a base URL; jitter is pinned to 1 so backoffs are exact."""

    def build(base_url: str, **options: Any) -> OpenAICompatibleProvider:
        settings: dict[str, Any] = {
            "model": MODEL,
            "api_key": KEY,
            "base_url": base_url,
            "timeout": 5.0,
            "sleep": sleeps,
            "jitter": lambda: 1.0,
            "wall_clock": lambda: NOW,
        }
        return OpenAICompatibleProvider(**{**settings, **options})

    return build


@pytest.fixture
def provider(
    openai_server: FakeOpenAIServer, provider_at: Callable[..., OpenAICompatibleProvider]
) -> OpenAICompatibleProvider:
    return provider_at(openai_server.base_url)


def _wire(messages: Any) -> str:
    """Key order matters too: compare JSON texts, not only equal dicts."""
    return json.dumps(messages, ensure_ascii=False)


# --- the Protocol -----------------------------------------------------------------------------


def test_it_is_a_provider_named_openai_with_its_model(provider: OpenAICompatibleProvider) -> None:
    as_protocol: Provider = provider
    assert (as_protocol.name, as_protocol.model) == ("openai", MODEL)


# --- tool calls -------------------------------------------------------------------------------


def test_tool_call_round_trip_keeps_calls_verbatim_and_sends_the_results_back(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    odd_but_valid = '{ "entity":"Shanghai",\n  "metric": "revenue", "period":"FY2023" }'
    calls = [
        tool_call("get_fact", odd_but_valid, id="call_a"),
        tool_call("get_fact", '{"entity": "Beijing", "metric": "revenue"}', id="call_b"),
    ]
    openai_server.reply(completion(tool_calls=calls), completion("Revenue was 1,320."))

    first = provider.complete(QUESTION, tools=TOOLS)

    assert first == Completion(
        content=None,
        tool_calls=(
            ToolCall(id="call_a", name="get_fact", arguments=odd_but_valid),
            ToolCall(id="call_b", name="get_fact", arguments=calls[1]["function"]["arguments"]),
        ),
    )
    follow_up: list[dict[str, Any]] = [
        *QUESTION,
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "call_a", "content": '{"value": "1320"}'},
        {"role": "tool", "tool_call_id": "call_b", "content": '{"error": "not found"}'},
    ]
    second = provider.complete(follow_up, tools=TOOLS)

    assert second == Completion(content="Revenue was 1,320.")
    sent = [request.json for request in openai_server.requests]
    assert sent == [
        {"model": MODEL, "messages": QUESTION, "tools": TOOLS},
        {"model": MODEL, "messages": follow_up, "tools": TOOLS},
    ]
    assert _wire(sent[1]["messages"]) == _wire(follow_up)


@pytest.mark.parametrize(
    "messages",
    [
        pytest.param(QUESTION, id="system-and-question"),
        pytest.param(
            [
                QUESTION[0],
                {"role": "user", "content": "Revenue of Shanghai in FY2022?"},
                {"role": "assistant", "content": "Shanghai's revenue in FY2022 was 1,210."},
                {"role": "user", "content": "and in FY2023? — «cité» 数字"},
            ],
            id="history-between-system-and-question",
        ),
        pytest.param(
            [
                *QUESTION,
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [tool_call("get_fact", '{"entity":"Shanghai"}', id="c1")],
                },
                {"role": "tool", "tool_call_id": "c1", "content": "{}"},
            ],
            id="tool-call-and-result",
        ),
    ],
)
def test_the_messages_on_the_wire_are_exactly_the_messages_given(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    messages: list[dict[str, Any]],
) -> None:
    openai_server.reply(completion("ok"))

    provider.complete(messages)

    (request,) = openai_server.requests
    assert request.json == {"model": MODEL, "messages": messages}
    assert _wire(request.messages) == _wire(messages)


def test_messages_given_as_read_only_mappings_and_tuples_still_go_out_as_json(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    from types import MappingProxyType

    call = MappingProxyType(tool_call("get_fact", "{}", id="c1"))
    messages = (
        MappingProxyType({"role": "user", "content": "Revenue?"}),
        MappingProxyType({"role": "assistant", "content": None, "tool_calls": (call,)}),
    )
    openai_server.reply(completion("ok"))

    provider.complete(messages, tools=tuple(TOOLS))

    assert openai_server.requests[0].json == {
        "model": MODEL,
        "messages": [
            {"role": "user", "content": "Revenue?"},
            {"role": "assistant", "content": None, "tool_calls": [dict(call)]},
        ],
        "tools": TOOLS,
    }


def test_no_tools_leaves_the_tools_key_out(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(completion("a"), completion("b"))

    provider.complete(QUESTION)
    provider.complete(QUESTION, tools=[])

    assert ["tools" in request.json for request in openai_server.requests] == [False, False]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        pytest.param(b"<html>502 Bad Gateway</html>", "not JSON", id="not-json"),
        pytest.param(b'{"choices": []}', "no choices", id="no-choices"),
        pytest.param(b'{"error": {"message": "model overloaded"}}', "overloaded", id="error"),
        pytest.param(b'{"choices": [{"index": 0}]}', "no message", id="no-message"),
        pytest.param(
            b'{"choices": [{"message": {"content": ["a", "b"]}}]}', "not text", id="content-list"
        ),
        pytest.param(
            b'{"choices": [{"message": {"tool_calls": [{"type": "function",'
            b' "function": {"name": "get_fact", "arguments": "{}"}}]}}]}',
            "no id",
            id="tool-call-without-id",
        ),
        pytest.param(
            b'{"choices": [{"message": {"tool_calls": [{"id": "c", "type": "function",'
            b' "function": {"name": "get_fact", "arguments": {"entity": "x"}}}]}}]}',
            "not JSON text",
            id="arguments-as-object",
        ),
    ],
)
def test_an_unreadable_answer_is_a_bad_response_and_is_not_retried(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    sleeps: Sleeps,
    body: bytes,
    problem: str,
) -> None:
    openai_server.reply(raw(body))

    with pytest.raises(ProviderBadResponse, match=problem):
        provider.complete(QUESTION)

    assert (len(openai_server.requests), sleeps) == (1, [])


# --- streaming --------------------------------------------------------------------------------


def test_a_streamed_answer_arrives_as_its_deltas_in_order(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    deltas = ["Shanghai's ", "revenue in FY2023 ", "was 1,320", " (million CNY)."]
    openai_server.reply(stream(*deltas))

    assert list(provider.stream(QUESTION)) == deltas
    assert openai_server.requests[0].json == {"model": MODEL, "messages": QUESTION, "stream": True}


def test_a_stream_sends_nothing_until_it_is_read(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(stream("one"))

    deltas = provider.stream(QUESTION)
    before = len(openai_server.requests)

    assert (before, next(deltas), len(openai_server.requests)) == (0, "one", 1)


def test_a_stream_of_tool_calls_is_a_bad_response(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(tool_call_stream(tool_call("get_fact", '{"entity": "Shanghai"}')))

    with pytest.raises(ProviderBadResponse, match="called a tool in a text-only stream"):
        list(provider.stream(QUESTION))


def test_a_json_answer_to_a_stream_request_is_a_bad_response(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(completion("not streamed"))

    with pytest.raises(ProviderBadResponse, match="expected an event stream"):
        list(provider.stream(QUESTION))


# --- failures: each class, after the bounded number of attempts ---------------------------------

FAILURES = [
    pytest.param(error(429), ProviderRateLimited, id="429"),
    pytest.param(error(500), ProviderUnavailable, id="500"),
    pytest.param(error(503), ProviderUnavailable, id="503"),
    pytest.param(slow(30), ProviderTimeout, id="timeout"),
]


@pytest.mark.parametrize(("reply", "raised"), FAILURES)
def test_complete_maps_each_failure_after_the_bounded_attempts(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
    sleeps: Sleeps,
    reply: Reply,
    raised: type[ProviderError],
) -> None:
    provider = provider_at(openai_server.base_url, max_retries=2, timeout=0.2)
    openai_server.reply(reply, reply, reply, completion("a fourth attempt would succeed"))

    with pytest.raises(raised) as failure:
        provider.complete(QUESTION)

    assert len(openai_server.requests) == 3
    assert sleeps == [0.5, 1.0]
    assert isinstance(failure.value.__cause__, openai.OpenAIError)
    assert "after 3 attempts" in str(failure.value)
    assert f"model '{MODEL}'" in str(failure.value)


@pytest.mark.parametrize(
    ("reply", "raised"), [*FAILURES, pytest.param(cut_stream(), ProviderUnavailable, id="cut")]
)
def test_stream_maps_each_failure_before_the_first_delta_after_the_bounded_attempts(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
    sleeps: Sleeps,
    reply: Reply,
    raised: type[ProviderError],
) -> None:
    provider = provider_at(openai_server.base_url, max_retries=2, timeout=0.2)
    openai_server.reply(reply, reply, reply, stream("a fourth attempt would succeed"))

    with pytest.raises(raised):
        list(provider.stream(QUESTION))

    assert (len(openai_server.requests), sleeps) == (3, [0.5, 1.0])


def test_connection_refused_is_unavailable_after_the_bounded_attempts(
    provider_at: Callable[..., OpenAICompatibleProvider], sleeps: Sleeps
) -> None:
    provider = provider_at(refused_base_url(), max_retries=2)

    with pytest.raises(ProviderUnavailable, match="could not reach the server"):
        provider.complete(QUESTION)
    with pytest.raises(ProviderUnavailable, match="could not reach the server"):
        list(provider.stream(QUESTION))

    assert sleeps == [0.5, 1.0, 0.5, 1.0]  # three attempts each


def test_a_transient_failure_is_retried_until_an_answer_comes(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider, sleeps: Sleeps
) -> None:
    openai_server.reply(error(500), error(503), completion("Revenue was 1,320."))

    assert provider.complete(QUESTION).content == "Revenue was 1,320."
    assert (len(openai_server.requests), sleeps) == (3, [0.5, 1.0])
    first, _, last = openai_server.requests
    assert first.body == last.body  # a retry resends the same request


@pytest.mark.parametrize(
    ("reply", "raised"),
    [
        pytest.param(error(400, "context too long"), ProviderError, id="400"),
        pytest.param(error(401, "bad key"), ProviderError, id="401"),
        pytest.param(error(404, "no such model"), ProviderError, id="404"),
        pytest.param(
            error(500, headers={"x-should-retry": "false"}), ProviderUnavailable, id="500-no-retry"
        ),
    ],
)
def test_a_refusal_that_retrying_cannot_fix_is_not_retried(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    sleeps: Sleeps,
    reply: Reply,
    raised: type[ProviderError],
) -> None:
    openai_server.reply(reply, completion("never asked for"))

    with pytest.raises(raised) as failure:
        provider.complete(QUESTION)

    assert type(failure.value) is raised
    assert (len(openai_server.requests), sleeps) == (1, [])


def test_max_retries_zero_makes_a_single_attempt(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
    sleeps: Sleeps,
) -> None:
    provider = provider_at(openai_server.base_url, max_retries=0)
    openai_server.reply(error(503), completion("never asked for"))

    with pytest.raises(ProviderUnavailable, match=r"after 1 attempt\)"):
        provider.complete(QUESTION)

    assert (len(openai_server.requests), sleeps) == (1, [])


def test_backoff_doubles_up_to_its_cap_and_jitter_only_shortens_it(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
    sleeps: Sleeps,
) -> None:
    steady = provider_at(openai_server.base_url, max_retries=4, backoff=1.0, max_backoff=3.0)
    jittered = provider_at(
        openai_server.base_url, max_retries=2, backoff=1.0, max_backoff=3.0, jitter=lambda: 0.0
    )
    openai_server.reply(*[error(503)] * 8)

    with pytest.raises(ProviderUnavailable):
        steady.complete(QUESTION)
    with pytest.raises(ProviderUnavailable):
        jittered.complete(QUESTION)

    assert sleeps == [1.0, 2.0, 3.0, 3.0, 0.5, 1.0]


# --- Retry-After ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "waited"),
    [
        pytest.param({"Retry-After": "3"}, 3.0, id="seconds"),
        pytest.param({"Retry-After": "1.5"}, 1.5, id="fractional-seconds"),
        pytest.param({"retry-after-ms": "250", "Retry-After": "9"}, 0.25, id="milliseconds-first"),
        pytest.param(
            {"Retry-After": email.utils.formatdate(NOW + 7, usegmt=True)}, 7.0, id="http-date"
        ),
        pytest.param({"Retry-After": "soon"}, 0.5, id="unreadable-falls-back-to-backoff"),
    ],
)
def test_retry_after_is_honoured(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    sleeps: Sleeps,
    headers: dict[str, str],
    waited: float,
) -> None:
    openai_server.reply(error(429, headers=headers), completion("ok"))

    assert provider.complete(QUESTION).content == "ok"
    assert sleeps == [waited]


def test_retry_after_is_honoured_on_a_503_and_on_a_stream(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider, sleeps: Sleeps
) -> None:
    openai_server.reply(error(503, retry_after="4"), stream("ok"))

    assert list(provider.stream(QUESTION)) == ["ok"]
    assert sleeps == [4.0]


def test_a_retry_after_beyond_the_cap_fails_at_once_rather_than_wait(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
    sleeps: Sleeps,
) -> None:
    provider = provider_at(openai_server.base_url, max_retry_after=20.0)
    openai_server.reply(error(429, retry_after="120"), completion("never asked for"))

    with pytest.raises(ProviderRateLimited, match="asked to wait 120 s, longer than the 20 s"):
        provider.complete(QUESTION)

    assert (len(openai_server.requests), sleeps) == (1, [])


# --- a stream is never retried once text was delivered ------------------------------------------


def _read_until_failure(deltas: Iterator[str]) -> tuple[list[str], ProviderError]:
    received: list[str] = []
    with pytest.raises(ProviderError) as failure:
        for delta in deltas:
            received.append(delta)
    return received, failure.value


def test_a_stream_cut_after_the_first_delta_is_not_retried(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider, sleeps: Sleeps
) -> None:
    openai_server.reply(cut_stream("Shanghai's revenue ", "in FY2023 was"), stream("again"))

    received, failure = _read_until_failure(provider.stream(QUESTION))

    assert received == ["Shanghai's revenue ", "in FY2023 was"]
    assert isinstance(failure, ProviderUnavailable)
    assert "not retried" in str(failure)
    assert (len(openai_server.requests), openai_server.pending, sleeps) == (1, 1, [])


def test_a_stream_that_ends_without_finishing_is_unavailable_and_not_retried(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider, sleeps: Sleeps
) -> None:
    unfinished = stream("Shanghai's revenue ", finish_reason=None, done=False)
    openai_server.reply(unfinished, stream("again"))

    received, failure = _read_until_failure(provider.stream(QUESTION))

    assert received == ["Shanghai's revenue "]
    assert isinstance(failure, ProviderUnavailable)
    assert "ended before the model finished" in str(failure)
    assert (len(openai_server.requests), sleeps) == (1, [])


def test_a_stream_cut_before_any_delta_is_retried_and_then_delivers(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider, sleeps: Sleeps
) -> None:
    openai_server.reply(cut_stream(), error(502), stream("Revenue ", "was 1,320."))

    assert list(provider.stream(QUESTION)) == ["Revenue ", "was 1,320."]
    assert (len(openai_server.requests), sleeps) == (3, [0.5, 1.0])


# --- secrets and configuration ----------------------------------------------------------------

ECHOING_THE_KEY = [
    pytest.param(error(401, f"Incorrect API key provided: {KEY}."), id="401"),
    pytest.param(error(429, f"Rate limit reached for key {KEY}"), id="429"),
    pytest.param(error(500, f"upstream rejected {KEY}"), id="500"),
    pytest.param(raw(json.dumps({"error": {"message": f"key {KEY}"}}).encode()), id="200-error"),
]


@pytest.mark.parametrize("reply", ECHOING_THE_KEY)
def test_the_api_key_never_appears_in_an_exception_message(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
    reply: Reply,
) -> None:
    provider = provider_at(openai_server.base_url, max_retries=0)
    openai_server.reply(reply)

    with pytest.raises(ProviderError) as failure:
        provider.complete(QUESTION)

    assert openai_server.requests[0].header("Authorization") == f"Bearer {KEY}"
    assert KEY not in str(failure.value)
    assert KEY not in repr(failure.value)
    assert KEY not in repr(provider)
    assert "[redacted]" in str(failure.value)  # the server's words were kept, minus the key


@pytest.mark.parametrize("placeholder", ["k", "x", "EMPTY", "ollama", "none"])
def test_a_short_placeholder_key_never_mangles_a_message_yet_is_hidden_as_a_word(
    provider_at: Callable[..., OpenAICompatibleProvider], placeholder: str
) -> None:
    provider = provider_at(refused_base_url(), api_key=placeholder, max_retries=0)

    with pytest.raises(ProviderUnavailable) as failure:
        provider.complete(QUESTION)

    assert "could not reach the server, or the connection broke" in str(failure.value)
    assert "[redacted]" not in str(failure.value)


def test_a_short_key_echoed_as_a_word_is_still_redacted(
    openai_server: FakeOpenAIServer, provider_at: Callable[..., OpenAICompatibleProvider]
) -> None:
    provider = provider_at(openai_server.base_url, api_key="ollama", max_retries=0)
    openai_server.reply(error(401, "Incorrect API key provided: ollama. Check the ollama docs"))

    with pytest.raises(ProviderError) as failure:
        provider.complete(QUESTION)

    assert "provided: [redacted]. Check the [redacted] docs" in str(failure.value)


def test_the_key_check_is_not_vacuous_the_server_did_echo_the_key(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
) -> None:
    provider = provider_at(openai_server.base_url, max_retries=0)
    openai_server.reply(error(401, f"Incorrect API key provided: {KEY}."))

    with pytest.raises(ProviderError) as failure:
        provider.complete(QUESTION)

    assert KEY in str(failure.value.__cause__)  # the SDK's own error carries it; ours does not


def test_the_environment_never_configures_the_provider(
    openai_server: FakeOpenAIServer,
    provider_at: Callable[..., OpenAICompatibleProvider],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    monkeypatch.setenv("OPENAI_BASE_URL", refused_base_url())
    monkeypatch.setenv("OPENAI_ORG_ID", "org-from-the-environment")
    monkeypatch.setenv("OPENAI_PROJECT_ID", "proj-from-the-environment")
    monkeypatch.setenv("OPENAI_CUSTOM_HEADERS", "Authorization: Bearer sk-from-the-environment")
    ambient = openai.OpenAI()  # the reverse proof: the SDK alone does read these
    assert (ambient.api_key, ambient.organization) == (
        "sk-from-the-environment",
        "org-from-the-environment",
    )
    provider = provider_at(openai_server.base_url)
    openai_server.reply(completion("ok"))

    assert provider.complete(QUESTION).content == "ok"
    (request,) = openai_server.requests
    assert request.header("Authorization") == f"Bearer {KEY}"
    assert request.header("OpenAI-Organization") is None
    assert request.header("OpenAI-Project") is None


def test_organisation_project_and_headers_are_sent_when_given(
    openai_server: FakeOpenAIServer, provider_at: Callable[..., OpenAICompatibleProvider]
) -> None:
    provider = provider_at(
        openai_server.base_url,
        organization="org-finance",
        project="proj-askapp",
        default_headers={"X-Gateway-Route": "analysts"},
    )
    openai_server.reply(completion("ok"))

    provider.complete(QUESTION)

    request = openai_server.requests[0]
    assert request.header("OpenAI-Organization") == "org-finance"
    assert request.header("OpenAI-Project") == "proj-askapp"
    assert request.header("X-Gateway-Route") == "analysts"


def test_azure_goes_to_the_deployment_with_an_api_key_header(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    provider = OpenAICompatibleProvider(
        model="finance-gpt",
        api_key=KEY,
        azure_endpoint=openai_server.origin,
        api_version="2024-10-21",
        sleep=sleeps,
    )
    openai_server.reply(error(503), completion("ok"))

    assert provider.complete(QUESTION).content == "ok"
    request = openai_server.requests[-1]
    assert request.path == "/openai/deployments/finance-gpt/chat/completions?api-version=2024-10-21"
    assert request.header("api-key") == KEY
    assert request.header("Authorization") is None
    assert request.json == {"model": "finance-gpt", "messages": QUESTION}
    assert len(sleeps) == 1  # the same retry policy


def test_an_injected_client_is_used_without_its_own_retries(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    client = openai.OpenAI(base_url=openai_server.base_url, api_key=KEY, max_retries=5)
    provider = OpenAICompatibleProvider(model=MODEL, client=client, max_retries=1, sleep=sleeps)
    openai_server.reply(*[error(500, f"boom for {KEY}")] * 12)

    with pytest.raises(ProviderUnavailable) as failure:
        provider.complete(QUESTION)

    assert len(openai_server.requests) == 2  # ours: 1 + 1 retry; not the client's 6 per call
    assert KEY not in str(failure.value)
    assert client.max_retries == 5  # the caller's client is left as it was


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        pytest.param({"model": "", "api_key": KEY}, "model is required", id="no-model"),
        pytest.param({"model": MODEL}, "api_key is required", id="no-key"),
        pytest.param({"model": MODEL, "api_key": KEY, "timeout": 0}, "timeout", id="no-timeout"),
        pytest.param(
            {"model": MODEL, "api_key": KEY, "max_retries": -1}, "max_retries", id="negative"
        ),
        pytest.param(
            {"model": MODEL, "api_key": KEY, "azure_endpoint": "https://x.example"},
            "api_version is required",
            id="azure-without-version",
        ),
        pytest.param(
            {
                "model": MODEL,
                "api_key": KEY,
                "azure_endpoint": "https://x.example",
                "api_version": "2024-10-21",
                "base_url": "https://y.example/v1",
            },
            "not both",
            id="azure-and-base-url",
        ),
    ],
)
def test_bad_configuration_fails_at_construction(options: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        OpenAICompatibleProvider(**options)


def test_the_endpoint_shown_in_messages_drops_credentials_in_the_url(
    provider_at: Callable[..., OpenAICompatibleProvider],
) -> None:
    refused = refused_base_url().replace("http://", "http://user:hunter2@") + "?token=hunter2"
    provider = provider_at(refused, max_retries=0)

    with pytest.raises(ProviderUnavailable) as failure:
        provider.complete(QUESTION)

    assert "hunter2" not in str(failure.value)
    assert "hunter2" not in repr(provider)
