"""Follow-up turns that name what they mean in other ways than a figure's label (ADR 0061):
a count of years said beside the years themselves."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession

DUES = [
    ["( in thousands )", "2043", "2042", "2041"],
    ["harbour dues", "640", "612", "587"],
    ["pilotage fees", "81", "80", "77"],
]


def _conversation(table: list[list[str]], *questions: str) -> list[Answer]:
    store = page_store("page:gannet", table, "", [])
    session = ConversationSession(scope=ENTITY)
    return [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def _computed(answer: Answer) -> list[Decimal]:
    return [f.value for f in answer.figures if f.kind == "computed"]


def test_a_count_of_years_beside_the_years_it_counts_adds_no_words_of_a_figure() -> None:
    first, last = _conversation(
        DUES,
        "How much were the harbour dues in 2043?",
        "Staying with those dues, how did they move over the two prior years, 2041 to 2042?",
    )

    assert first.status == "found"
    assert last.status == "found"
    assert _computed(last) == [Decimal(25)]


def test_a_count_of_years_that_is_not_the_years_named_is_not_dropped() -> None:
    *_, last = _conversation(
        DUES,
        "How much were the harbour dues in 2043?",
        "Staying with those dues, how did they move over the three prior years, 2041 to 2042?",
    )

    assert last.status != "found"
