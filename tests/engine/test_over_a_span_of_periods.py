""" "Over" followed by a span of periods says when, not what to divide by (issue 12, ADR 0062).
The page and its wording are invented: a cash roll-forward with its newest year first, asked
in order through one conversation as the chat page asks."""

from __future__ import annotations

from decimal import Decimal

from engine.types import Answer
from tests.engine.test_shares_and_steps import ask, computed, page

ROLL_FORWARD = [
    ["", "2031", "2030", "2029"],
    ["Cash at beginning of year", "70", "80", "60"],
    ["Net cash from operations", "30", "-10", "20"],
    ["Cash at end of year", "100", "70", "80"],
]


def test_a_total_over_two_years_joined_by_to_is_their_sum_not_their_ratio() -> None:
    _, total = ask(
        page(ROLL_FORWARD),
        "by how much did cash at the end of the year move from 2030 to 2031?",
        "and the total closing cash over 2029 to 2030?",
    )

    assert total.status == "found"
    assert computed(total) == Decimal("150")
    assert "ratio" not in total.text


def test_a_span_written_with_and_or_a_dash_after_over_is_a_span_too() -> None:
    (combined,) = ask(page(ROLL_FORWARD), "net cash from operations over 2030 and 2031 combined?")
    (average,) = ask(page(ROLL_FORWARD), "average cash at end of year over 2029-2031?")

    assert computed(combined) == Decimal("20")
    assert computed(average).quantize(Decimal("0.01")) == Decimal("83.33")


def test_growth_over_a_span_is_the_change_across_it() -> None:
    (growth,) = ask(
        page(ROLL_FORWARD), "how much did cash at end of year grow over 2030 through 2031?"
    )

    assert growth.status == "found"
    assert computed(growth) == Decimal("30")


def test_a_total_over_the_last_years_adds_them_up() -> None:
    _, total = ask(
        page(ROLL_FORWARD),
        "cash at end of year in 2031?",
        "and over the last two years, what was the total?",
    )

    assert total.status == "found"
    assert computed(total) == Decimal("170")


# Two lines over three years, the newest first.
FERRY_LINES = [
    ["", "2021", "2020", "2019"],
    ["Ticket sales", "120", "100", "80"],
    ["Freight income", "30", "20", "25"],
]


def changes(answer: Answer) -> list[Decimal]:
    return [f.value for f in answer.figures if f.kind == "computed"]


def test_an_increase_of_one_year_over_another_is_taken_from_the_year_after_over() -> None:
    (increase,) = ask(page(FERRY_LINES), "what was the increase in ticket sales in 2021 over 2020?")

    assert increase.status == "found"
    assert changes(increase) == [Decimal("20"), Decimal("0.2")]


def test_a_rise_over_another_year_is_a_change_too_not_a_ratio_of_the_years() -> None:
    (rise,) = ask(page(FERRY_LINES), "how big was the rise in ticket sales in 2021 over 2020?")

    assert rise.status == "found"
    assert changes(rise) == [Decimal("20"), Decimal("0.2")]


def test_a_span_of_fiscal_years_after_over_is_a_span() -> None:
    (total,) = ask(
        page(FERRY_LINES), "what was the total of freight income over fiscal 2020 and fiscal 2021?"
    )

    assert total.status == "found"
    assert computed(total) == Decimal("50")


def test_two_years_set_against_each_other_after_over_are_compared_not_divided() -> None:
    (compared,) = ask(page(FERRY_LINES), "what was freight income over 2020 versus 2021?")

    assert compared.status == "found"
    assert "ratio" not in compared.text
    assert changes(compared) == [Decimal("10")]


def test_a_total_over_both_years_after_two_lookups_is_their_sum() -> None:
    *_, total = ask(
        page(FERRY_LINES),
        "freight income in 2021?",
        "and in 2020?",
        "so what was the total over both years?",
    )

    assert total.status == "found"
    assert computed(total) == Decimal("50")
    assert "ratio" not in total.text


def test_a_line_over_each_of_the_last_years_lists_the_years_not_their_ratio() -> None:
    (each,) = ask(page(FERRY_LINES), "what was freight income over each of the last two years?")

    assert each.status == "found"
    assert "ratio" not in each.text
    assert [f.value for f in each.figures if f.kind == "fact"] == [Decimal("20"), Decimal("30")]
