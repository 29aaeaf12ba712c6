"""Periods a table prints as its column headings, asked in the same form: "on 12/30" over
columns headed 12/29 ... 12/31, and a year whose columns are two dates of it."""

from __future__ import annotations

import pytest

from engine.timeframe import read_timeframe
from tests.engine.test_measure_words import OWNER, _conversation, _facts, _page


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("What was it on 12/30?", ("FY2030",)),
        ("and between 12/31/05 and 12/31/10?", ("FY2005", "FY2010")),
        ("What was it at 6/30/2031?", ("FY2031",)),
    ],
)
def test_a_date_written_with_slashes_is_its_year(question: str, periods: tuple[str, ...]) -> None:
    assert read_timeframe(question).periods == periods


@pytest.mark.parametrize("question", ["What is 1/3 of the reserve?", "a ratio of 3/4", "13/30"])
def test_a_fraction_is_no_period(question: str) -> None:
    assert read_timeframe(question).periods == ()


SLASHED = _page(
    [
        ["", "12/29", "12/30", "12/31"],
        [OWNER, "100", "91.20", "118.75"],
        ["Harbourside Transport Index", "100", "104.20", "99.80"],
    ]
)


def test_a_column_headed_by_a_slashed_date_is_found_when_asked_so() -> None:
    (answer,) = _conversation(SLASHED, "What was the value of the harbourside index on 12/30?")

    assert answer.status == "found"
    assert _facts(answer) == [104.2]


TWO_DATES_IN_ONE_YEAR = _page(
    [
        ["", "January 2, 2031", "December 31, 2031", "December 29, 2032"],
        ["Harbourside Transport Index", "100", "104.20", "99.80"],
        ["Coastal Freight Index", "100", "96.10", "101.35"],
    ]
)


def test_the_one_line_of_a_series_that_holds_the_year_asked_answers_it() -> None:
    # Two columns of 2031 make three lines of one series ("... January 2", "... December
    # 31" and the plain one); only the plain one holds 2032.
    (answer,) = _conversation(TWO_DATES_IN_ONE_YEAR, "What was the harbourside index in 2032?")

    assert answer.status == "found"
    assert _facts(answer) == [99.8]


def test_a_year_held_at_two_dates_is_still_asked_back() -> None:
    (answer,) = _conversation(TWO_DATES_IN_ONE_YEAR, "What was the harbourside index in 2031?")

    assert answer.status == "clarify"
    assert not answer.figures


def test_lines_that_differ_by_more_than_a_date_are_still_asked_back() -> None:
    store = _page(
        [
            ["", "2031", "2032"],
            ["Ferry fares revenue", "300", ""],
            ["Freight fares revenue", "410", "455"],
        ]
    )
    (answer,) = _conversation(store, "What was the fares revenue in 2032?")

    assert answer.status == "clarify"
    assert not answer.figures
