"""Every way a real model can fail ends as an Answer with status error and a clear message,
after the provider's bounded retries, through answer_question and through the stream (where an
`error` event comes before `done`). Structured questions fail in `complete`, narrative ones in
`stream`. Waits between attempts go to an injected sleep; the only real waiting is the timeout
class's 0.2 s client timeout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.answer import answer_question
from engine.providers.openai_compat import OpenAICompatibleProvider
from engine.store import KnowledgeStore
from tests.demo_store import demo_store
from tests.engine.openai_support import (
    KEY,
    MODEL,
    QUESTION,
    Sleeps,
    ask,
    places_holding,
    provider_for,
    sleeps_fixture,  # noqa: F401  (provides the `sleeps` fixture)
)
from tests.fakes.openai_server import (
    FakeOpenAIServer,
    Reply,
    completion,
    cut_body,
    cut_stream,
    error,
    openai_server_fixture,  # noqa: F401  (provides the `openai_server` fixture)
    raw,
    refused_base_url,
    slow,
    stream,
    tool_call,
)

NARRATIVE = "Why did Apple's revenue dip in fiscal 2023?"
CHANNELS = {
    # channel: (question, what a fourth attempt would have got)
    "structured": (QUESTION, completion("a fourth attempt would have answered")),
    "narrative": (NARRATIVE, stream("A fourth attempt would have answered.")),
}
# (reply on a structured request, reply on a stream request, error code, what the message says)
FAILURES = [
    pytest.param(error(429), error(429), "ProviderRateLimited", "rate limited (HTTP 429)",
                 id="429"),
    pytest.param(error(500), error(500), "ProviderUnavailable", "unavailable (HTTP 500)",
                 id="500"),
    pytest.param(error(503), error(503), "ProviderUnavailable", "unavailable (HTTP 503)",
                 id="503"),
    pytest.param(slow(30), slow(30), "ProviderTimeout", "no answer within 0.2 s", id="timeout"),
    pytest.param(cut_body(), cut_stream(), "ProviderUnavailable", "the connection broke",
                 id="cut"),
]  # fmt: skip


def _script(server: FakeOpenAIServer, channel: str, structured: Reply, streamed: Reply) -> str:
    question, fourth = CHANNELS[channel]
    failing = structured if channel == "structured" else streamed
    server.reply(failing, failing, failing, fourth)
    return question


def _failing_provider(server: FakeOpenAIServer, sleeps: Sleeps) -> OpenAICompatibleProvider:
    return provider_for(server.base_url, sleeps, timeout=0.2, max_retries=2)


def _assert_error_answer(answer: Any, code: str, says: str, endpoint: str) -> None:
    assert (answer.status, answer.reason) == ("error", code)
    assert answer.text.startswith(
        f"The model provider failed: openai provider (model '{MODEL}' at {endpoint}): "
    )
    assert says in answer.text
    assert answer.text.endswith("(after 3 attempts)")
    assert (answer.figures, answer.sources) == ((), ())
    assert not answer.refused  # a failure is not a refusal: nobody looked for the figure


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize(("structured", "streamed", "code", "says"), FAILURES)
def test_each_failure_ends_as_an_error_answer_after_the_bounded_retries(
    openai_server: FakeOpenAIServer,
    sleeps: Sleeps,
    channel: str,
    structured: Reply,
    streamed: Reply,
    code: str,
    says: str,
) -> None:
    question = _script(openai_server, channel, structured, streamed)

    answer = answer_question(question, demo_store(), _failing_provider(openai_server, sleeps))

    _assert_error_answer(answer, code, says, openai_server.base_url)
    assert (len(openai_server.requests), openai_server.pending, sleeps) == (3, 1, [0.5, 1.0])


@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize(("structured", "streamed", "code", "says"), FAILURES)
def test_each_failure_streams_an_error_event_before_done(
    openai_server: FakeOpenAIServer,
    sleeps: Sleeps,
    channel: str,
    structured: Reply,
    streamed: Reply,
    code: str,
    says: str,
) -> None:
    question = _script(openai_server, channel, structured, streamed)

    run = ask(question, demo_store(), _failing_provider(openai_server, sleeps))

    assert run.kinds == ["meta", "error", "sources", "done"]
    assert run.events[1].data == {"code": code, "message": run.answer.text}
    assert run.events[2].data == []
    _assert_error_answer(run.answer, code, says, openai_server.base_url)


@pytest.mark.parametrize(
    "ask_with",
    [
        pytest.param(lambda q, store, p: answer_question(q, store, p), id="answer_question"),
        pytest.param(lambda q, store, p: ask(q, store, p).answer, id="stream"),
    ],
)
@pytest.mark.parametrize("question", [QUESTION, NARRATIVE], ids=["structured", "narrative"])
def test_connection_refused_ends_as_an_error_answer_after_the_bounded_retries(
    sleeps: Sleeps, question: str, ask_with: Callable[[str, KnowledgeStore, Any], Any]
) -> None:
    base_url = refused_base_url()
    provider = provider_for(base_url, sleeps, max_retries=2)

    answer = ask_with(question, demo_store(), provider)

    _assert_error_answer(answer, "ProviderUnavailable", "could not reach the server", base_url)
    assert sleeps == [0.5, 1.0]


def test_a_failure_after_the_model_fetched_a_fact_still_gives_no_figure(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    fetch = tool_call(
        "get_facts", '{"entity": "Apple", "metric": "Revenue", "periods": ["FY2023"]}'
    )
    openai_server.reply(completion(tool_calls=[fetch]), *[error(503)] * 3)

    run = ask(QUESTION, demo_store(), _failing_provider(openai_server, sleeps))

    _assert_error_answer(run.answer, "ProviderUnavailable", "HTTP 503", openai_server.base_url)
    assert "delta" not in run.kinds
    assert places_holding(["383.3", "383285", "fact:"], answer=run.answer, run=run) == []
    assert len(openai_server.requests) == 4


def test_a_transient_failure_is_retried_and_the_answer_is_the_usual_one(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    fetch = tool_call(
        "get_facts", '{"entity": "Apple", "metric": "Revenue", "periods": ["FY2023"]}'
    )
    openai_server.reply(error(502), completion(tool_calls=[fetch]), error(429), completion("Ok."))

    answer = answer_question(QUESTION, demo_store(), _failing_provider(openai_server, sleeps))

    assert (answer.status, answer.text) == (
        "found",
        "Apple's Revenue in FY2023 was USD 383.3 billion [1].",
    )
    assert sleeps == [0.5, 0.5]  # each call has its own budget of attempts


@pytest.mark.parametrize(
    ("reply", "code", "says"),
    [
        pytest.param(error(401, "Invalid key"), "ProviderError", "(HTTP 401)", id="401"),
        pytest.param(error(404, "no such model"), "ProviderError", "(HTTP 404)", id="404"),
        pytest.param(raw(b"<html>bad gateway</html>"), "ProviderBadResponse", "not JSON",
                     id="html"),
    ],
)  # fmt: skip
def test_a_failure_retrying_cannot_fix_ends_at_once(
    openai_server: FakeOpenAIServer, sleeps: Sleeps, reply: Reply, code: str, says: str
) -> None:
    openai_server.reply(reply, completion("never asked for"))

    run = ask(QUESTION, demo_store(), _failing_provider(openai_server, sleeps))

    assert (run.answer.status, run.answer.reason) == ("error", code)
    assert says in run.answer.text
    assert run.answer.text.endswith("(after 1 attempt)")
    assert (len(openai_server.requests), sleeps) == (1, [])
    assert run.kinds == ["meta", "error", "sources", "done"]


def test_a_retry_after_beyond_the_cap_fails_at_once_and_says_why(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    openai_server.reply(error(429, retry_after="120"), completion("never asked for"))

    answer = answer_question(QUESTION, demo_store(), _failing_provider(openai_server, sleeps))

    assert (answer.status, answer.reason) == ("error", "ProviderRateLimited")
    assert "asked to wait 120 s, longer than the 20 s allowed" in answer.text
    assert (len(openai_server.requests), sleeps) == (1, [])


def test_a_key_the_server_echoes_never_reaches_the_answer_or_the_stream(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    openai_server.reply(error(401, f"Incorrect API key provided: {KEY}."))

    run = ask(QUESTION, demo_store(), _failing_provider(openai_server, sleeps))

    assert openai_server.requests[0].header("Authorization") == f"Bearer {KEY}"
    assert places_holding([KEY], answer=run.answer, run=run) == []
    assert "Incorrect API key provided: [redacted]." in run.answer.text  # the server's words stay
