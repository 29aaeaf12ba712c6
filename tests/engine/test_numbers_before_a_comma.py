"""A number written before a comma, and the days of a year's dated columns (ADR 0058).

"As of December 31, 2032" holds the day "31", not "31,": read so, it names a line dated
"as of December 31" as the label writes it. A day said with the question's date names a
moment, not a line, so it carries no weight toward a line only partly named. A change
between one line's figures at two dates of a year is the later less the earlier, in
whichever order the question names them; "the difference between" keeps its own order.
"""

from __future__ import annotations

from decimal import Decimal

from engine.text import TOKEN
from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

OWNER = "Harbor Light"
AWARDS = table_page(
    OWNER,
    [
        ["", "Number of shares", "Weighted average grant date fair value"],
        ["Non-vested total as of December 31, 2031", "40", "10.5"],
        ["Granted", "6", "11.0"],
        ["Vested", "2", "9.0"],
        ["Non-vested total as of December 31, 2032", "44", "10.8"],
    ],
    scale="",
)
QUARTERS = table_page(
    OWNER,
    [
        ["", "January 26, 2032", "April 27, 2032"],
        ["Net income", "100", "130"],
        ["Revenue", "900", "950"],
    ],
    scale="",
)


def _computed(answer: Answer) -> list[Decimal]:
    return [f.value for f in answer.figures if f.kind == "computed"]


def test_a_number_ends_before_its_comma() -> None:
    assert TOKEN.findall("December 31, 2032, 1,250.5") == ["December", "31", "2032", "1,250.5"]


def test_the_day_of_the_question_names_the_line_dated_so() -> None:
    (answer,) = ask_on_page(
        AWARDS, OWNER, "As of December 31, 2032, what was the total number of non-vested shares?"
    )

    assert answer.status == "found"
    assert [f.value for f in answer.figures] == [Decimal("44")]


def test_the_day_alone_does_not_take_a_line_only_partly_named() -> None:
    (answer,) = ask_on_page(
        AWARDS, OWNER, "What is the total number of shares as of December 31, 2032?"
    )

    assert answer.status != "found"


def test_a_change_between_two_dates_is_the_later_less_the_earlier() -> None:
    (answer,) = ask_on_page(
        QUARTERS,
        OWNER,
        "What was the change in net income between January 26 and April 27, 2032?",
    )

    assert answer.status == "found"
    assert _computed(answer) == [Decimal("30")]


def test_the_difference_between_two_dates_keeps_the_question_order() -> None:
    (answer,) = ask_on_page(
        QUARTERS,
        OWNER,
        "What was the difference in net income between January 26 and April 27, 2032?",
    )

    assert answer.status == "found"
    assert _computed(answer) == [Decimal("-30")]
