"""Follow-up turns over one invented report page (issue 12, ADR 0056): what a later turn
means by words an earlier turn used. Each conversation is asked in order through one
ConversationSession scoped to the page, as the chat page does."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Engine
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer

INDEX_ROWS = [
    ["", "2019", "2020", "2021"],
    ["lakeside shipping corp", "100", "92.40", "131.75"],
    ["northern freight index", "100", "108.10", "146.20"],
]


def ask(rows: list[list[str]], *questions: str) -> list[Answer]:
    engine = Engine(page_store("Lakeside/2021/page_40", rows, "", ()), MockProvider())
    session = ConversationSession(scope=ENTITY)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


def computed(answer: Answer) -> Decimal:
    return [f.value for f in answer.figures if f.kind == "computed"][-1]


def test_a_result_set_against_its_own_series_described_in_the_earlier_words() -> None:
    first, second = ask(
        INDEX_ROWS,
        "how much did the performance of the northern freight index change between 2019 and 2021?",
        "and this change is what percentage of that performance in 2019?",
    )
    assert first.status == "found" and computed(first) == Decimal("46.20")
    assert second.status == "found", second.text
    assert computed(second) == Decimal("46.2")


def test_words_the_earlier_question_never_used_still_narrow_the_figure() -> None:
    *_, second = ask(
        INDEX_ROWS,
        "how much did the performance of the northern freight index change between 2019 and 2021?",
        "and this change is what percentage of that dividend performance in 2019?",
    )
    assert second.status != "found"
