"""Everyday phrasings over one invented income table (ADR 0076): "total service revenue" is
the service line (summed over a span), "over the three years" with three held means them,
"in percentage terms" asks the percent change of the change on hand, an operating margin is
taken over the table's total revenue when operating income is a line of its own, and a
compound growth rate is not answered with a plain change."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import COMPOUNDED_TEXT
from tests.engine.test_shares_and_steps import ask, computed, page

RESULTS = [
    ["", "2022", "2021", "2020"],
    ["Product revenue", "4,200", "3,800", "3,100"],
    ["Service revenue", "1,800", "1,500", "1,400"],
    ["Total revenue", "6,000", "5,300", "4,500"],
    ["Operating income", "1,150", "980", "760"],
]


def facts(answer) -> list[str]:  # type: ignore[no-untyped-def]
    return [f.metric for f in answer.figures if f.kind == "fact"]


def test_a_soft_word_before_a_line_names_that_line_only() -> None:
    (one,) = ask(page(RESULTS), "what was total service revenue in 2022?")
    (summed,) = ask(page(RESULTS), "what was the total service revenue from 2020 to 2022?")

    assert one.status == "found"
    assert facts(one) == ["Service revenue"]
    assert summed.status == "found"
    assert computed(summed) == Decimal("4700")
    assert set(facts(summed)) == {"Service revenue"}


def test_the_three_years_are_the_three_held() -> None:
    (average,) = ask(page(RESULTS), "what was the average operating income over the three years?")
    (two,) = ask(page(RESULTS), "what was the average operating income over the two years?")

    assert average.status == "found"
    assert computed(average).quantize(Decimal("0.01")) == Decimal("963.33")
    assert two.status == "clarify"  # two of three: which two is not guessed


def test_in_percentage_terms_after_a_change_is_its_percent_change() -> None:
    *_, percent = ask(
        page(RESULTS),
        "what was operating income in 2022?",
        "and the year before?",
        "what's the difference?",
        "and in percentage terms?",
    )

    assert percent.status == "found"
    assert computed(percent).quantize(Decimal("0.01")) == Decimal("17.35")


def test_an_operating_margin_over_the_tables_total_revenue() -> None:
    (margin,) = ask(page(RESULTS), "what was the operating margin in 2022?")

    assert margin.status == "found"
    assert computed(margin).quantize(Decimal("0.01")) == Decimal("19.17")
    assert set(facts(margin)) == {"Operating income", "Total revenue"}


def test_a_compound_growth_rate_is_not_given_as_a_plain_change() -> None:
    (cagr,) = ask(page(RESULTS), "what was the CAGR of total revenue from 2020 to 2022?")
    (annualized,) = ask(page(RESULTS), "what was annualized growth in product revenue, 2020-2022?")

    for answer in (cagr, annualized):
        assert answer.status == "not_found"
        assert answer.text == COMPOUNDED_TEXT
        assert not answer.figures
