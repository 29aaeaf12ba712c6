"""Document answers stay on the asked period and topic, or say plainly that nothing answers."""

from __future__ import annotations

from engine.answer import NO_PASSAGE_TEXT, answer_question
from engine.intent import Intent
from engine.narrative import FLOOR, OverlapReranker, Pipeline, StoreRetriever
from engine.passages import years
from engine.prompts import quoted_passages
from engine.providers.mock import MockProvider
from engine.store import InMemoryStore
from engine.topic import question_topic, text_words
from engine.types import Answer, Passage, Term
from tests.demo_store import demo_store
from tests.engine_doubles import RecordingProvider

PUBLIC = frozenset({"PUBLIC"})


def _cited(answer: Answer) -> list[str]:
    return [s.excerpt[a:b] for s in answer.sources for a, b in s.spans]


# --- the asked period -------------------------------------------------------------------------


def test_a_question_about_a_year_is_answered_from_that_year_s_documents() -> None:
    answer = answer_question(
        "What did Microsoft say about the Activision Blizzard acquisition in fiscal 2024?",
        demo_store(),
        MockProvider(),
    )

    assert answer.status == "answered"
    assert {(s.entity, s.period) for s in answer.sources} == {("Microsoft", "FY2024")}
    assert all("Activision Blizzard" in sentence for sentence in _cited(answer))


def test_a_year_nothing_answers_is_said_plainly_with_the_years_that_do() -> None:
    provider = RecordingProvider()

    answer = answer_question(
        "Why did Microsoft's operating income grow in FY2024?", demo_store(), provider
    )

    assert answer.status == "not_found"
    assert answer.text == (
        "The knowledge base holds no FY2024 passage about Microsoft that answers this; "
        "it holds passages on it for FY2025."
    )
    assert answer.sources == () and provider.requests == []
    assert [c.to_dict() for c in answer.choices] == [
        {"label": "FY2025", "question": "Why did Microsoft's operating income grow in FY2025?"}
    ]


def _notes(*passages: Passage) -> InMemoryStore:
    return InMemoryStore(entities=[Term("Acme"), Term("Other")], passages=passages)


SPENDING = Passage(
    "p:1", "d:1", "Acme research spending", (
        "Acme keeps raising research spending. Research spending was $1.2 billion in fiscal "
        "2023. It rose to $1.5 billion in fiscal 2025 from $1.3 billion in fiscal 2024."
    ), "PUBLIC", entity="Acme", period="FY2025",
)  # fmt: skip


def test_another_year_s_document_lends_only_its_sentences_about_the_asked_year() -> None:
    provider = RecordingProvider()

    answer = answer_question(
        "What did Acme say about research spending in fiscal 2023?", _notes(SPENDING), provider
    )

    assert answer.status == "answered"
    (source,) = answer.sources
    assert source.excerpt == "Research spending was $1.2 billion in fiscal 2023."
    assert "1.5 billion" not in provider.wire(), "a sentence about 2025 never reaches the model"


def test_the_document_s_own_later_years_are_left_out_of_the_answer() -> None:
    answer = answer_question("Why did Apple's revenue dip in fiscal 2023?", demo_store(),
                             MockProvider())  # fmt: skip

    assert answer.status == "answered"
    assert "fell to $383.3 billion in fiscal 2023" in answer.text
    assert "391.0" not in answer.text and "416.2" not in answer.text  # the 2024-25 recovery


# --- the relevance floor ----------------------------------------------------------------------


def test_below_the_floor_no_passage_answers_and_no_model_is_asked() -> None:
    provider = RecordingProvider()

    answer = answer_question("What are Apple's main risks?", demo_store(), provider)

    assert (answer.status, answer.text) == ("not_found", NO_PASSAGE_TEXT)
    assert provider.requests == []


