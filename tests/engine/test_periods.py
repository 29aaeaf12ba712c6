"""normalise_period: one spelling for every period, and no period where none was written."""

from __future__ import annotations

import pytest

from engine.periods import normalise_period


@pytest.mark.parametrize(
    "text",
    ["FY2023", "fy2023", "FY 2023", "FY-2023", "FY23", "FY'23", "fiscal 2023", "Fiscal Year 2023",
     "fiscal  year  2023", "2023", " 2023 "],
)  # fmt: skip
def test_every_spelling_of_a_fiscal_year_reads_as_fy2023(text: str) -> None:
    assert normalise_period(text) == "FY2023"


@pytest.mark.parametrize(
    "text",
    ["FY2023 Q3", "FY2023Q3", "Q3 FY2023", "q3 fy23", "Q3 2023", "2023 Q3", "Q3 of fiscal 2023"],
)
def test_every_spelling_of_a_quarter_reads_as_fy2023_q3(text: str) -> None:
    assert normalise_period(text) == "FY2023 Q3"


@pytest.mark.parametrize(
    "text",
    ["1320", "FY1320", "FY99999", "20231", "2101", "1899", "23", "banana", "", "Q5 2023",
     "Q0 2023", "H1 2023", "2023 restated", "FY2023 Q3 Q4", "2023-12-31", "1,320", "$2023"],
)  # fmt: skip
def test_text_that_is_not_a_plausible_period_is_none(text: str) -> None:
    assert normalise_period(text) is None


def test_years_hold_between_1900_and_2100() -> None:
    assert normalise_period("1900") == "FY1900"
    assert normalise_period("FY2100") == "FY2100"
    assert normalise_period("1899") is None


def test_two_digit_years_pivot_like_the_question_parser() -> None:
    assert normalise_period("FY49") == "FY2049"
    assert normalise_period("FY50") == "FY1950"
