"""Dated headings packed to the left over repeated sub-headings, and "the year prior"
(ADR 0059).

Extracted tables often drop the empty cells a spanning heading leaves: a row of two dates
over a row of sub-headings that repeats one block ("Grain", "Timber", "Grain", "Timber")
heads one block per date. Each column then has the date it stands under, and its
sub-heading tells apart the two columns of one year. "The year prior" after a year is the
year before it, as "the year before" is.
"""

from __future__ import annotations

from engine.tables import read_table
from engine.timeframe import read_timeframe
from tests.engine.test_measure_words import _conversation, _facts, _page

ROWS = [
    ["", "December 31, 2032", "December 31, 2031"],
    ["In millions", "Grain", "Timber", "Grain", "Timber"],
    ["Cargo carried at year end", "510", "220", "470", "260"],
    ["Cargo lost in transit", "12", "3", "9", "4"],
]


def test_each_date_heads_the_block_of_sub_headings_below_it() -> None:
    facts = {(f.metric, f.period): f.value for f in read_table(ROWS)}

    assert facts[("Cargo carried at year end Grain", "FY2032")] == 510
    assert facts[("Cargo carried at year end Timber", "FY2032")] == 220
    assert facts[("Cargo carried at year end Grain", "FY2031")] == 470
    assert facts[("Cargo carried at year end Timber", "FY2031")] == 260


def test_a_change_between_the_two_dated_blocks_is_answered() -> None:
    (answer,) = _conversation(
        _page(ROWS), "What was the change in cargo carried at year end for grain in 2032?"
    )

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [470, 510]


def test_sub_headings_that_do_not_repeat_are_read_as_printed() -> None:
    rows = [
        ["", "December 31, 2032", "December 31, 2031"],
        ["", "Grain", "Timber", "Ore", "Salt"],
        ["Cargo carried at year end", "510", "220", "470", "260"],
    ]

    facts = {(f.metric, f.period) for f in read_table(rows)}

    assert ("Cargo carried at year end Ore", "") in facts
    assert ("Cargo carried at year end Ore", "FY2031") not in facts


def test_the_year_prior_is_the_year_before_the_one_named() -> None:
    frame = read_timeframe("What was the change between 2032 and the year prior?")

    assert set(frame.periods) == {"FY2032", "FY2031"}


def test_a_difference_with_the_year_prior_is_answered() -> None:
    (answer,) = _conversation(
        _page(ROWS),
        "What was the difference in cargo carried at year end for timber between 2032 and the "
        "year prior?",
    )

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [220, 260]
