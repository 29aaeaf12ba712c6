"""RESTRICTED material never reaches a real model over the wire, whatever the model asks for.

A model can call get_document with any id and get_facts with any names. These tests hand it a
store holding RESTRICTED (and INTERNAL, and unclassified) documents and a RESTRICTED fact, each
carrying a canary, and search every later request body to the fake server, the answer, its
sources and the streamed events for the canaries. The reverse proofs swap in a tool layer
without its classification guard and show the same search finds them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest

import engine.answer
from engine.intent import Intent
from engine.narrative import Pipeline
from engine.providers.base import ToolCall
from engine.providers.openai_compat import OpenAICompatibleProvider
from engine.store import InMemoryStore
from engine.tools import Toolbox
from engine.types import CLASSIFICATIONS, DEFAULT_CLEARANCE, Fact, Passage, Term
from tests.canaries import (
    CANARY_CODES,
    CANARY_INTERNAL,
    CANARY_RESTRICTED,
    CANARY_RESTRICTED_TESLA,
)
from tests.demo_store import demo_store
from tests.engine.openai_support import (
    ask,
    places_holding,
    provider_fixture,  # noqa: F401  (provides the `provider` fixture)
    sleeps_fixture,  # noqa: F401  (provides the `sleeps` fixture)
    tool_results,
)
from tests.fakes.openai_server import (
    FakeOpenAIServer,
    completion,
    openai_server_fixture,  # noqa: F401  (provides the `openai_server` fixture)
    stream,
    tool_call,
)

RESTRICTED_CODES = CANARY_CODES["RESTRICTED"]
SECRET_VALUE = Decimal("271828182845")  # the RESTRICTED fact's value: no other fact holds it
SECRET_MARKS = (*RESTRICTED_CODES, "271828182845", "271.8")
PUBLIC_MARK = "PUBLIC-NOTE-4411"
QUESTION = "What was Apple's revenue in FY2024?"
NOT_AVAILABLE = {"error": "no document with that id is available to you"}

ALL_CLEARANCES = [
    pytest.param(DEFAULT_CLEARANCE, id="public"),
    pytest.param(frozenset({"PUBLIC", "INTERNAL"}), id="internal"),
    pytest.param(frozenset(CLASSIFICATIONS), id="even-with-restricted-in-the-clearance"),
]


def _passage(document: str, text: str, classification: str | None) -> Passage:
    return Passage(f"{document}#0", document, document.title(), text, classification, "memo")


def _store() -> InMemoryStore:
    return InMemoryStore(
        entities=[Term("Apple", ("Apple Inc.", "AAPL"))],
        metrics=[Term("Revenue", ("Net sales",))],
        facts=[
            Fact("fact:fy2022", "Apple", "Revenue", "FY2022", Decimal("394328000000"), "USD"),
            Fact("fact:fy2023", "Apple", "Revenue", "FY2023", Decimal("383285000000"), "USD"),
            Fact(
                "fact:board-fy2024",
                "Apple",
                "Revenue",
                "FY2024",
                SECRET_VALUE,
                "USD",
                classification="RESTRICTED",
                source=f"Board pack, {CANARY_RESTRICTED_TESLA}",
            ),
        ],
        passages=[
            _passage("document:public-note", f"Apple note {PUBLIC_MARK}.", "PUBLIC"),
            _passage("document:capacity-memo", f"Capacity memo {CANARY_INTERNAL}.", "INTERNAL"),
            _passage("document:board-memo", f"Deal memo {CANARY_RESTRICTED}.", "RESTRICTED"),
            _passage("document:unlabelled", f"Old memo {CANARY_RESTRICTED}.", None),
            _passage("document:secret", f"Odd memo {CANARY_RESTRICTED}.", "SECRET"),
        ],
    )


def _get_document(document_id: str, call_id: str = "doc") -> dict[str, Any]:
    return tool_call("get_document", json.dumps({"document_id": document_id}), id=call_id)


def _get_facts(arguments: dict[str, Any], call_id: str = "facts") -> dict[str, Any]:
    return tool_call("get_facts", json.dumps(arguments), id=call_id)


class LeakyToolbox(Toolbox):
    """A tool layer with its classification guard removed: it reads with every
    classification, whatever the caller's clearance."""

    def run(self, call: ToolCall) -> str:
        args = json.loads(call.arguments)
        if call.name == "get_facts":
            found = self.store.find_facts(
                entity=args["entity"], metric=args["metric"], periods=args.get("periods")
            )
            self.facts.update({fact.id: fact for fact in found})
            return json.dumps(
                {"facts": [{"id": f.id, "value": str(f.value), "source": f.source} for f in found]}
            )
        if call.name == "get_document":
            passages = self.store.document_passages(
                args["document_id"], classifications=frozenset(CLASSIFICATIONS)
            )
            return json.dumps({"passages": [p.text for p in passages]})
        return super().run(call)


