"""A margin asked of a report page whose lines name revenue its own way ("Net sales", "Net
revenues"): computed from the page's own two lines, each cited, with the note saying what the
margin is (ADR 0076). Where two lines could be the revenue, none is guessed, and a "Total
revenue" line over segments is not taken for the revenue of the segment being discussed."""

from __future__ import annotations

from decimal import Decimal

from tests.engine.test_shares_and_steps import ask, computed, page

INCOME = [
    ["", "2021", "2020"],
    ["Net sales", "2,400", "2,000"],
    ["Cost of sales", "1,440", "1,300"],
    ["Gross profit", "960", "700"],
    ["Operating income", "300", "180"],
    ["Net income", "210", "120"],
]


def test_a_gross_margin_is_gross_profit_over_the_pages_net_sales() -> None:
    (margin,) = ask(page(INCOME), "what was the gross margin in 2021?")

    assert margin.status == "found"
    assert computed(margin) == Decimal("40")
    assert sorted(f.value for f in margin.figures if f.kind == "fact") == [960, 2400]
    assert "(Gross margin is gross profit as a percentage of revenue.)" in margin.text


def test_a_profit_margin_in_each_of_two_years() -> None:
    (margins,) = ask(page(INCOME), "what was the net profit margin in 2020 and 2021?")

    assert margins.status == "found"
    assert [f.value for f in margins.figures if f.kind == "computed"] == [6, Decimal("8.75")]


def test_two_lines_that_could_each_be_revenue_make_no_margin() -> None:
    rows = [INCOME[0], ["Net revenues", "2,400", "2,000"], ["Net sales", "2,150", "1,800"],
            *INCOME[3:]]  # fmt: skip

    (margin,) = ask(page(rows), "what was the gross margin in 2021?")

    assert margin.status != "found"
    assert not [f for f in margin.figures if f.kind == "computed"]


def test_a_total_line_of_segments_is_not_taken_for_one_segments_margin() -> None:
    rows = [
        ["", "2021", "2020"],
        ["Revenue:", "", ""],
        ["Marine", "1,500", "1,300"],
        ["Rail", "900", "700"],
        ["Total revenue", "2,400", "2,000"],
        ["Operating income:", "", ""],
        ["Marine", "210", "160"],
        ["Rail", "90", "20"],
        ["Total operating income", "300", "180"],
    ]

    _, margin = ask(page(rows), "what was rail revenue in 2021?", "and the operating margin?")

    assert Decimal("12.5") not in [f.value for f in margin.figures if f.kind == "computed"]
