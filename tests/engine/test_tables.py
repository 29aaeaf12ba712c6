"""Report-page tables read into facts: periods from dated headings and from the lines of a
table whose periods run down the side."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.tables import read_table


def _by_key(rows: list[list[str]]) -> dict[tuple[str, str], Decimal]:
    return {(f.metric, f.period): f.value for f in read_table(rows)}


@pytest.mark.parametrize(
    ("heading", "period"),
    [
        ("06/30/21", "FY2021"),
        ("9/22", "FY2022"),
        ("12/26/2015", "FY2015"),
        ("september 302019", "FY2019"),
        ("as of june 30 , 2018", "FY2018"),
    ],
)
def test_a_dated_column_heading_names_its_year(heading: str, period: str) -> None:
    facts = _by_key([["", heading], ["Orchard holdings index", "131.5"]])

    assert facts == {("Orchard holdings index", period): Decimal("131.5")}


def test_a_fraction_in_a_heading_is_not_a_date() -> None:
    facts = _by_key([["", "1/2 share", "2020"], ["Ferry tolls", "4", "5"]])

    assert ("Ferry tolls", "FY2020") in facts
    assert all(period in ("FY2020", "") for _, period in facts)


def test_a_table_whose_years_run_down_the_side_reads_them_from_the_lines() -> None:
    rows = [
        ["", "amount (in millions)"],
        ["2030 grain sales", "512.0"],
        ["weather", "-14.5"],
        ["export duty", "(3.1)"],
        ["2031 grain sales", "494.4"],
    ]

    facts = _by_key(rows)

    assert facts[("grain sales", "FY2030")] == Decimal("512.0")
    assert facts[("grain sales", "FY2031")] == Decimal("494.4")
    # The lines between are the steps from one year's figure to the next: the closing
    # year's (ADR 0056).
    assert facts[("weather", "FY2031")] == Decimal("-14.5")
    assert facts[("export duty", "FY2031")] == Decimal("-3.1")


def test_one_column_of_values_drops_its_heading_from_the_names() -> None:
    rows = [["", "$ 90210"], ["harbour cranes", "1,200"], ["quay walls", "800"]]

    assert _by_key(rows) == {
        ("harbour cranes", ""): Decimal("1200"),
        ("quay walls", ""): Decimal("800"),
    }


def test_several_columns_without_periods_keep_their_headings() -> None:
    rows = [["", "date completed", "sale proceeds ( in millions )"], ["Linden mill", "2031", "45"]]

    facts = _by_key(rows)

    assert facts[("Linden mill sale proceeds", "")] == Decimal("45")


def test_dated_lines_with_several_columns_keep_each_columns_heading() -> None:
    rows = [
        ["", "warranty", "total"],
        ["reserve at june 30 2031", "5.5", "9.0"],
        ["claims paid", "(1.5)", "(2.0)"],
        ["reserve at june 30 2032", "4.0", "7.0"],
    ]

    facts = _by_key(rows)

    assert facts[("reserve at june 30 total", "FY2032")] == Decimal("7.0")
    assert facts[("reserve at june 30 warranty", "FY2031")] == Decimal("5.5")
    assert facts[("claims paid total", "")] == Decimal("-2.0")


def test_a_day_glued_to_its_year_after_a_dotted_month_is_read() -> None:
    assert _by_key([["", "three months sept . 282031"], ["Ferry tolls", "4"]]) == {
        ("Ferry tolls", "FY2031"): Decimal("4")
    }


def test_lines_that_are_only_years_are_periods_of_the_metrics_across_the_top() -> None:
    rows = [
        ["", "tonnes shipped", "average freight rate"],
        ["2031", "1,250", "4.10"],
        ["2032", "1,400", "4.35"],
    ]

    facts = _by_key(rows)

    assert facts == {
        ("tonnes shipped", "FY2031"): Decimal("1250"),
        ("tonnes shipped", "FY2032"): Decimal("1400"),
        ("average freight rate", "FY2031"): Decimal("4.10"),
        ("average freight rate", "FY2032"): Decimal("4.35"),
    }


def test_one_column_of_values_beside_year_lines_takes_the_columns_heading() -> None:
    rows = [["", "ferry crossings"], ["2031", "812"], ["2032", "790"]]

    assert _by_key(rows) == {
        ("ferry crossings", "FY2031"): Decimal("812"),
        ("ferry crossings", "FY2032"): Decimal("790"),
    }


def test_lines_spanning_months_of_one_year_are_not_periods_of_their_own() -> None:
    rows = [
        ["Period", "Bales bought"],
        ["March 1, 2031 - March 31, 2031", "40"],
        ["April 1, 2031 - April 30, 2031", "55"],
    ]

    facts = _by_key(rows)

    assert all(metric != "Bales bought" for metric, _ in facts)  # never two as one
    assert len(facts) == 2


def test_stacked_tables_read_each_block_under_its_own_year() -> None:
    rows = [
        ["", "As of June 30, 2032", ""],
        ["", "Cost", "Fair value"],
        ["Harbour bonds", "120", "118"],
        ["", "As of June 30, 2031", ""],
        ["", "Cost", "Fair value"],
        ["Harbour bonds", "100", "104"],
    ]

    facts = _by_key(rows)

    assert facts[("Harbour bonds Fair value", "FY2032")] == Decimal("118")
    assert facts[("Harbour bonds Fair value", "FY2031")] == Decimal("104")


def test_two_columns_of_one_year_keep_their_dates_apart() -> None:
    rows = [
        ["", "June 30, 2032", "June 30, 2031", "January 1, 2031"],
        ["Tolls receivable", "30", "20", "10"],
    ]

    facts = _by_key(rows)

    assert facts[("Tolls receivable", "FY2032")] == Decimal("30")
    assert facts[("Tolls receivable June 30", "FY2031")] == Decimal("20")
    assert facts[("Tolls receivable January 1", "FY2031")] == Decimal("10")


def test_twin_dated_columns_in_thousands_are_named_by_their_dates_alone() -> None:
    rows = [
        ["", "June 30, 2031, in thousands", "January 1, 2031, in thousands"],
        ["Berth deposits", "44", "41"],
    ]

    facts = _by_key(rows)

    assert facts[("Berth deposits June 30", "FY2031")] == Decimal("44")
    assert facts[("Berth deposits January 1", "FY2031")] == Decimal("41")


def test_a_column_in_000s_is_named_without_its_scale() -> None:
    rows = [["", "Harbour dues (in 000s)"], ["2031", "3,310"], ["2032", "3,420"]]

    assert _by_key(rows) == {
        ("Harbour dues", "FY2031"): Decimal("3310"),
        ("Harbour dues", "FY2032"): Decimal("3420"),
    }


def test_a_column_headed_us_keeps_its_heading() -> None:
    rows = [["", "U.K.", "U.S.", "Other"], ["Expected 2032 refits", "$5", "$4", "$1"]]

    facts = _by_key(rows)

    assert facts[("Expected refits U.S.", "FY2032")] == Decimal("4")
    assert ("Expected refits", "FY2032") not in facts  # the U.S. column is not the whole


def test_a_heading_in_us_dollars_still_drops_its_currency() -> None:
    rows = [["", "2032 (in U.S. $)", "2031 (in U.S. $)"], ["Pier fees", "7", "6"]]

    assert _by_key(rows) == {
        ("Pier fees", "FY2032"): Decimal("7"),
        ("Pier fees", "FY2031"): Decimal("6"),
    }


def test_twin_columns_with_days_glued_to_their_years_are_named_by_their_dates() -> None:
    rows = [
        ["", "november 17 2031", "december 31 2031", "december 31 2032"],
        ["Pilot index", "100", "98", "120"],
    ]

    facts = _by_key(rows)

    assert facts[("Pilot index november 17", "FY2031")] == Decimal("100")
    assert facts[("Pilot index december 31", "FY2031")] == Decimal("98")
    assert facts[("Pilot index", "FY2032")] == Decimal("120")


def test_a_footnote_digit_glued_to_a_label_is_dropped() -> None:
    rows = [["", "2032"], ["Cash used in dredging activities2", "12"], ["Tier 1 capital", "9"]]

    assert _by_key(rows) == {
        ("Cash used in dredging activities", "FY2032"): Decimal("12"),
        ("Tier 1 capital", "FY2032"): Decimal("9"),
    }
