"""'The total of X' over "X, net" and a narrower "X adjustment" line (ADR 0055).

A question that asks for the whole in a word of its own ("the total of", "in total") means
the one line that adds to its name nothing but words a whole is printed with ("net",
"total"); a line that adds any other word is a part.
"""

from __future__ import annotations

from tests.engine.test_measure_words import _conversation, _facts, _page

FUEL = _page(
    [
        ["", "2032", "2031"],
        ["Marine diesel", "120", "110"],
        ["Lubricants", "30", "28"],
        ["Fuel stock revaluation", "-4", "2"],
        ["Fuel stocks, net", "146", "140"],
    ]
)


def test_the_total_of_a_line_takes_the_line_that_adds_only_net() -> None:
    (answer,) = _conversation(FUEL, "What was the total of fuel stocks in 2032?")

    assert answer.status == "found"
    assert _facts(answer) == [146]


def test_the_line_named_without_a_whole_asked_is_still_asked_back() -> None:
    (answer,) = _conversation(FUEL, "What were fuel stocks in 2032?")

    assert answer.status == "clarify"
    assert not answer.figures
