"""Follow-up turns over one invented report page (issue 12, ADR 0056): what a later turn
means by words an earlier turn used. Each conversation is asked in order through one
ConversationSession scoped to the page, as the chat page does."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Engine
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer

INDEX_ROWS = [
    ["", "2019", "2020", "2021"],
    ["lakeside shipping corp", "100", "92.40", "131.75"],
    ["northern freight index", "100", "108.10", "146.20"],
]


def ask(rows: list[list[str]], *questions: str) -> list[Answer]:
    engine = Engine(page_store("Lakeside/2021/page_40", rows, "", ()), MockProvider())
    session = ConversationSession(scope=ENTITY)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


def computed(answer: Answer) -> Decimal:
    return [f.value for f in answer.figures if f.kind == "computed"][-1]


def test_a_result_set_against_its_own_series_described_in_the_earlier_words() -> None:
    first, second = ask(
        INDEX_ROWS,
        "how much did the performance of the northern freight index change between 2019 and 2021?",
        "and this change is what percentage of that performance in 2019?",
    )
    assert first.status == "found" and computed(first) == Decimal("46.20")
    assert second.status == "found", second.text
    assert computed(second) == Decimal("46.2")


def test_words_the_earlier_question_never_used_still_narrow_the_figure() -> None:
    *_, second = ask(
        INDEX_ROWS,
        "how much did the performance of the northern freight index change between 2019 and 2021?",
        "and this change is what percentage of that dividend performance in 2019?",
    )
    assert second.status != "found"


# A bridge: what moved one year's figure to the next, step by step.
BRIDGE_ROWS = [
    ["", "amount ( in millions )"],
    ["2030 net sales", "480.0"],
    ["fuel surcharge", "8.0"],
    ["fleet expansion", "15.0"],
    ["lost contracts", "-3.0"],
    ["2031 net sales", "500.0"],
]


def test_a_step_of_a_bridge_is_a_figure_of_the_closing_year() -> None:
    (answer,) = ask(BRIDGE_ROWS, "what was the fleet expansion in 2031?")
    assert answer.status == "found", answer.text
    assert [f.value for f in answer.figures] == [Decimal("15.0")]


def test_a_step_divided_by_the_change_named_after_the_phrase_is_the_part() -> None:
    first, second = ask(
        BRIDGE_ROWS,
        "by how much did net sales change from 2030 to 2031?",
        "and the 2031 fuel surcharge divided by that net change?",
    )
    assert computed(first) == Decimal("20.0")
    assert second.status == "found", second.text
    assert computed(second) == Decimal("0.4")


def test_lines_between_two_different_figures_keep_no_year() -> None:
    rows = [["", "amount"], ["2030 net sales", "480.0"], ["fuel surcharge", "8.0"],
            ["2031 operating costs", "300.0"]]  # fmt: skip
    (answer,) = ask(rows, "what was the fuel surcharge in 2031?")
    assert answer.status != "found"


DOCK_ROWS = [
    ["", "2031", "2030"],
    ["total dock charges", "70", "60"],
    ["pilotage", "5", "4"],
    ["total", "75", "64"],
]


def test_that_and_a_word_of_the_figure_on_hand_names_that_figure_again() -> None:
    first, second = ask(
        DOCK_ROWS,
        "what were total dock charges in 2030 and 2031 together?",
        "and that total in 2031 alone?",
    )
    assert computed(first) == Decimal("130")
    assert second.status == "found", second.text
    assert [f.value for f in second.figures] == [Decimal("70")]


def test_the_shorter_line_is_still_asked_without_pointing_back() -> None:
    *_, second = ask(
        DOCK_ROWS,
        "what were total dock charges in 2030 and 2031 together?",
        "and the total in 2031?",
    )
    assert [f.value for f in second.figures] == [Decimal("75")]


def test_a_figure_asked_again_is_the_one_an_earlier_answer_gave() -> None:
    first, second, third = ask(
        DOCK_ROWS,
        "by how much did pilotage change from 2030 to 2031?",
        "and the specific figure for 2030 again?",
        "and what percentage rise is this over the span?",
    )
    assert computed(first) == Decimal("1")
    assert second.status == "found", second.text
    assert [f.value for f in second.figures] == [Decimal("4")]
    # Said again, the 2030 figure is no new result: "this" is still the change.
    assert third.status == "found", third.text
    assert computed(third) == Decimal("25")


def test_a_figure_asked_again_is_not_the_line_the_conversation_moved_to() -> None:
    *_, again = ask(
        DOCK_ROWS,
        "by how much did pilotage change from 2030 to 2031?",
        "what were total dock charges in 2031?",
        "and the specific value for 2030 again?",
    )
    assert [f.value for f in again.figures] == [Decimal("4")]


def test_a_figure_asked_again_that_no_answer_gave_is_not_guessed() -> None:
    *_, again = ask(
        DOCK_ROWS,
        "by how much did pilotage change from 2030 to 2031?",
        "and the value for 2029 again?",
    )
    assert again.status != "found"
    assert not again.figures
