"""A company the knowledge base does not hold is a plain not-found answer that names it, on
both channels, and the engine never answers it from other companies' documents."""

from __future__ import annotations

import pytest

from engine.answer import answer_question
from engine.names import company_mentions, unknown_companies
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import Passage, Term
from tests.demo_store import demo_store
from tests.engine_doubles import RecordingProvider

PUBLIC = frozenset({"PUBLIC"})

STRANGERS = [
    ("What was Dell's revenue in FY2023?", "Dell"),
    ("Why did Ferrari's operating income rise in 2023?", "Ferrari"),
    ("What drove capital expenditure for Marriott in 2022?", "Marriott"),
    ("What changed at Kraft Heinz in 2023?", "Kraft Heinz"),
    ("Does Moderna still spend heavily on research?", "Moderna"),
    ("How much cash did Infosys hold at the end of 2023?", "Infosys"),
    ("What did DAL say about fuel costs in 2023?", "DAL"),
    ("What was the net income of Rio Tinto in 2022?", "Rio Tinto"),
    ("What was Hilton Worldwide Corp's net income?", "Hilton Worldwide Corp"),
    ("What was eBay's revenue in 2021?", "eBay"),
    ("Compare Apple and Ericsson revenue in FY2023.", "Ericsson"),
    ("Was Netflix's revenue higher than Etsy's in 2023?", "Etsy"),
    ("What were the main risks Hershey disclosed in 2023?", "Hershey"),
    ("What was Marks & Spencer's revenue in 2023?", "Marks & Spencer"),
]


@pytest.mark.parametrize(("question", "name"), STRANGERS)
def test_a_company_the_knowledge_base_does_not_hold_is_not_found_by_name(
    question: str, name: str
) -> None:
    answer = answer_question(question, demo_store(), MockProvider())

    assert answer.status == "not_found"
    assert f"holds nothing about {name}" in answer.text
    assert answer.sources == () and answer.figures == ()


@pytest.mark.parametrize(
    "question",
    [
        "What was Dell's revenue in FY2023?",  # a lookup: the structured channel
        "Why did Dell's revenue fall in FY2023?",  # a why: the narrative channel
        "What did Dell say about supply chains?",
    ],
)
def test_the_search_is_never_widened_to_other_companies(question: str) -> None:
    provider = RecordingProvider()

    answer = answer_question(question, demo_store(), provider)

    assert answer.status == "not_found" and "Dell" in answer.text
    assert provider.requests == [], "no model was asked, no tool was run, nothing retrieved"


HELD = [
    "What did Google say about cloud revenue in FY2025?",  # an alias
    "What was JPM's net income in FY2025?",  # a ticker alias
    "What was Wal-Mart's revenue in FY2026?",
    "How did P&G's revenue change in FY2023?",
    "What was The Boeing Company's revenue in FY2023?",
    "What was Amazon.com's net income in FY2022?",
    "Revenue for Apple in FY2023?",  # a metric word opening the sentence
    "What was Apple's Net Income and EPS in FY2023?",
    "What did Apple say about R&D in the MD&A for FY2025?",
    "What was Microsoft's capex in May 2025?",  # a month
    "What did Microsoft say about OpenAI in FY2025?",  # a name its documents mention
    "Why did Xbox content revenue rise after Activision Blizzard joined Microsoft?",
    "What did Microsoft report about LinkedIn in FY2023?",
    "Why did Greater China net sales fall for Apple in FY2024?",
    "Tesla revenue in FY2021?",
    "What were Europe's net sales for Apple in FY2024?",
]


@pytest.mark.parametrize("question", HELD)
def test_names_the_knowledge_base_holds_or_mentions_are_not_strangers(question: str) -> None:
    store = demo_store()

    assert unknown_companies(question, store.vocabulary(), store, PUBLIC) == ()


def test_only_names_in_a_company_s_place_are_read() -> None:
    vocabulary = demo_store().vocabulary()

    assert company_mentions("Why did margins fall in Q3 FY2024 at Apple?", vocabulary) == ()
    assert company_mentions("Which segment grew fastest in Europe?", vocabulary) == ()
    assert company_mentions("What is EBITDA for Apple in FY2024?", vocabulary) == ()


def test_a_scope_or_a_session_never_stands_in_for_a_named_stranger() -> None:
    session = ConversationSession(scope="Apple")
    answer_question("What was Apple's revenue in FY2023?", demo_store(), MockProvider(),
                    session=session)  # fmt: skip

    answer = answer_question("And Dell's?", demo_store(), MockProvider(), session=session)

    assert answer.status == "not_found" and "Dell" in answer.text
    assert answer.figures == () and answer.sources == ()


def _store_with_internal_note() -> InMemoryStore:
    note = Passage(
        "p:1", "d:1", "Coverage note", "Zephyr Holdings is a supplier to Apple.", "INTERNAL",
        entity="Apple",
    )  # fmt: skip
    return InMemoryStore(entities=[Term("Apple"), Term("Tesla")], passages=[note])


def test_a_passage_the_reader_may_not_see_never_vouches_for_a_name() -> None:
    store = _store_with_internal_note()
    question = "What did Zephyr Holdings say about Apple?"

    assert unknown_companies(question, store.vocabulary(), store, PUBLIC) == ("Zephyr Holdings",)
    # Reverse proof: a reader cleared for INTERNAL sees the note, so the name is a topic.
    cleared = frozenset({"PUBLIC", "INTERNAL"})
    assert unknown_companies(question, store.vocabulary(), store, cleared) == ()