def test_the_floor_is_what_keeps_a_weak_match_from_the_model() -> None:
    # Reverse proof: with no floor, Microsoft's FY2024 highlights (which say "increased" but
    # nothing about operating income) are sent to the model for this question.
    question = "Why did Microsoft's operating income grow in FY2024?"
    no_floor = Pipeline(StoreRetriever(demo_store()), reranker=OverlapReranker(floor=0.0))
    provider = RecordingProvider()

    answer_question(question, demo_store(), provider, pipeline=no_floor)

    given = quoted_passages(provider.requests[-1][-1]["content"])
    assert {(p.company, p.period) for p in given} == {("Microsoft", "FY2024")}


def test_a_real_model_is_given_only_passages_above_the_floor() -> None:
    provider = RecordingProvider()
    question = "What drove Apple's services growth?"

    answer_question(question, demo_store(), provider)

    topic = question_topic(question, names=["Apple"])
    given = quoted_passages(provider.requests[-1][-1]["content"])
    assert given, "the model was asked"
    assert all(topic.coverage(text_words(p.text)) >= FLOOR for p in given)
    assert all(p.company == "Apple" for p in given)


def test_every_passage_given_to_a_model_says_whose_and_of_which_year_it_is() -> None:
    provider = RecordingProvider()

    answer_question("What did the notes say about data centres?", demo_store(), provider)

    given = quoted_passages(provider.requests[-1][-1]["content"])
    assert len({p.company for p in given}) > 1, "a question naming no company searches all"
    assert all(p.company and p.period for p in given)


# --- the sentences quoted ---------------------------------------------------------------------


def test_quoted_sentences_are_about_the_topic_in_the_order_the_passages_give_them() -> None:
    answer = answer_question("What drove Apple's services growth?", demo_store(), MockProvider())

    cited = _cited(answer)
    assert answer.status == "answered" and cited
    assert all("Services" in sentence for sentence in cited)
    positions = [(answer.sources.index(s), a) for s in answer.sources for a, _ in s.spans]
    assert positions == sorted(positions)


def test_headings_footers_tables_and_verbless_bullets_are_never_quoted() -> None:
    answer = answer_question("Which products did Apple announce in fiscal 2022?", demo_store(),
                             MockProvider())  # fmt: skip

    assert answer.status == "answered"
    for debris in ("Highlights", "Third generation of AirPods", "Form 10-K |", "2022:"):
        assert debris not in answer.text


def test_list_items_are_quoted_only_when_no_sentence_answers_and_they_name_the_topic() -> None:
    listed = answer_question("What did Apple say about AirPods in fiscal 2022?", demo_store(),
                             MockProvider())  # fmt: skip

    assert listed.text == "Third generation of AirPods [1]. Second generation of AirPods Pro [2]."


def test_an_answer_that_covers_part_of_the_question_says_what_it_leaves_out() -> None:
    answer = answer_question(
        "What did Netflix say about paid sharing and advertising in FY2023?",
        demo_store(),
        MockProvider(),
    )

    assert answer.status == "answered"
    assert "paid sharing added members" in answer.text
    assert answer.text.endswith("The passages quoted do not mention “advertising”.")


def test_each_source_marks_the_sentences_the_answer_quotes() -> None:
    answer = answer_question("Why did Boeing's losses narrow in fiscal 2023?", demo_store(),
                             MockProvider())  # fmt: skip

    for source in answer.sources:
        assert source.spans
        for start, end in source.spans:
            assert source.excerpt[start:end].rstrip(".") in answer.text
    data = answer.sources[0].to_dict()
    assert data["cited_spans"] == [{"start": a, "end": b} for a, b in answer.sources[0].spans]
    assert (data["entity"], data["period"]) == ("Boeing", "FY2023")


def test_the_reranker_still_drops_what_the_caller_may_not_see() -> None:
    internal = Passage("p:9", "d:9", "Memo", "Acme research spending memo.", "INTERNAL",
                       entity="Acme")  # fmt: skip
    intent = Intent(question="Acme research spending", kind="narrative")

    assert OverlapReranker().rerank([internal, SPENDING], intent=intent, clearance=PUBLIC) == [
        OverlapReranker().rerank([SPENDING], intent=intent, clearance=PUBLIC)[0]
    ]
    assert years(SPENDING.text) == {2023, 2024, 2025}
