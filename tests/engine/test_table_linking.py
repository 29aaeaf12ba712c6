"""Questions over a report table read as the page prints it: a table whose years run down
the side is asked about in the column's own words, and a line named only by words that mean
nothing alone is not the answer to a question about something else."""

from __future__ import annotations

from engine.store import InMemoryStore
from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

PORT = "Gull Harbour Ferries"


def _page(rows: list[list[str]]) -> InMemoryStore:
    return table_page(PORT, rows, scale="thousand")


YEARS_DOWN_THE_SIDE = _page(
    [
        ["", "tonnes shipped", "average freight rate"],
        ["2031", "1,250", "4.10"],
        ["2032", "1,400", "4.35"],
    ]
)


def _ask(store: InMemoryStore, *questions: str) -> Answer:
    return ask_on_page(store, PORT, *questions)[-1]


def test_a_figure_of_a_table_whose_years_run_down_the_side_is_found() -> None:
    answer = _ask(YEARS_DOWN_THE_SIDE, "What were the tonnes shipped in 2032?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [1400]


def test_a_change_across_the_lines_of_such_a_table_is_computed() -> None:
    answer = _ask(
        YEARS_DOWN_THE_SIDE, "What was the change in the average freight rate from 2031 to 2032?"
    )

    assert answer.status == "found"
    assert [str(f.value) for f in answer.figures if f.kind == "computed"] == ["0.25"]


ROLL_FORWARD = _page(
    [
        ["", "2032", "2031"],
        ["Additions", "40", "35"],
        ["At end of the year", "900", "860"],
    ]
)


def test_a_line_named_only_by_period_words_does_not_answer_for_another_word() -> None:
    answer = _ask(
        ROLL_FORWARD, "What was the change in disposals between 2031 year end and 2032 year end?"
    )

    assert answer.status in ("clarify", "not_found")
    assert not answer.figures
    assert "disposals" in answer.text


def test_that_line_is_still_found_when_nothing_else_is_asked() -> None:
    answer = _ask(ROLL_FORWARD, "What was the amount at end of the year in 2032?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [900]


def test_a_scale_asked_for_is_not_a_word_of_the_figure() -> None:
    answer = _ask(ROLL_FORWARD, "What were the additions in 2032, in millions of dollars?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [40]


AWARDS = _page(
    [
        ["", "2032", "2031"],
        ["Unvested units at year-end", "310", "280"],
        ["Granted units", "120", "95"],
    ]
)


ORDERS = _page(
    [
        ["", "2032", "2031"],
        ["Order backlog at December 31", "5,400", "4,900"],
        ["Order intake", "2,100", "1,800"],
    ]
)


def test_a_line_named_but_for_its_date_words_is_found() -> None:
    answer = _ask(ORDERS, "What was the order backlog in 2032?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [5400]


def test_a_hyphenated_word_meets_the_label_that_writes_it_as_one() -> None:
    answer = _ask(AWARDS, "How many un-vested units were there in 2031?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [280]


def test_a_line_named_but_for_a_word_of_its_own_is_still_asked_back() -> None:
    answer = _ask(AWARDS, "What were the units in 2032?")

    assert answer.status == "clarify"
    assert not answer.figures


def test_prepositions_around_the_figure_are_not_words_of_it() -> None:
    answer = _ask(ROLL_FORWARD, "Regarding additions throughout 2032, what was the amount?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [40]


CASH_FLOWS = _page(
    [
        ["", "2032", "2031"],
        ["Net cashprovided by ferry operations1", "77", "70"],
        ["Net cash provided by (used in):", "", ""],
        ["Operating activities", "(426)", "310"],
        ["Financing activities", "5,798", "3,624"],
    ]
)


def test_a_line_asked_for_by_its_sections_words_is_found() -> None:
    answer = _ask(CASH_FLOWS, "How much cash was provided by operating activities in 2032?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [-426]


def test_words_a_table_glued_together_are_met() -> None:
    answer = _ask(CASH_FLOWS, "What was the net cash provided by ferry operations in 2031?")

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "fact"] == [70]
