"""Periods a table prints as its column headings, asked in the same form: "on 12/30" over
columns headed 12/29 ... 12/31."""

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
