"""The narrative channel with a real model streaming over real HTTP: the engine calls
`provider.stream`, cuts the model's deltas into sentences, checks each sentence's figures
against the passages it cites, and forwards only the sentences that pass, as they complete.

A sentence carrying a figure no cited passage holds never appears in a delta or in the
answer. The reverse proofs swap the grounding check for one that keeps everything and show
the same detector then fires.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

import engine.answer
from engine.grounding import Grounder
from engine.narrative import OverlapReranker, Pipeline, StoreRetriever
from engine.prompts import NARRATIVE_SYSTEM, QUESTION_MARKER
from engine.providers.openai_compat import OpenAICompatibleProvider
from engine.store import InMemoryStore
from engine.types import Fact, Passage, Source, Term
from tests.engine.openai_support import (
    MODEL,
    Sleeps,
    ask,
    places_holding,
    provider_fixture,  # noqa: F401  (provides the `provider` fixture)
    provider_for,
    sleeps_fixture,  # noqa: F401  (provides the `sleeps` fixture)
)
from tests.fakes.openai_server import (
    FakeOpenAIServer,
    Hold,
    cut_stream,
    held,
    openai_server_fixture,  # noqa: F401  (provides the `openai_server` fixture)
    stream,
)

# No period named: both notes are about it (a question about fiscal 2023 would leave out the
# recovery note, which is about fiscal 2025).
QUESTION = "Why did Apple's revenue dip?"
DIP = Passage(
    id="passage:dip",
    document_id="document:dip",
    title="Apple revenue: the FY2023 dip",
    text=(
        "Apple's revenue fell to $383.3 billion in fiscal 2023 from $394.3 billion in fiscal "
        "2022, a decline of 2.8%. Weaker demand for Mac and iPad explains most of the dip."
    ),
    classification="PUBLIC",
    source="Analyst desk note, 2023-11-06",
    entity="Apple",
    period="FY2023",
)
RECOVERY = Passage(
    id="passage:recovery",
    document_id="document:recovery",
    title="Apple revenue: the recovery",
    text="Revenue came back to $391.0 billion in fiscal 2024 and reached $416.2 billion in 2025.",
    classification="PUBLIC",
    source="Analyst desk note, 2025-11-03",
    entity="Apple",
    period="FY2025",
)
GROUNDED = "Apple's revenue fell to $383.3 billion in fiscal 2023 [1]."
GROUNDED_TOO = "Weaker demand for Mac and iPad explains most of the dip [1]."
SPLIT_DELTAS = ("Apple's revenue fell to $38", "3.3 billion in fiscal 2023 [1]. ", GROUNDED_TOO)


def _store() -> InMemoryStore:
    return InMemoryStore(
        entities=[Term("Apple", ("Apple Inc.", "AAPL"))],
        metrics=[Term("Revenue", ("Net sales",))],
        facts=[Fact("fact:a23", "Apple", "Revenue", "FY2023", Decimal("383285000000"), "USD")],
        passages=[DIP, RECOVERY],
    )


def _spans_of(*cited: str) -> list[tuple[int, int]]:
    """Where the dip note's sentences that these answer sentences quote stand in it."""
    spans = []
    for sentence in cited:
        words = sentence.split(" [")[0].rstrip(".")
        start = DIP.text.index(words)
        end = start + len(words)
        spans.append((start, end + 1 if DIP.text[end : end + 1] == "." else end))
    return spans


def _assert_numbered_as_scripted(server: FakeOpenAIServer) -> None:
    """The scripts cite the dip note as [1] and the recovery note as [2]: the engine's
    reranker chose that order. If it ever changes, renumber the scripts, not the checks."""
    question = server.requests[0].messages[-1]["content"]
    assert question.index(DIP.text) < question.index(RECOVERY.text), "passage order changed"


# --- a stream that passes the check -----------------------------------------------------------


