"""Shared by the tests that drive answer_question over real HTTP: a provider pointed at the
fake OpenAI-compatible server, one run of the engine's stream kept whole, and a detector that
says where a string turned up (the answer, its figures, its sources, the stream, the wire).

Import the fixtures into a test module as phase 1 does with `openai_server_fixture`:

    from tests.engine.openai_support import provider_fixture, sleeps_fixture  # noqa: F401
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engine.answer import answer_question_stream
from engine.providers.base import Completion, Message, ToolSchema
from engine.providers.openai_compat import OpenAICompatibleProvider
from engine.store import KnowledgeStore
from engine.tools import TOOL_SCHEMAS
from engine.types import Answer, Event, Fact
from tests.fakes.openai_server import FakeOpenAIServer, RecordedRequest

MODEL = "gpt-e2e"
KEY = "sk-e2e-3f9c0a7d21b84e65"
QUESTION = "What was Apple's revenue in FY2023?"
WIRE_TOOLS: list[dict[str, Any]] = json.loads(json.dumps(TOOL_SCHEMAS))


class Sleeps(list[float]):
    """The provider's injected sleep: records each wait between attempts instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture(name="sleeps")
def sleeps_fixture() -> Sleeps:
    return Sleeps()


def provider_for(base_url: str, sleeps: Sleeps, **options: Any) -> OpenAICompatibleProvider:
    """The real provider (real `openai` client) at `base_url`; jitter pinned so waits are exact."""
    settings: dict[str, Any] = {
        "model": MODEL,
        "api_key": KEY,
        "base_url": base_url,
        "timeout": 5.0,
        "sleep": sleeps,
        "jitter": lambda: 1.0,
    }
    return OpenAICompatibleProvider(**{**settings, **options})


@pytest.fixture(name="provider")
def provider_fixture(openai_server: FakeOpenAIServer, sleeps: Sleeps) -> OpenAICompatibleProvider:
    return provider_for(openai_server.base_url, sleeps)


# --- one run of the engine ------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """Every event answer_question_stream yielded, in order."""

    events: tuple[Event, ...]

    @property
    def answer(self) -> Answer:
        last = self.events[-1]
        assert last.kind == "done", f"the stream must end with done, not {last.kind}"
        answer: Answer = last.data
        return answer

    @property
    def kinds(self) -> list[str]:
        return [event.kind for event in self.events]

    @property
    def deltas(self) -> list[str]:
        return [event.data for event in self.events if event.kind == "delta"]

    def streamed(self) -> str:
        """Every event as one JSON text, the Answer of `done` included."""
        return json.dumps(
            [e.data.to_dict() if e.kind == "done" else e.data for e in self.events],
            ensure_ascii=False,
            default=str,
        )


def ask(question: str, store: KnowledgeStore, provider: Any, **options: Any) -> Run:
    return Run(tuple(answer_question_stream(question, store, provider, **options)))


class Listening:
    """Wraps a provider and keeps what the model said, as the provider read it off the wire:
    the reverse proofs build a 'trusting' answer from it."""

    def __init__(self, inner: OpenAICompatibleProvider) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.completions: list[Completion] = []
        self.streamed: list[str] = []

    def complete(
        self, messages: Sequence[Message], *, tools: Sequence[ToolSchema] | None = None
    ) -> Completion:
        completion = self.inner.complete(messages, tools=tools)
        self.completions.append(completion)
        return completion

    def stream(self, messages: Sequence[Message]) -> Iterator[str]:
        for delta in self.inner.stream(messages):
            self.streamed.append(delta)
            yield delta


def trusting_answer(said: str) -> Answer:
    """What an engine that believed its model would have answered."""
    return Answer(text=said, status="found")


# --- the wire -------------------------------------------------------------------------------


def wire(server: FakeOpenAIServer, *, after: int = 0) -> str:
    """The bodies of every request the server received, from request number `after` on."""
    return "\n".join(r.body.decode("utf-8") for r in server.requests[after:])


def tool_results(request: RecordedRequest) -> dict[str, Any]:
    """The tool messages of a request, by tool_call_id, their content read as JSON."""
    return {
        m["tool_call_id"]: json.loads(m["content"]) for m in request.messages if m["role"] == "tool"
    }


def assert_every_tool_call_answered_once(messages: Sequence[dict[str, Any]]) -> None:
    """OpenAI's rule: the tool messages right after an assistant message answer each of its
    tool calls exactly once, and nothing else. A server rejects a request that breaks it."""
    for index, message in enumerate(messages):
        calls = [call["id"] for call in message.get("tool_calls") or ()]
        if not calls:
            continue
        answered = []
        for follower in messages[index + 1 :]:
            if follower["role"] != "tool":
                break
            answered.append(follower["tool_call_id"])
        assert sorted(answered) == sorted(calls), (calls, answered)


# --- where a string turned up ---------------------------------------------------------------


def places_holding(
    needles: Iterable[str],
    *,
    answer: Answer,
    run: Run | None = None,
    server: FakeOpenAIServer | None = None,
    after: int = 0,
) -> list[str]:
    """The places any of `needles` appears in: the answer's text, figures and sources, the
    streamed deltas and events, and the requests to the model from number `after` on."""
    places = {
        "answer text": answer.text,
        "figures": json.dumps([f.to_dict() for f in answer.figures]),
        "sources": json.dumps([s.to_dict() for s in answer.sources], ensure_ascii=False),
    }
    if run is not None:
        places["deltas"] = "".join(run.deltas)
        places["events"] = run.streamed()
    if server is not None:
        places["requests to the model"] = wire(server, after=after)
    wanted = list(needles)
    return [where for where, text in places.items() if any(n in text for n in wanted)]


def only_fact(store: KnowledgeStore, entity: str, metric: str, period: str) -> Fact:
    (fact,) = store.find_facts(entity=entity, metric=metric, periods=[period])
    return fact
