"""The total of one line read only in columns that are not periods (ADR 0055).

A line printed once per pier ("North pier", "South pier", "Other") with no column that
totals it is asked for "in total": the answer is the sum of its columns. Where the table
prints a Total column, that column is the total, and the engine does not add up its own.
"""

from __future__ import annotations

from tests.engine.test_measure_words import _conversation, _facts, _page

BY_PIER = _page(
    [
        ["", "North pier", "South pier", "Other"],
        ["Berths in service", "12", "9", "4"],
        ["Estimated 2032 dredging cost", "31", "22", "6"],
    ]
)


def test_the_total_of_a_line_read_in_columns_is_their_sum() -> None:
    (answer,) = _conversation(BY_PIER, "What is the total estimated dredging cost in 2032?")

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [6, 22, 31]
    assert "59" in answer.text


def test_a_total_column_is_not_added_up_again() -> None:
    store = _page(
        [
            ["", "North pier", "South pier", "Total"],
            ["Berths in service", "12", "9", "21"],
            ["Estimated 2032 dredging cost", "31", "22", "53"],
        ]
    )
    (answer,) = _conversation(store, "What is the total estimated dredging cost in 2032?")

    assert answer.status == "found"
    assert _facts(answer) == [53]


def test_without_a_total_asked_the_columns_are_asked_back() -> None:
    (answer,) = _conversation(BY_PIER, "What is the estimated dredging cost in 2032?")

    assert answer.status == "clarify"
    assert not answer.figures