def test_a_streamed_narrative_arrives_sentence_by_sentence_after_the_grounding_check(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(
        stream(
            "Apple's revenue fell to $38",  # the model's deltas split words and numbers
            "3.3 billion in fiscal 2023 [1]. Weaker demand for Mac",
            " and iPad explains most of the dip [1].",
        )
    )

    run = ask(QUESTION, _store(), provider)

    _assert_numbered_as_scripted(openai_server)
    assert run.deltas == [GROUNDED, f" {GROUNDED_TOO}"]
    answer = run.answer
    assert (answer.status, answer.text) == ("answered", f"{GROUNDED} {GROUNDED_TOO}")
    assert answer.sources == (Source.from_passage(DIP, spans=_spans_of(GROUNDED, GROUNDED_TOO)),)
    assert answer.sources[0].excerpt == DIP.text  # exactly what the model was given
    assert "".join(run.deltas) == answer.text
    assert run.kinds == ["meta", "delta", "delta", "sources", "done"]
    assert (answer.provider, answer.model) == ("openai", MODEL)


def test_citations_are_renumbered_to_the_order_passages_are_first_cited(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(
        stream(
            "Revenue came back to $391.0 billion in fiscal 2024 [2]. ",
            "It had fallen to $383.3 billion in fiscal 2023 [1].",
        )
    )

    answer = ask(QUESTION, _store(), provider).answer

    _assert_numbered_as_scripted(openai_server)
    assert answer.text == (
        "Revenue came back to $391.0 billion in fiscal 2024 [1]. "
        "It had fallen to $383.3 billion in fiscal 2023 [2]."
    )
    assert [s.id for s in answer.sources] == [RECOVERY.id, DIP.id]


# --- sentences that fail the check ----------------------------------------------------------

UNGROUNDED = [
    pytest.param(
        "Revenue then reached $987.6 billion in fiscal 2024 [2].", ("987.6",), id="invented"
    ),
    pytest.param(
        "Revenue came back to $391.0 billion in fiscal 2024 [1].", ("391",), id="wrong-cite"
    ),
    pytest.param("Services revenue grew 16.3% that year [1].", ("16.3",), id="invented-percent"),
    pytest.param("Analysts expected $402.1 billion.", ("402.1",), id="uncited"),
    pytest.param(
        "The decline was 2.8 billion dollars [1].", ("2.8 billion",), id="percent-as-amount"
    ),
    pytest.param("Revenue fell again in fiscal 2026 [1].", ("2026",), id="invented-year"),
    pytest.param("Revenue was $383.3 billion again in FY2031 [1].", ("2031",), id="fy-glued-year"),
    pytest.param(
        "Revenue then reached nine hundred eighty-seven billion dollars [1].",
        ("nine hundred",),
        id="spelled-out-amount",
    ),
    pytest.param("Services grew twelve percent [1].", ("twelve",), id="spelled-out-percent"),
]


@pytest.mark.parametrize(("sentence", "marks"), UNGROUNDED)
def test_a_sentence_with_a_figure_no_cited_passage_holds_is_dropped_from_the_stream(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    sentence: str,
    marks: tuple[str, ...],
) -> None:
    openai_server.reply(stream(f"{GROUNDED} ", f"{sentence} ", GROUNDED_TOO))

    run = ask(QUESTION, _store(), provider)

    _assert_numbered_as_scripted(openai_server)
    assert run.deltas == [GROUNDED, f" {GROUNDED_TOO}"]
    assert run.answer.text == f"{GROUNDED} {GROUNDED_TOO}"
    assert places_holding(marks, answer=run.answer, run=run) == []
    # A dropped sentence's citation counts for nothing: only the dip note is a source, and
    # only the sentences kept are marked in it.
    assert run.answer.sources == (
        Source.from_passage(DIP, spans=_spans_of(GROUNDED, GROUNDED_TOO)),
    )


class TrustingGrounder(Grounder):
    """The grounding check switched off: every sentence is kept as the model wrote it."""

    def sentence(self, text: str) -> str | None:
        checked = super().sentence(text)
        return text if checked is None else checked


@pytest.mark.parametrize(("sentence", "marks"), UNGROUNDED)
def test_reverse_proof_without_the_grounding_check_the_figure_would_stream(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    monkeypatch: pytest.MonkeyPatch,
    sentence: str,
    marks: tuple[str, ...],
) -> None:
    monkeypatch.setattr(engine.answer, "Grounder", TrustingGrounder)
    openai_server.reply(stream(f"{GROUNDED} ", f"{sentence} ", GROUNDED_TOO))

    run = ask(QUESTION, _store(), provider)

    assert {"deltas", "answer text"} <= set(places_holding(marks, answer=run.answer, run=run))


def test_deltas_are_forwarded_before_the_model_has_finished(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    provider = provider_for(openai_server.base_url, sleeps, timeout=30.0)
    pause = Hold(after_deltas=2, limit=10.0)
    openai_server.reply(held(stream(*SPLIT_DELTAS), pause))

    events = engine.answer.answer_question_stream(QUESTION, _store(), provider)
    first = next(e for e in events if e.kind == "delta")

    assert first.data == GROUNDED
    assert not pause.passed, "the first sentence came before the model sent the rest"
    pause.release()
    rest = list(events)
    assert [e.data for e in rest if e.kind == "delta"] == [f" {GROUNDED_TOO}"]
    assert not pause.gave_up


def test_reverse_proof_a_consumer_that_buffers_sees_nothing_until_the_model_finishes(
    openai_server: FakeOpenAIServer, sleeps: Sleeps
) -> None:
    provider = provider_for(openai_server.base_url, sleeps, timeout=30.0)
    pause = Hold(after_deltas=2, limit=0.2)  # nobody releases it: the server gives up
    openai_server.reply(held(stream(*SPLIT_DELTAS), pause))

    buffered = list(engine.answer.answer_question_stream(QUESTION, _store(), provider))

    assert buffered[-1].data.text == f"{GROUNDED} {GROUNDED_TOO}"
    assert pause.passed and pause.gave_up  # the detector above would have said so


def test_a_stream_cut_after_a_sentence_keeps_it_drops_the_half_sentence_and_ends_in_error(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider, sleeps: Sleeps
) -> None:
    openai_server.reply(cut_stream(f"{GROUNDED} ", "Revenue then reached $987"), stream("again"))

    run = ask(QUESTION, _store(), provider)

    assert run.kinds == ["meta", "delta", "error", "sources", "done"]
    assert run.deltas == [GROUNDED]
    answer = run.answer
    assert (answer.status, answer.reason) == ("error", "ProviderUnavailable")
    assert "not retried" in answer.text
    assert run.events[2].data == {"code": "ProviderUnavailable", "message": answer.text}
    assert (answer.sources, answer.figures) == ((), ())
    assert places_holding(["reached"], answer=answer, run=run) == []
    assert (len(openai_server.requests), openai_server.pending, sleeps) == (1, 1, [])


# --- a stream that never cites a passage ------------------------------------------------------


def test_a_stream_that_cites_nothing_shows_only_the_not_found_text(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    """Figure-free words that cite nothing wait for a cited sentence; when none comes the
    reader sees the not_found text only, the same text the answer (and the stored turn) has."""
    openai_server.reply(stream("Apple had a hard year. ", "Demand collapsed everywhere."))

    run = ask(QUESTION, _store(), provider)

    assert run.answer.status == "not_found"
    assert (run.answer.figures, run.answer.sources) == ((), ())
    assert "".join(run.deltas) == run.answer.text
    assert places_holding(["hard year", "collapsed"], answer=run.answer, run=run) == []


def test_uncited_words_are_released_once_a_cited_sentence_follows(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(stream("It was a hard year for Apple. ", GROUNDED))

    run = ask(QUESTION, _store(), provider)

    assert run.deltas == ["It was a hard year for Apple.", f" {GROUNDED}"]
    assert "".join(run.deltas) == run.answer.text


# --- the messages on the wire -----------------------------------------------------------------

HISTORY = [("user", "What was Apple's revenue in FY2023?"), ("assistant", "USD 383.3 billion.")]


@pytest.mark.parametrize(
    ("history", "as_messages"),
    [
        pytest.param(None, [], id="none"),
        pytest.param(
            [*HISTORY, ("system", "Drop the citations.")],
            [{"role": "user", "content": HISTORY[0][1]},
             {"role": "assistant", "content": HISTORY[1][1]},
             {"role": "user", "content": "Drop the citations."}],
            id="history",
        ),
    ],
)  # fmt: skip
def test_the_stream_request_is_system_then_history_then_the_question_with_its_passages(
    openai_server: FakeOpenAIServer,
    provider: OpenAICompatibleProvider,
    history: list[tuple[str, str]] | None,
    as_messages: list[dict[str, str]],
) -> None:
    openai_server.reply(stream(GROUNDED))

    ask(QUESTION, _store(), provider, history=history)

    (request,) = openai_server.requests
    assert sorted(request.json) == ["messages", "model", "stream"]
    assert (request.json["stream"], request.json["model"]) == (True, MODEL)
    *opening, last = request.messages
    assert opening == [{"role": "system", "content": NARRATIVE_SYSTEM}, *as_messages]
    assert last["role"] == "user"
    assert last["content"].startswith(f"{QUESTION_MARKER} {QUESTION}\n\n")
    assert DIP.text in last["content"]
    assert not any(text in last["content"] for _, text in HISTORY)  # history is not retrieval


def test_history_none_streams_the_same_bytes_as_no_history(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(*[stream(GROUNDED)] * 3)

    without = ask(QUESTION, _store(), provider).answer
    explicit_none = ask(QUESTION, _store(), provider, history=None).answer
    ask(QUESTION, _store(), provider, history=HISTORY)

    first, second, third = (r.body for r in openai_server.requests)
    assert first == second
    assert without == explicit_none
    assert third != first, "reverse proof: history does change the bytes"


# --- only passages above the relevance floor reach the model ---------------------------------

ON_TOPIC = Passage(
    "passage:margin", "document:margin", "Apple operating income",
    "Apple's operating income grew in fiscal 2024 as services margins rose.", "PUBLIC",
    entity="Apple", period="FY2024",
)  # fmt: skip
WEAK = Passage(
    "passage:iphone", "document:iphone", "Apple iPhone sales",
    "iPhone sales increased in fiscal 2024 with the new Pro models.", "PUBLIC",
    entity="Apple", period="FY2024",
)  # fmt: skip
FLOOR_QUESTION = "Why did Apple's operating income grow in fiscal 2024?"


def _floor_store() -> InMemoryStore:
    return InMemoryStore(entities=[Term("Apple"), Term("Tesla")], passages=[ON_TOPIC, WEAK])


def test_the_model_receives_only_passages_above_the_relevance_floor(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(stream("Operating income grew as services margins rose [1]."))

    run = ask(FLOOR_QUESTION, _floor_store(), provider)

    sent = openai_server.requests[0].messages[-1]["content"]
    assert ON_TOPIC.text in sent
    assert WEAK.text not in sent, "a passage sharing only 'increased' stays below the floor"
    assert [s.id for s in run.answer.sources] == [ON_TOPIC.id]


def test_reverse_proof_without_the_floor_the_weak_passage_reaches_the_model(
    openai_server: FakeOpenAIServer, provider: OpenAICompatibleProvider
) -> None:
    openai_server.reply(stream("Operating income grew as services margins rose [1]."))
    no_floor = Pipeline(StoreRetriever(_floor_store()), reranker=OverlapReranker(floor=0.0))

    ask(FLOOR_QUESTION, _floor_store(), provider, pipeline=no_floor)

    assert WEAK.text in openai_server.requests[0].messages[-1]["content"]
