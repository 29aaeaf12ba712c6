"""A share or ratio of two figures asked over several periods is one share a period, each of
its own period's figures; never one period's part over another period's whole."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine import Engine, Fact, InMemoryStore, MockProvider, Term


def _fact(number: int, metric: str, period: str, value: str) -> Fact:
    return Fact(f"fact:{number}", "Heronsgate plc", metric, period, Decimal(value), "USD")


STORE = InMemoryStore(
    entities=[Term("Heronsgate plc")],
    metrics=[Term("Revenue"), Term("Net income")],
    facts=[
        _fact(1, "Revenue", "FY2021", "500"),
        _fact(2, "Revenue", "FY2022", "800"),
        _fact(3, "Revenue", "FY2023", "1000"),
        _fact(4, "Net income", "FY2021", "50"),
        _fact(5, "Net income", "FY2022", "120"),
        _fact(6, "Net income", "FY2023", "250"),
    ],
)
ENGINE = Engine(STORE, MockProvider())


def _shares(question: str) -> list[Decimal]:
    answer = ENGINE.answer(question)
    assert answer.status == "found", answer.text
    return [f.value for f in answer.figures if f.role == "share"]


def test_a_share_in_two_periods_is_one_share_a_period() -> None:
    shares = _shares(
        "What was Heronsgate plc's net income as a percentage of revenue in FY2022 and FY2023?"
    )

    assert shares == [Decimal(15), Decimal(25)]  # 120/800 and 250/1000, not 120/1000


def test_a_share_over_a_range_is_taken_in_every_year_of_it() -> None:
    shares = _shares(
        "What was Heronsgate plc's net income as a percentage of revenue from FY2021 to FY2023?"
    )

    assert shares == [Decimal(10), Decimal(15), Decimal(25)]


@pytest.mark.parametrize(
    "question",
    [
        "What was the average proportion of net income as a percentage of revenue in FY2022 "
        "and FY2023?",
        "What is the total percentage of net income as a percentage of revenue in FY2022 "
        "and FY2023?",
    ],
)
def test_an_aggregate_of_shares_is_not_answered_with_the_shares_alone(question: str) -> None:
    answer = ENGINE.answer(question)

    assert answer.status != "found"
    assert not answer.figures
