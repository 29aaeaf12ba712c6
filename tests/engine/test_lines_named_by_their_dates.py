"""A question's months and a line's label dates (ADR 0055).

A roll-forward table keeps its opening and closing balances as lines of one series told apart
by a date ("Reserve—January 1", "Reserve—December 31"); a question naming those months means
those lines, not a question back among them.
"""

from __future__ import annotations

from tests.engine.test_measure_words import _conversation, _facts, _page

ROLL_FORWARD = _page(
    [
        ["", "2031"],
        ["Dredging reserve—January 1, 2031", "400"],
        ["Additions for new berths", "150"],
        ["Harbour works reserve—acquired June 30, 2031", "30"],
        ["Dredging reserve—December 31, 2031", "500"],
    ]
)


def test_the_months_asked_pick_the_opening_and_closing_lines_of_a_change() -> None:
    (answer,) = _conversation(
        ROLL_FORWARD, "By what percent did the dredging reserve grow from jan 2031 to dec 2031?"
    )

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [400, 500]
    assert "25%" in answer.text


def test_one_month_asked_picks_its_one_line() -> None:
    (answer,) = _conversation(ROLL_FORWARD, "What was the dredging reserve at december 31, 2031?")

    assert answer.status == "found"
    assert _facts(answer) == [500]


def test_a_month_no_line_carries_is_still_asked_back() -> None:
    (answer,) = _conversation(ROLL_FORWARD, "What was the dredging reserve in march 2031?")

    assert answer.status == "clarify"
    assert not answer.figures
