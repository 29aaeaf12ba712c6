"""RESTRICTED material never reaches a model, an answer, a source list or a stream.

The narrative channel removes RESTRICTED passages twice, independently: at the link exit and
at the rerank exit. These tests drive a retriever that leaks on purpose (it returns RESTRICTED
passages the store would never give) and prove each exit holds alone, and that the detector
used here does see a leak when both exits are off, so the tests can fail.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engine.answer import answer_question_stream
from engine.intent import Intent
from engine.narrative import EntityLinker, OverlapReranker, Pipeline, StoreRetriever
from engine.session import ConversationSession
from engine.types import CLASSIFICATIONS, Answer, Passage
from tests.canaries import CANARY_CODES, CANARY_RESTRICTED
from tests.demo_store import demo_store
from tests.engine_doubles import RecordingProvider

# Words of the RESTRICTED Apple memo, so full-text search ranks it first if allowed to.
QUESTION = "What does the Apple deal team memo say about acquisition targets and walnut harbour?"
EARLIER = [
    ("user", "What was Apple's revenue in FY2025?"),
    ("assistant", "Apple's Revenue in FY2025 was USD 416.2 billion [1]."),
]


@dataclass(frozen=True)
class LeakyRetriever:
    """Ignores the caller's clearance: returns RESTRICTED passages as if they were public."""

    def retrieve(self, query: str, *, intent: Intent, clearance: frozenset[str]) -> list[Passage]:
        return demo_store().search_passages(
            query, limit=20, classifications=frozenset(CLASSIFICATIONS)
        )


class PassThroughLinker:
    def link(self, passages: Sequence[Passage], **_: Any) -> list[Passage]:
        return list(passages)


class PassThroughReranker:
    def rerank(self, passages: Sequence[Passage], **_: Any) -> list[Passage]:
        return list(passages)[:4]


def _run(pipeline: Pipeline | None, form: str) -> tuple[RecordingProvider, Answer, str]:
    provider = RecordingProvider()
    kwargs: dict[str, Any] = {}
    if form == "history list":
        kwargs["history"] = EARLIER
    elif form == "session":
        session = ConversationSession()
        for question in ("What was Apple's revenue in FY2025?", "and in FY2024?"):
            for _ in answer_question_stream(question, demo_store(), provider, session=session):
                pass
        kwargs.update(session=session, history=session.history())
    events = list(
        answer_question_stream(QUESTION, demo_store(), provider, pipeline=pipeline, **kwargs)
    )
    answer = events[-1].data
    streamed = json.dumps(
        [e.data if e.kind != "done" else e.data.to_dict() for e in events], default=str
    )
    return provider, answer, streamed


def leaked(provider: RecordingProvider, answer: Answer, streamed: str) -> list[str]:
    """Where a RESTRICTED canary shows up: the wire, the text, the sources or the stream."""
    places = {
        "provider messages": provider.wire(),
        "answer text": answer.text,
        "sources": json.dumps([s.to_dict() for s in answer.sources]),
        "streamed events": streamed,
    }
    codes = CANARY_CODES["RESTRICTED"]
    return [where for where, text in places.items() if any(code in text for code in codes)]


FORMS = ["no history", "history list", "session"]


@pytest.mark.parametrize("form", FORMS)
def test_restricted_memo_never_leaves_the_engine(form: str) -> None:
    provider, answer, streamed = _run(None, form)

    assert leaked(provider, answer, streamed) == []
    assert all(s.classification != "RESTRICTED" for s in answer.sources)


@pytest.mark.parametrize("form", FORMS)
def test_both_exits_hold_against_a_leaky_retriever(form: str) -> None:
    pipeline = Pipeline(retriever=LeakyRetriever())

    assert leaked(*_run(pipeline, form)) == []


@pytest.mark.parametrize("form", FORMS)
def test_rerank_exit_holds_when_the_link_exit_is_gone(form: str) -> None:
    pipeline = Pipeline(retriever=LeakyRetriever(), linker=PassThroughLinker())

    assert leaked(*_run(pipeline, form)) == []


@pytest.mark.parametrize("form", FORMS)
def test_link_exit_holds_when_the_rerank_exit_is_gone(form: str) -> None:
    pipeline = Pipeline(retriever=LeakyRetriever(), reranker=PassThroughReranker())

    assert leaked(*_run(pipeline, form)) == []


@pytest.mark.parametrize("form", FORMS)
def test_the_detector_sees_the_leak_when_both_exits_are_gone(form: str) -> None:
    pipeline = Pipeline(
        retriever=LeakyRetriever(), linker=PassThroughLinker(), reranker=PassThroughReranker()
    )

    places = leaked(*_run(pipeline, form))

    assert "provider messages" in places, "without both exits the memo reaches the model"


def test_the_leaky_retriever_really_returns_the_restricted_memo() -> None:
    intent = Intent(question=QUESTION, kind="narrative")
    found = LeakyRetriever().retrieve(QUESTION, intent=intent, clearance=frozenset({"PUBLIC"}))

    assert any(CANARY_RESTRICTED in p.text for p in found)
    assert StoreRetriever(demo_store()).retrieve(
        QUESTION, intent=intent, clearance=frozenset({"PUBLIC"})
    ), "the honest retriever still finds public passages for this question"


@pytest.mark.parametrize("classification", [None, "SECRET", "restricted", "", "RESTRICTED"])
def test_unknown_or_missing_classification_is_excluded_at_both_exits(
    classification: str | None,
) -> None:
    odd = Passage("p:1", "d:1", "Memo", "Apple revenue memo text", classification)
    intent = Intent(question="Apple revenue memo", kind="narrative")
    everything = frozenset({"PUBLIC", "INTERNAL", "SECRET", "restricted", ""})

    assert EntityLinker().link([odd], intent=intent, clearance=everything) == []
    assert OverlapReranker().rerank([odd], intent=intent, clearance=everything) == []
