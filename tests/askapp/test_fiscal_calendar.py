"""Fiscal periods are named as the company names them, from the figures' own dates."""

from __future__ import annotations

from datetime import date

import pytest

from askapp.importers.fiscal import AnnualEnd, FiscalCalendar, is_fiscal_year, is_quarter


def _calendar(*reports: tuple[str, int | None]) -> FiscalCalendar:
    calendar = FiscalCalendar.learn(AnnualEnd(date.fromisoformat(d), fy) for d, fy in reports)
    assert calendar is not None
    return calendar


def test_a_year_ending_in_january_is_named_by_the_year_it_ends_in() -> None:
    snowflake = _calendar(("2023-01-31", 2023), ("2024-01-31", 2024), ("2025-01-31", 2025))
    assert snowflake.year_ending(date(2024, 1, 31)) == 2024
    assert snowflake.year_ending(date(2018, 1, 31)) == 2018  # restated years too


def test_52_53_week_years_keep_their_names_as_their_end_wanders() -> None:
    # NVIDIA's year ends on the last Sunday of January: a 53-week year now and then.
    nvidia = _calendar(
        ("2020-01-26", 2020), ("2021-01-31", 2021), ("2022-01-30", 2022), ("2025-01-26", 2025)
    )
    ends = {"2020-01-26": 2020, "2021-01-31": 2021, "2023-01-29": 2023, "2024-01-28": 2024}
    for end, year in ends.items():
        assert nvidia.year_ending(date.fromisoformat(end)) == year, end
    assert is_fiscal_year(date(2020, 1, 27), date(2021, 1, 31))  # 53 weeks
    assert is_fiscal_year(date(2023, 1, 30), date(2024, 1, 28))  # 52 weeks


def test_a_52_53_week_year_ending_in_early_january_belongs_to_the_year_before() -> None:
    # The Saturday nearest December 31: the year ending 2 January 2021 is fiscal 2020.
    calendar = _calendar(("2021-01-02", 2020), ("2022-01-01", 2021), ("2023-12-30", 2023))
    assert calendar.year_ending(date(2021, 1, 2)) == 2020
    assert calendar.year_ending(date(2019, 12, 28)) == 2019
    assert calendar.year_ending(date(2022, 12, 31)) == 2022


def test_a_company_naming_years_by_their_start_keeps_its_names() -> None:
    # Some retailers: the year ending 3 February 2024 is their fiscal 2023.
    calendar = _calendar(("2024-02-03", 2023), ("2025-02-01", 2024))
    assert calendar.year_ending(date(2024, 2, 3)) == 2023
    assert calendar.year_ending(date(2023, 1, 28)) == 2022


def test_the_year_of_the_filing_never_names_a_restated_year() -> None:
    """A 10-K filed for FY2025 restates FY2023: the row's end date names it, not `fy`."""
    calendar = _calendar(("2025-01-31", 2025))
    assert calendar.year_ending(date(2023, 1, 31)) == 2023


def test_a_stray_fy_does_not_rename_the_years() -> None:
    calendar = _calendar(("2022-12-31", 2022), ("2023-12-31", 2023), ("2024-12-31", 2025))
    assert calendar.year_ending(date(2024, 12, 31)) == 2024


def test_a_date_far_from_the_fiscal_year_end_is_no_year_end() -> None:
    calendar = _calendar(("2024-12-31", 2024))
    assert calendar.year_ending(date(2024, 6, 30)) is None
    assert calendar.year_ending(date(2025, 1, 8)) == 2024  # a 52/53-week wander is fine
    assert calendar.year_ending(date(2025, 1, 20)) is None


@pytest.mark.parametrize(
    ("end", "quarter"),
    [("2023-04-30", (2024, 1)), ("2023-07-31", (2024, 2)), ("2023-10-31", (2024, 3))],
)
def test_quarters_count_back_from_the_fiscal_year_end(end: str, quarter: tuple[int, int]) -> None:
    snowflake = _calendar(("2024-01-31", 2024))
    assert snowflake.quarter_ending(date.fromisoformat(end)) == quarter


def test_13_week_quarters_of_a_52_53_week_year_are_named_too() -> None:
    nvidia = _calendar(("2025-01-26", 2025))
    assert nvidia.quarter_ending(date(2024, 10, 27)) == (2025, 3)
    assert nvidia.quarter_ending(date(2024, 4, 28)) == (2025, 1)
    assert is_quarter(date(2024, 7, 29), date(2024, 10, 27))
    assert not is_quarter(date(2024, 1, 29), date(2024, 10, 27))  # nine months


def test_no_annual_report_means_no_calendar() -> None:
    assert FiscalCalendar.learn([]) is None


def test_a_company_that_moved_its_year_end_keeps_the_years_before_the_move() -> None:
    # December year ends up to FY2019, then (after a six-month transition report, which is no
    # fiscal year) June year ends from FY2021 on.
    moved = _calendar(
        ("2018-12-31", 2018), ("2019-12-31", 2019), ("2021-06-30", 2021), ("2022-06-30", 2022)
    )
    assert moved.year_ending(date(2017, 12, 31)) == 2017  # restated under the old year end
    assert moved.year_ending(date(2019, 12, 31)) == 2019
    assert moved.year_ending(date(2020, 6, 30)) == 2020  # the transition year: the new calendar
    assert moved.year_ending(date(2022, 6, 30)) == 2022
    # A calendar year recast after the move is no fiscal year of the new calendar.
    assert moved.year_ending(date(2020, 12, 31)) is None
    assert moved.year_ending(date(2018, 6, 30)) is None  # nor mid-year under the old one
    assert moved.quarter_ending(date(2019, 9, 30)) == (2019, 3)
    assert moved.quarter_ending(date(2021, 12, 31)) == (2022, 2)
    assert "the year end moved: earlier years ended until 2019-12-31 near December 31" in (
        moved.describe()
    )


def test_a_wandering_52_53_week_year_end_is_one_calendar_not_a_move() -> None:
    wandering = _calendar(("2020-01-26", 2020), ("2021-01-31", 2021), ("2022-01-30", 2022))
    assert len(wandering.eras) == 1
