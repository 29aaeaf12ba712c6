"""Questions that state their whole computation (ADR 0082): every operand is named in the
question, a line, a period, a constant. Invented pages, in this file's own wording."""

from __future__ import annotations

from decimal import Decimal

from tests.engine.test_shares_and_steps import ask, computed, page

# A five-year return table whose columns fall twice in one year (the fiscal year ended early
# in January one year and at the end of December the next).
RETURNS = [
    ["", "december 30 2019", "january 2 2021", "december 31 2021", "december 29 2022"],
    ["Lighthouse Ferries Inc .", "100.0", "88.10", "93.40", "121.75"],
    ["Coastal Shipping Index", "100.0", "97.20", "104.65", "110.30"],
]


def test_a_constant_taken_off_a_line_whose_year_has_one_column_of_its_own() -> None:
    # The line is read in three forms (undated, "january 2", "december 31"); only the undated
    # one holds 2022, so the question names one figure and the constant.
    (less,) = ask(page(RETURNS), "what is the value of lighthouse ferries in 2022 less 100?")

    assert less.status == "found"
    assert computed(less) == Decimal("21.75")


def test_a_constant_taken_off_a_line_in_a_year_of_two_columns_is_asked_back() -> None:
    # 2021 has two columns: which one is meant is the asker's to say, constant or not.
    (less,) = ask(page(RETURNS), "what is the value of lighthouse ferries in 2021 less 100?")

    assert less.status == "clarify"
    assert not [f for f in less.figures if f.kind == "computed"]


# A quarter's repurchases by month, with a Total line, and no year column.
REPURCHASES = [
    ["Period", "Shares repurchased", "Average price per share"],
    ["Jul. 1 to Jul. 31", "400,000", "$21.50"],
    ["Aug. 1 to Aug. 31", "250,000", "22.10"],
    ["Sep. 1 to Sep. 30", "350,000", "20.90"],
    ["Total", "1,000,000", "$21.40"],
]


def test_a_share_of_a_total_line_takes_the_month_named_in_the_total_s_column() -> None:
    (share,) = ask(
        page(REPURCHASES),
        "for the quarter ended september 30 what was the percent of the total shares "
        "repurchased in august?",
    )

    assert share.status == "found"
    assert computed(share) == Decimal("25")


def test_a_share_of_a_total_line_naming_two_months_is_not_settled_by_either() -> None:
    (share,) = ask(
        page(REPURCHASES),
        "what was the percent of the total shares repurchased in july and august?",
    )

    assert not [f for f in share.figures if f.kind == "computed"]


# Vessels by home port and tenure; no Total line.
FLEET = [
    ["", "owned", "chartered"],
    ["portsmouth", "12", "3"],
    ["plymouth", "5", "1"],
    ["falmouth", "3", "4"],
]


def test_a_portion_of_a_column_with_no_total_line_is_set_against_the_column_added_up() -> None:
    (share,) = ask(page(FLEET), "what portion of the owned vessels are in portsmouth?")

    assert share.status == "found"
    assert computed(share) == Decimal("0.6")  # 12 of 12 + 5 + 3


def test_a_column_with_a_total_line_is_not_added_up_again() -> None:
    rows = [*FLEET, ["total ports", "20", "8"]]
    (share,) = ask(page(rows), "what portion of the owned vessels are in portsmouth?")

    assert not [f for f in share.figures if f.kind == "computed" and f.value == Decimal("0.3")]


def test_a_column_of_rates_is_not_added_up() -> None:
    rows = [
        ["", "berths", "berth price"],
        ["portsmouth", "6", "4.0"],
        ["plymouth", "3", "3.0"],
        ["falmouth", "2", "1.0"],
    ]
    (share,) = ask(page(rows), "what portion of the berth price is in portsmouth?")

    assert not [f for f in share.figures if f.kind == "computed"]


# Awards granted in the year: a count and a value per award, on one row.
AWARDS = [
    ["", "Number of awards (in thousands)", "Weighted average fair value (per award)"],
    ["Outstanding at start of year", "120", "$7.50"],
    ["Awarded", "40", "9.25"],
    ["Cancelled", "(5)", "8.00"],
]


def test_the_product_of_two_named_lines_takes_the_second_named_in_part() -> None:
    # The second line is named without "(per award)": as with "times", the one line the
    # free words name is the product's other figure; the word "product" links nothing.
    (product,) = ask(
        page(AWARDS),
        "what is the product of the awarded number of awards and the awarded weighted "
        "average fair value?",
    )

    assert product.status == "found"
    assert computed(product) == Decimal("370")


def test_product_as_a_line_s_own_word_is_no_operation() -> None:
    rows = [
        ["", "2024", "2023"],
        ["Product revenue", "50.0", "40.0"],
        ["Service revenue", "20.0", "10.0"],
    ]
    (lookup,) = ask(page(rows), "what was product revenue in 2024?")

    assert lookup.status == "found"
    assert [f.value for f in lookup.figures] == [Decimal("50.0")]


