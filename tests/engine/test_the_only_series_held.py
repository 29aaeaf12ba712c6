"""A page that holds one series only (ADR 0055).

A table whose lines are dates and whose one column is the series ("Tonnage handled at Pier
Four") is asked by part of that name ("the tonnage"). With nothing else held, the part
named can only mean that series; with a word the series does not hold, or beside other
series, the question is still asked back.
"""

from __future__ import annotations

from tests.engine.test_measure_words import _conversation, _facts, _page

ONE_SERIES = _page(
    [
        ["(in thousands)", "Tonnage handled at the Pier Four terminal"],
        ["December 31, 2032", "412"],
        ["December 31, 2031", "380"],
    ]
)


def test_part_of_the_only_series_held_names_it() -> None:
    (answer,) = _conversation(ONE_SERIES, "How much did the tonnage change from 2031 to 2032?")

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [380, 412]
    assert "32" in answer.text


def test_a_word_the_only_series_does_not_hold_is_still_asked_back() -> None:
    (answer,) = _conversation(
        ONE_SERIES, "How much did the refrigerated tonnage change from 2031 to 2032?"
    )

    assert answer.status != "found"
    assert not _facts(answer)


def test_part_of_one_series_among_several_is_still_asked_back() -> None:
    store = _page(
        [
            ["", "2031", "2032"],
            ["Tonnage handled at the Pier Four terminal", "380", "412"],
            ["Vessel calls at the Pier Four terminal", "51", "57"],
        ]
    )
    (answer,) = _conversation(store, "How much did the tonnage change from 2031 to 2032?")

    assert answer.status != "found"
    assert not _facts(answer)
