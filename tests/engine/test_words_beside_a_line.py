"""A word beside a linked line is read as narrowing it only when it could name a narrower
line. A participle with the phrase it governs ("the revenue posted in 2041", "the cash
collected from customers") is a verb of a clause that says what the line is: the line is
answered. The phrase's own noun, and a participle set before the noun as an adjective
("deferred revenue"), still narrow it: the engine asks back rather than give the whole."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import page_store
from engine.providers.mock import MockProvider

FREIGHT = [
    ["", "2041", "2040"],
    ["freight revenue", "5,200", "4,900"],
    ["fuel costs", "1,310", "1,275"],
]


def _ask(question: str) -> Answer:
    store = page_store("page:kestrel", FREIGHT, "Kestrel Haulage runs barges .", [])
    return answer_question(question, store, MockProvider())


def _facts(answer: Answer) -> list[Decimal]:
    return [f.value for f in answer.figures if f.kind == "fact"]


def test_a_participle_with_its_phrase_does_not_narrow_the_line() -> None:
    answer = _ask("What was the freight revenue recorded in 2041?")

    assert answer.status == "found"
    assert _facts(answer) == [Decimal("5200")]


def test_a_change_described_by_a_participle_is_computed() -> None:
    answer = _ask("What was the increase posted in freight revenue from 2040 to 2041?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "computed"] == [Decimal("300")]


def test_the_noun_of_the_participles_phrase_still_narrows_the_line() -> None:
    answer = _ask("What was the freight revenue collected from charter clients in 2041?")

    assert answer.status == "clarify"
    assert not _facts(answer)


def test_a_participle_before_the_line_as_its_adjective_still_narrows_it() -> None:
    answer = _ask("What was the deferred freight revenue in 2041?")

    assert answer.status == "clarify"
    assert not _facts(answer)