# A small income statement over three years.
RESULTS = [
    ["", "2016", "2015", "2014"],
    ["Ferry revenue", "120.0", "100.0", "80.0"],
    ["Cargo revenue", "60.0", "50.0", "40.0"],
    ["Total revenue", "180.0", "150.0", "120.0"],
    ["Operating expenses", "90.0", "75.0", "70.0"],
    ["Net income", "30.0", "25.0", "20.0"],
]


def test_a_difference_spelled_out_then_divided_is_the_change_over_its_base() -> None:
    (step,) = ask(
        page(RESULTS),
        "what is net income in 2016 minus net income in 2015, divided by net income in 2015?",
    )

    assert step.status == "found"
    assert computed(step) == Decimal("0.2")  # (30 - 25) / 25, not 30 / 25


def test_a_difference_spelled_out_from_its_base_keeps_the_order_written() -> None:
    (step,) = ask(
        page(RESULTS),
        "what is net income in 2015 minus net income in 2016, divided by net income in 2015?",
    )

    assert computed(step) == Decimal("-0.2")  # (25 - 30) / 25


def test_two_lines_of_one_year_less_each_other_then_divided_are_asked_back() -> None:
    # Not the ratio of the two figures named: that would drop the minus.
    (step,) = ask(
        page(RESULTS),
        "what was total revenue in 2016 minus operating expenses in 2016, divided by total "
        "revenue in 2016?",
    )

    assert step.status == "clarify"
    assert not [f for f in step.figures if f.kind == "computed"]


def test_two_lines_each_named_with_its_own_year_are_taken_in_that_year_only() -> None:
    total, ratio = ask(
        page(RESULTS),
        "what is ferry revenue in 2016 plus cargo revenue in 2015?",
        "what is the ratio of ferry revenue in 2016 to cargo revenue in 2015?",
    )

    assert computed(total) == Decimal("170")  # 120 + 50, not the four figures' 330
    assert computed(ratio) == Decimal("2.4")  # 120 / 50, not each year's own ratio
    assert sorted(f.value for f in ratio.figures if f.kind == "fact") == [50, 120]


def test_years_named_together_after_both_lines_still_take_every_figure() -> None:
    (total,) = ask(
        page(RESULTS), "what is the sum of ferry revenue and cargo revenue in 2016 and 2015?"
    )

    assert computed(total) == Decimal("330")


def test_what_multiple_of_a_line_another_is_takes_the_first_named_as_the_base() -> None:
    (multiple,) = ask(page(RESULTS), "what multiple of cargo revenue was ferry revenue in 2016?")

    assert computed(multiple) == Decimal("2")  # 120 / 60, not 60 / 120


def test_how_much_of_one_line_another_was_is_a_share_not_their_difference() -> None:
    share, alone = ask(
        page(RESULTS),
        "how much of total revenue was cargo revenue in 2016, in percent?",
        "how much of the ferry revenue was earned in 2016?",
    )

    assert computed(share) == Decimal("33.3333")
    # One line named after "how much of" is still that line's figure.
    assert alone.status == "found"
    assert [f.value for f in alone.figures] == [Decimal("120.0")]


def test_a_share_a_line_accounts_for_is_read_as_represent_is() -> None:
    (share,) = ask(
        page(RESULTS), "what share of total revenue did ferry revenue account for in 2015?"
    )

    assert computed(share) == Decimal("66.6667")


def test_accounts_as_a_line_s_word_still_links_the_line() -> None:
    rows = [
        ["", "2016", "2015"],
        ["Accounts receivable", "40.0", "30.0"],
        ["Total current assets", "160.0", "120.0"],
    ]
    (share,) = ask(
        page(rows), "what percentage of total current assets were accounts receivable in 2016?"
    )

    assert computed(share) == Decimal("25")


def test_how_much_greater_in_percent_is_the_gap_over_the_smaller_figure() -> None:
    percent, amount = ask(
        page(RESULTS),
        "how much greater was ferry revenue than cargo revenue in 2016, in percent?",
        "how much greater was ferry revenue than cargo revenue in 2016?",
    )

    assert computed(percent) == Decimal("100")  # (120 - 60) / 60, not the 60 between them
    assert computed(amount) == Decimal("60")


def test_the_total_of_two_named_lines_is_their_sum_not_a_total_line_beside_them() -> None:
    total, line = ask(
        page(RESULTS),
        "what was the total of ferry revenue and operating expenses in 2015?",
        "what was the total of cargo revenue and ferry revenue in 2014?",
    )

    assert computed(total) == Decimal("175")
    # "Total revenue" holds no word beyond "total" and the listed lines' own: not linked.
    assert computed(line) == Decimal("120")
    assert sorted(f.value for f in line.figures if f.kind == "fact") == [40, 80]
