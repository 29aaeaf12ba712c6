"""Words a question says of a whole table, as the sentence announcing the table names it
("the weighted-average coupon rates of our bond holdings are as follows"), narrow none of its
lines: the one line named is answered. Words the page never says of the table still ask
back which figure is meant."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import page_store
from engine.providers.mock import MockProvider
from engine.store import InMemoryStore

RATES = [
    ["", "2041", "2040"],
    ["municipal bonds", "3.15%", "2.90%"],
    ["corporate bonds", "4.40%", "4.05%"],
]
ANNOUNCED = (
    "Osprey Trust holds bonds of several kinds . "
    "weighted-average coupon rate assumptions for our bond holdings are as follows :"
)


def _store(before: str) -> InMemoryStore:
    return page_store("page:osprey", RATES, before, [], before=before)


def _ask(store: InMemoryStore, question: str) -> Answer:
    return answer_question(question, store, MockProvider())


def test_words_of_the_announced_subject_do_not_narrow_the_line_asked() -> None:
    asked = "What was the weighted average coupon rate for corporate bonds in 2041?"
    answer = _ask(_store(ANNOUNCED), asked)

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [Decimal("4.40")]


def test_the_same_words_on_a_page_that_does_not_announce_them_are_asked_back() -> None:
    asked = "What was the weighted average coupon rate for corporate bonds in 2041?"
    answer = _ask(_store("Osprey Trust holds bonds of several kinds ."), asked)

    assert answer.status == "clarify"


def test_a_word_the_announcing_sentence_does_not_hold_still_narrows_the_line() -> None:
    answer = _ask(
        _store(ANNOUNCED), "What was the expected default rate for corporate bonds in 2041?"
    )

    assert answer.status == "clarify"


SEGMENT = [
    ["", "2041", "2040"],
    ["revenue", "8,400", "7,950"],
    ["operating profit", "1,120", "1,010"],
]


def test_what_qualifies_the_announced_subject_is_said_of_the_table_too() -> None:
    before = "the table below presents the operating results of our marine segment :"
    store = page_store("page:osprey", SEGMENT, before, [], before=before)

    answer = _ask(store, "What was the operating profit of the marine segment in 2041?")

    assert answer.status == "found"
    assert [int(f.value) for f in answer.figures if f.kind == "fact"] == [1120]


def test_the_subject_is_said_of_every_line_a_question_sets_side_by_side() -> None:
    asked = (
        "Was the weighted average coupon rate for corporate bonds higher than for municipal "
        "bonds in 2041?"
    )
    answer = _ask(_store(ANNOUNCED), asked)

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [
        Decimal("4.40"),
        Decimal("3.15"),
    ]
