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


def test_a_compound_growth_rate_is_worked_out_not_given_as_a_plain_change() -> None:
    (cagr,) = ask(page(RESULTS), "what was the CAGR of total revenue from 2020 to 2022?")
    (annualized,) = ask(page(RESULTS), "what was annualized growth in product revenue, 2020-2022?")

    # (6,000 / 4,500) ** (1/2) - 1 and (4,200 / 3,100) ** (1/2) - 1, never the 33.33% change.
    assert round(computed(cagr), 2) == Decimal("15.47")
    assert round(computed(annualized), 2) == Decimal("16.40")
    assert "compound annual growth rate of 15.47% over 2 years" in cagr.text


def test_another_annualized_figure_is_still_not_answered() -> None:
    (answer,) = ask(page(RESULTS), "what was the annualized return on operating income in 2022?")

    assert answer.status == "not_found"
    assert answer.text == COMPOUNDED_TEXT
    assert not answer.figures


def test_how_much_higher_after_two_years_is_against_the_other_year_on_hand() -> None:
    *_, higher = ask(
        page(RESULTS),
        "what was total revenue in 2020?",
        "and in 2022?",
        "how much higher was it in 2022?",
    )

    assert higher.status == "found"
    assert computed(higher) == Decimal("1500")  # against 2020, not the 2021 in between


def test_the_difference_or_ratio_between_two_lines_on_hand() -> None:
    *_, difference, ratio = ask(
        page(RESULTS),
        "what was product revenue in 2021?",
        "and service revenue that year?",
        "what is the difference between them?",
        "what's the ratio between them?",
    )

    assert difference.status == "found"
    assert computed(difference) == Decimal("2300")
    assert ratio.status == "found"
    assert computed(ratio).quantize(Decimal("0.01")) == Decimal("2.53")


def test_a_superlative_of_one_line_is_its_peak_over_the_years_held() -> None:
    (highest,) = ask(page(RESULTS), "what was the highest service revenue?")
    (lowest,) = ask(page(RESULTS), "what was product revenue at its lowest?")

    assert highest.status == "found"
    assert "FY2022 is the highest: 1,800 [1]" in highest.text
    assert lowest.status == "found"
    assert "FY2020 is the lowest: 3,100 [1]" in lowest.text


def test_across_all_years_is_a_sum_over_the_years_held() -> None:
    (total,) = ask(page(RESULTS), "what was the total of product revenue across all three years?")

    assert total.status == "found"
    assert computed(total) == Decimal("11100")