# --- get_document -----------------------------------------------------------------------------


@pytest.mark.parametrize("clearance", ALL_CLEARANCES)
@pytest.mark.parametrize(
    "document_id", ["document:board-memo", "  document:board-memo  ", "document:unlabelled"]
)
def test_get_document_on_a_restricted_id_gets_only_an_error_object(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    clearance: frozenset[str],
    document_id: str,
) -> None:
    openai_server.reply(
        completion(tool_calls=[_get_document(document_id)]),
        completion("The memo is clear: revenue will be $271.8 billion."),
    )

    run = ask("What was Apple's revenue in FY2023?", _store(), provider, clearance=clearance)

    assert tool_results(openai_server.requests[1])["doc"] == NOT_AVAILABLE
    assert places_holding(RESTRICTED_CODES, answer=run.answer, run=run, server=openai_server) == []
    assert all(s.classification != "RESTRICTED" for s in run.answer.sources)


def test_a_restricted_id_answers_exactly_like_a_missing_one(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    calls = [
        _get_document("document:board-memo", "restricted"),
        _get_document("document:secret", "unknown-class"),
        _get_document("document:never-existed", "missing"),
    ]
    openai_server.reply(completion(tool_calls=calls), completion("Ok."))

    ask("What was Apple's revenue in FY2023?", _store(), provider)

    results = tool_results(openai_server.requests[1])
    assert results == {"restricted": NOT_AVAILABLE, "unknown-class": NOT_AVAILABLE,
                       "missing": NOT_AVAILABLE}  # fmt: skip


@pytest.mark.parametrize(
    ("clearance", "sees_internal"),
    [(DEFAULT_CLEARANCE, False), (frozenset({"PUBLIC", "INTERNAL"}), True)],
)
def test_get_document_gives_what_the_clearance_allows_so_the_search_can_see_text(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    clearance: frozenset[str],
    sees_internal: bool,
) -> None:
    calls = [_get_document("document:public-note", "public"),
             _get_document("document:capacity-memo", "internal")]  # fmt: skip
    openai_server.reply(completion(tool_calls=calls), completion("Ok."))

    ask("What was Apple's revenue in FY2023?", _store(), provider, clearance=clearance)

    results = tool_results(openai_server.requests[1])
    assert PUBLIC_MARK in json.dumps(results["public"])
    internal_on_the_wire = CANARY_INTERNAL in openai_server.requests[1].body.decode()
    assert internal_on_the_wire is sees_internal
    assert (results["internal"] == NOT_AVAILABLE) is not sees_internal


def test_reverse_proof_a_toolbox_without_its_guard_puts_the_canary_on_the_wire(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine.answer, "Toolbox", LeakyToolbox)
    openai_server.reply(
        completion(tool_calls=[_get_document("document:board-memo")]), completion("Ok.")
    )

    run = ask("What was Apple's revenue in FY2023?", _store(), provider)

    leaks = places_holding(RESTRICTED_CODES, answer=run.answer, run=run, server=openai_server)
    assert leaks == ["requests to the model"]


# --- get_facts --------------------------------------------------------------------------------


@pytest.mark.parametrize("clearance", ALL_CLEARANCES)
def test_a_restricted_fact_is_never_returned_to_the_model_nor_rendered(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider, clearance: frozenset[str]
) -> None:
    openai_server.reply(
        completion(tool_calls=[
            _get_facts({"entity": "Apple", "metric": "Revenue", "periods": ["FY2024"]}, "asked"),
            _get_facts({"entity": "AAPL", "metric": "Net sales"}, "every-period"),
        ]),
        completion("Apple's revenue in FY2024 was $271.8 billion."),
    )  # fmt: skip

    run = ask(QUESTION, _store(), provider, clearance=clearance)

    results = tool_results(openai_server.requests[1])
    assert results["asked"] == {"facts": [], "missing": ["FY2024"]}
    assert [f["period"] for f in results["every-period"]["facts"]] == ["FY2022", "FY2023"]
    answer = run.answer
    assert (answer.status, answer.figures, answer.sources) == ("not_found", (), ())
    assert places_holding(SECRET_MARKS, answer=answer, run=run, server=openai_server) == []


def test_a_question_about_the_restricted_period_asks_the_model_nothing_it_could_leak(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(completion("Apple's revenue in FY2024 was $271.8 billion."))

    run = ask(QUESTION, _store(), provider)

    assert run.answer.status == "not_found"
    assert places_holding(SECRET_MARKS, answer=run.answer, run=run, server=openai_server) == []


def test_reverse_proof_a_toolbox_without_its_guard_leaks_and_renders_the_restricted_fact(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(engine.answer, "Toolbox", LeakyToolbox)
    openai_server.reply(
        completion(tool_calls=[
            _get_facts({"entity": "Apple", "metric": "Revenue", "periods": ["FY2024"]}, "asked")
        ]),
        completion("Ok."),
    )  # fmt: skip

    run = ask(QUESTION, _store(), provider)

    leaks = places_holding(SECRET_MARKS, answer=run.answer, run=run, server=openai_server)
    assert {"requests to the model", "answer text", "sources"} <= set(leaks)
    assert run.answer.status == "found"  # the render trusts the toolbox: the guard is there


def test_a_period_held_only_by_restricted_facts_never_reaches_the_model(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    forecast = Fact("fact:board-fy2031", "Apple", "Revenue", "FY2031", SECRET_VALUE, "USD",
                    classification="RESTRICTED", source="Board forecast")  # fmt: skip
    store = _store()
    store = InMemoryStore(
        entities=store.vocabulary().entities,
        metrics=store.vocabulary().metrics,
        facts=[*store.find_facts(entity="Apple", metric="Revenue"), forecast],
    )
    openai_server.reply(
        completion(tool_calls=[tool_call("find_names", '{"text": "Apple revenue"}', id="n")]),
        completion("Ok."),
    )

    ask("What was Apple's revenue in FY2023?", store, provider)

    assert "FY2031" not in openai_server.requests[1].body.decode()


# --- the narrative channel on the wire --------------------------------------------------------

# Words of the demo's RESTRICTED Apple memo, so full-text search ranks it first if allowed to.
# The memo's words, and public passages that answer part of it (Apple's services revenue), so
# the model is asked and the memo would rank first if an exit let it through.
MEMO_QUESTION = (
    "What does the Apple deal team memo say about acquisition targets that would add services "
    "revenue?"
)


class LeakyRetriever:
    """Ignores the caller's clearance: returns RESTRICTED passages as if they were public."""

    def retrieve(self, query: str, *, intent: Intent, clearance: frozenset[str]) -> list[Passage]:
        every = frozenset(CLASSIFICATIONS)
        return demo_store().search_passages(query, limit=20, classifications=every)


class PassThrough:
    """A link or rerank exit that checks nothing."""

    def link(self, passages: Sequence[Passage], **_: Any) -> list[Passage]:
        return list(passages)

    def rerank(self, passages: Sequence[Passage], **_: Any) -> list[Passage]:
        return list(passages)[:4]


def test_the_restricted_memo_never_reaches_the_streamed_request(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(stream("The passages do not describe any deal memo."))

    run = ask(MEMO_QUESTION, demo_store(), provider)

    assert len(openai_server.requests) == 1, "the model was asked, with the passages allowed"
    assert places_holding(RESTRICTED_CODES, answer=run.answer, run=run, server=openai_server) == []


def test_reverse_proof_with_both_exits_gone_the_memo_reaches_the_streamed_request(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    leaky = Pipeline(LeakyRetriever(), PassThrough(), PassThrough())
    openai_server.reply(stream("The passages do not describe any deal memo."))

    run = ask(MEMO_QUESTION, demo_store(), provider, pipeline=leaky)

    leaks = places_holding(RESTRICTED_CODES, answer=run.answer, run=run, server=openai_server)
    assert "requests to the model" in leaks
