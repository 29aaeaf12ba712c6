"""A table's figures asked by the name the page gives them: a roll-forward's closing balance
is what the subject its announcing sentence names amounts to at that date, and a table the
page does not name is not given a name."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import Answer, answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.tables import table_caption

SCHEDULE = [
    ["", "( in thousands )"],
    ["2041", "3,150"],
    ["2042", "2,975"],
    ["2043", "2,400"],
    ["later years", "9,900"],
]
ANNOUNCED = (
    "Kestrel Mills leases its warehouses under agreements ending in 2049 . "
    "the future minimum rental payments under these warehouse leases are as follows :"
)
ROLL_FORWARD = [
    ["", "2042", "2041"],
    ["balance at january 1", "612", "580"],
    ["additions for claims of the current year", "140", "118"],
    ["claims paid", "-101", "-86"],
    ["balance at december 31", "651", "612"],
]
ROLL_FORWARD_TEXT = "the following table summarizes the activity in our warranty reserve :"


def _store(rows: list[list[str]], before: str) -> InMemoryStore:
    return page_store("page:kestrel", rows, before, [], before=before)


def _ask(store: InMemoryStore, *questions: str) -> Answer:
    session = ConversationSession(scope=ENTITY)
    answers = [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]
    return answers[-1]


def _facts(answer: Answer) -> list[int]:
    return [int(f.value) for f in answer.figures if f.kind == "fact"]


def test_a_column_headed_only_by_its_scale_takes_the_name_the_page_announces() -> None:
    answer = _ask(_store(SCHEDULE, ANNOUNCED), "What are the minimum rental payments in 2042?")

    assert answer.status == "found"
    assert _facts(answer) == [2975]


def test_a_change_in_such_a_series_is_computed_over_its_years() -> None:
    answer = _ask(
        _store(SCHEDULE, ANNOUNCED),
        "What is the change in the future minimum rental payments from 2041 to 2043?",
    )

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "computed"][-1] == -750


def test_without_an_announcing_sentence_the_series_is_not_named() -> None:
    store = _store(SCHEDULE, "Kestrel Mills leases its warehouses under long agreements .")

    answer = _ask(store, "What are the minimum rental payments in 2042?")

    assert answer.status != "found"


def test_an_announcing_sentence_names_a_thing_not_the_table_or_a_clause() -> None:
    due = "the scheduled principal repayments for each year are as follows :"
    assert table_caption(due) == "scheduled principal repayments"
    assert (
        table_caption(
            "a reconciliation of the beginning and ending amounts of open "
            "tax positions is as follows ( in millions ) :"
        )
        == "open tax positions"
    )
    assert table_caption("the components are as follows :") == ""
    assert table_caption("if no loan is repaid early , payments are as follows :") == ""
    assert table_caption("revenue grew in every region .") == ""


def test_a_roll_forward_is_asked_by_its_subject_at_a_year_end() -> None:
    store = _store(ROLL_FORWARD, ROLL_FORWARD_TEXT)

    answer = _ask(store, "What was the warranty reserve in 2041?")

    assert answer.status == "found"
    assert _facts(answer) == [612]


def test_the_change_in_a_roll_forwards_subject_uses_its_closing_balances() -> None:
    store = _store(ROLL_FORWARD, ROLL_FORWARD_TEXT)

    answer = _ask(store, "What was the change in the warranty reserve from 2041 to 2042?")

    assert [f.value for f in answer.figures if f.kind == "computed"][-1] == 39


def test_a_table_whose_first_and_last_lines_differ_is_no_roll_forward() -> None:
    rows = [*ROLL_FORWARD[:-1], ["reserve released at december 31", "651", "612"]]

    answer = _ask(_store(rows, ROLL_FORWARD_TEXT), "What was the warranty reserve in 2041?")

    assert answer.status != "found"


def test_that_change_over_a_year_counted_from_the_last_is_its_span_moved_a_year() -> None:
    # "That change" a year on is the same series' change over the next two years (ADR
    # 0061), never one year-end balance (the answer this once gave, no change at all).
    rows = [
        ["", "2043", "2042", "2041"],
        ["balance at january 1", "651", "612", "580"],
        ["claims paid", "-30", "-101", "-86"],
        ["additions", "19", "140", "118"],
        ["balance at december 31", "640", "651", "612"],
    ]
    answer = _ask(
        _store(rows, ROLL_FORWARD_TEXT),
        "What was the warranty reserve in 2042?",
        "And in 2041?",
        "What was the change over the year?",
        "And what is this change as a share of the 2041 reserve?",
        "And over the following year of this period, what was that change in this total?",
    )

    assert answer.status == "found"
    assert [f.value for f in answer.figures if f.kind == "computed"] == [Decimal(-11)]


FISCAL_ROLL_FORWARD = [
    ["", "( in thousands )"],
    ["balance at september 30 , 2041", "4,000"],
    ["additions for claims of the current year", "1,300"],
    ["claims paid", "-300"],
    ["balance at september 28 , 2042", "5,000"],
]
FISCAL_TEXT = (
    "a reconciliation of the beginning and ending amount of harbour claims is as follows :"
)


def test_balances_dated_on_different_days_of_their_years_are_one_series() -> None:
    store = _store(FISCAL_ROLL_FORWARD, FISCAL_TEXT)

    answer = _ask(store, "What was the percentage change in the harbour claims in 2042?")

    assert answer.status == "found"
    assert sorted(_facts(answer)) == [4000, 5000]
    assert "25%" in answer.text
