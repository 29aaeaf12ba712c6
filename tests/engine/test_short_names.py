"""In a conversation on one company, a figure may be named the short way an analyst names it:
"equity", "liabilities over assets", "long-term debt". Among that company's own line items the
head of a name, or all of it but bracketed and soft words, is enough; a measure computed from
two figures is never taken for a word of its name."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine import ConversationSession, Engine, Fact, InMemoryStore, MockProvider, Term


def _fact(n: int, entity: str, metric: str, value: str) -> Fact:
    return Fact(f"fact:{n}", entity, metric, "FY2024", Decimal(value), "USD")


STORE = InMemoryStore(
    metrics=[
        Term("Total assets"),
        Term("Total liabilities"),
        Term("Stockholders' equity"),
        Term("Long-term debt (non-current)"),
        Term("Net income"),
    ],
    facts=[
        _fact(1, "Fernhill Corp", "Total assets", "500"),
        _fact(2, "Fernhill Corp", "Total liabilities", "300"),
        _fact(3, "Fernhill Corp", "Stockholders' equity", "200"),
        _fact(4, "Fernhill Corp", "Long-term debt (non-current)", "120"),
        _fact(5, "Fernhill Corp", "Net income", "30"),
        _fact(6, "Gullwing Ltd", "Total assets", "900"),
    ],
)
ENGINE = Engine(STORE, MockProvider())


def _ask(question: str):  # type: ignore[no-untyped-def]
    session = ConversationSession(scope="Fernhill Corp")
    return ENGINE.answer(question, session=session)


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("equity in FY2024", "fact:3"),
        ("long-term debt FY2024", "fact:4"),
        ("ok, liabilities in FY2024?", "fact:2"),
    ],
)
def test_a_short_name_of_the_company_s_own_line_item_is_enough(question: str, fact: str) -> None:
    answer = _ask(question)

    assert answer.status == "found", answer.text
    assert [s.id for s in answer.sources] == [fact]


def test_two_short_names_set_against_each_other() -> None:
    answer = _ask("liabilities over assets in FY2024")

    assert answer.status == "found", answer.text
    assert [f.value for f in answer.figures if f.role == "ratio"] == [Decimal("0.6")]


def test_a_word_of_a_measure_s_name_does_not_link_the_measure() -> None:
    """ "Equity" is the head of "Stockholders' equity", not a call for return on equity."""
    answer = _ask("equity in FY2024")

    assert not [f for f in answer.figures if f.role == "share"]


def test_without_a_company_in_view_a_short_name_is_still_asked_about() -> None:
    answer = ENGINE.answer("What was equity in FY2024?")

    assert answer.status == "clarify"
    assert not answer.figures


def test_a_ratio_keeps_the_order_asked_even_with_a_total_first() -> None:
    answer = _ask("assets over equity in FY2024")

    assert [f.value for f in answer.figures if f.role == "ratio"] == [Decimal("2.5")]
