"""Two figures joined by an operator word, a comparison asked as yes or no, and the plain
verbs a question wraps a figure in: each answered from the facts, never from one of them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine import Engine, Fact, InMemoryStore, MockProvider, Term


def _fact(number: int, entity: str, metric: str, period: str, value: str) -> Fact:
    return Fact(f"fact:{number}", entity, metric, period, Decimal(value), "USD")


STORE = InMemoryStore(
    entities=[Term("Orchard Ltd"), Term("Quarry plc")],
    metrics=[
        Term("Sales"),
        Term("Cost of sales"),
        Term("Gross profit"),
        Term("Operating income", ("operating profit",)),
        Term("Research and development expense", ("research and development", "R&D")),
        Term("Net income"),
    ],
    facts=[
        _fact(1, "Orchard Ltd", "Sales", "FY2024", "900"),
        _fact(2, "Orchard Ltd", "Cost of sales", "FY2024", "600"),
        _fact(3, "Orchard Ltd", "Gross profit", "FY2024", "300"),
        _fact(4, "Orchard Ltd", "Operating income", "FY2024", "120"),
        _fact(5, "Orchard Ltd", "Research and development expense", "FY2024", "45"),
        _fact(6, "Orchard Ltd", "Net income", "FY2024", "80"),
        _fact(7, "Quarry plc", "Net income", "FY2024", "95"),
        _fact(8, "Orchard Ltd", "Net income", "FY2023", "70"),
    ],
)
ENGINE = Engine(STORE, MockProvider())


def _ask(question: str):  # type: ignore[no-untyped-def]
    return ENGINE.answer(question)


@pytest.mark.parametrize(
    ("question", "role", "value"),
    [
        # The shorter name inside the longer one is asked for on its own too.
        ("What were Orchard Ltd's sales less cost of sales in FY2024?", "change", "300"),
        ("Orchard Ltd gross profit minus operating income, FY2024", "change", "180"),
        # "Operating profit" shares a word with gross profit; its other name is free.
        ("Orchard Ltd gross profit plus operating income in FY2024", "sum", "420"),
        ("What was Orchard Ltd's operating income over sales in FY2024?", "ratio", "0.1333"),
    ],
)
def test_an_operator_word_between_two_figures_computes_them(
    question: str, role: str, value: str
) -> None:
    answer = _ask(question)

    assert answer.status == "found", answer.text
    (computed,) = [f for f in answer.figures if f.role != "fact"]
    assert computed.role == role
    assert round(computed.value, 4) == Decimal(value)
    assert len(answer.sources) == 2  # both operands cited


def test_a_yes_or_no_comparison_says_which_is_larger() -> None:
    answer = _ask("Was Orchard Ltd's net income greater than Quarry plc's in FY2024?")

    assert answer.status == "found"
    assert answer.text.startswith("Quarry plc's Net income in FY2024 is the higher")

    answer = _ask("Was Orchard Ltd's net income in FY2024 less than in FY2023?")
    assert "is the lower" in answer.text and "FY2023" in answer.text.split("is the lower")[0]


@pytest.mark.parametrize(
    "question",
    [
        "How much did Orchard Ltd spend on research and development in FY2024?",
        "How much did Orchard Ltd earn in net income in FY2024?",
        "What did Orchard Ltd report as net income in FY2024?",
    ],
)
def test_a_plain_verb_around_a_figure_narrows_nothing(question: str) -> None:
    answer = _ask(question)

    assert answer.status == "found", answer.text
    assert len(answer.figures) == 1


def test_a_word_that_narrows_the_figure_is_still_asked_about() -> None:
    """The reverse: "apple sales" is no figure held, whatever verb stands beside it."""
    answer = _ask("How much in apple sales did Orchard Ltd make in FY2024?")

    assert answer.status == "clarify"
    assert "not a separate figure for “apple”" in answer.text
    assert not answer.figures


@pytest.mark.parametrize(
    "question",
    [
        "What share of Orchard Ltd's sales went to research and development in FY2024?",
        "What percentage of Orchard Ltd's sales was research and development in FY2024?",
        "Orchard Ltd research and development as a share of sales in FY2024",
    ],
)
def test_the_whole_of_a_share_is_the_figure_named_after_the_share_words(question: str) -> None:
    answer = _ask(question)

    assert answer.status == "found", answer.text
    (share,) = [f for f in answer.figures if f.role != "fact"]
    assert round(share.value if share.unit != "%" else share.value / 100, 4) == Decimal("0.05")


def test_a_comparison_word_before_the_companies_narrows_nothing() -> None:
    answer = _ask("Compare Orchard Ltd and Quarry plc net income in FY2024")

    assert answer.status == "found", answer.text
    assert len(answer.figures) >= 2
