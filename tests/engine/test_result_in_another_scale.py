"""A question that asks an earlier computed figure in another scale ("how much would that be
in millions?") is answered with that result restated in the scale asked (ADR 0072), never
with the facts the result was computed from; a result in no convertible scale is asked back."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession

DUES = [
    ["( in thousands )", "2041", "2042"],
    ["harbour dues", "612,400", "587,150"],
    ["pilotage fees", "80,200", "77,900"],
]


def _conversation(*questions: str) -> list[Answer]:
    store = page_store("page:gannet", DUES, "", [])
    session = ConversationSession(scope=ENTITY)
    return [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def test_a_sum_asked_again_in_millions_is_restated_not_answered_by_its_operands() -> None:
    *earlier, last = _conversation(
        "What were the harbour dues in 2041 and 2042 combined?",
        "And how much would that be in millions?",
    )

    assert earlier[0].status == "found"
    assert last.status == "found"
    assert not [f for f in last.figures if f.kind == "fact"]
    assert [(f.value, f.unit) for f in last.figures] == [(Decimal("1199.55"), "million")]


def test_a_difference_asked_in_plain_dollars_is_written_out_in_full() -> None:
    *_, last = _conversation(
        "What was the change in pilotage fees from 2041 to 2042?",
        "What is that in dollars?",
    )

    assert last.status == "found"
    assert [(f.value, f.unit) for f in last.figures] == [(Decimal("-2300000"), "")]
    assert "-2,300,000" in last.text


def test_a_percent_asked_in_millions_is_asked_back() -> None:
    *_, last = _conversation(
        "What was the percent change in harbour dues from 2041 to 2042?",
        "And how much would that be in millions?",
    )

    assert last.status == "clarify"
    assert not last.figures


def test_a_figure_asked_in_its_own_scale_is_still_answered() -> None:
    *_, last = _conversation("What were the harbour dues in 2041?", "And in 2042, in thousands?")

    assert last.status == "found"
    assert [int(f.value) for f in last.figures if f.kind == "fact"] == [587150]
