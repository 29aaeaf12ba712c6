"""Words that ask for a figure without naming one: "the balance of X", "the performance value
of X", "the percentage change". They must not block a line item the other words name, nor
link on their own a line whose label merely holds them; a word that names a narrower figure
is still asked back."""

from __future__ import annotations

from decimal import Decimal

from engine.store import InMemoryStore
from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

OWNER = "Lantern Bay Shipping"


def _page(rows: list[list[str]]) -> InMemoryStore:
    return table_page(OWNER, rows, scale="")


def _conversation(store: InMemoryStore, *questions: str) -> list[Answer]:
    return ask_on_page(store, OWNER, *questions)


RESERVES = _page(
    [
        ["", "2031", "2032"],
        ["Dredging reserve", "410", "455"],
        ["Hull insurance reserve", "120", "98"],
        ["Revenue", "2,300", "2,510"],
        ["Berth fee percentage change", "3.1", "4.2"],
    ]
)

INDEXED = _page(
    [
        ["", "2030", "2031", "2032"],
        ["Lantern Bay Shipping", "100", "112.40", "131.05"],
        ["Harbourside Transport Index", "100", "104.20", "99.80"],
    ]
)


def _facts(answer: Answer) -> list[float]:
    return [float(f.value) for f in answer.figures if f.kind == "fact"]


def test_the_balance_of_a_line_item_is_that_line_item() -> None:
    (answer,) = _conversation(RESERVES, "What was the balance of the dredging reserve in 2032?")

    assert answer.status == "found"
    assert _facts(answer) == [455]


def test_a_change_in_the_balance_of_a_line_item_is_computed() -> None:
    (answer,) = _conversation(
        RESERVES,
        "What was the change in the balance of the hull insurance reserve from 2031 to 2032?",
    )

    assert answer.status == "found"
    assert [float(f.value) for f in answer.figures if f.kind == "computed"] == [-22]


def test_the_performance_value_of_an_index_is_its_line() -> None:
    (answer,) = _conversation(
        INDEXED, "What was the performance value of the harbourside transport index in 2032?"
    )

    assert answer.status == "found"
    assert _facts(answer) == [99.8]


def test_a_word_naming_a_narrower_figure_is_still_asked_back() -> None:
    (answer,) = _conversation(RESERVES, "What was the cargo revenue in 2031?")

    assert answer.status == "clarify"
    assert "not a separate figure for “cargo”" in answer.text
    assert not answer.figures


def test_a_percentage_change_after_a_change_is_taken_of_the_figure_on_hand() -> None:
    # "Berth fee percentage change" holds both words, but they name the calculation only.
    *_, answer = _conversation(
        RESERVES,
        "What was the change in the dredging reserve from 2031 to 2032?",
        "And what was the percentage change over that time?",
    )

    assert answer.status == "found"
    computed = [f for f in answer.figures if f.kind == "computed"]
    assert computed and computed[-1].role_or_kind == "percent change"
    assert round(float(computed[-1].value), 2) == 10.98


def test_a_lone_measure_noun_does_not_link_a_line_that_merely_holds_it() -> None:
    # "Its amount" names no figure: after an answer about the dredging reserve it is that one,
    # not a question back about the one line whose label says "amounts".
    store = _page(
        [
            ["", "2031", "2032"],
            ["Dredging reserve", "410", "455"],
            ["Amounts due to pilots", "12", "15"],
        ]
    )
    *_, answer = _conversation(
        store, "What was the dredging reserve in 2031?", "What was its amount in 2032?"
    )

    assert answer.status == "found"
    assert _facts(answer) == [455]


def test_after_a_question_back_about_the_figure_an_older_figure_is_not_taken() -> None:
    store = _page(
        [
            ["", "2031", "2032"],
            ["Dredging reserve", "410", "455"],
            ["Balance at start of season", "70", "80"],
            ["Balance at close of season", "80", "95"],
        ]
    )
    *_, answer = _conversation(
        store,
        "What was the dredging reserve in 2031?",
        "What was the balance in 2032?",
        "What was its change from 2031 to 2032?",
    )

    assert answer.status == "clarify"
    assert not answer.figures


PERFORMANCE_GRAPH = _page(
    [
        ["", "2030", "2031", "2032"],
        ["Tidewater Marine Corporation", "100", "112.40", "131.05"],
        ["Harbourside Transport Index", "100", "104.20", "99.80"],
        ["Peer group", "100", "101.00", "97.50"],
        ["Crude oil", "5,200", "5,450", "5,610"],
    ]
)


def test_the_price_of_a_company_or_an_index_is_its_line() -> None:
    for question, value in (
        ("What was the price of Tidewater Marine Corporation in 2031?", 112.4),
        ("What was the return of the harbourside transport index in 2032?", 99.8),
        ("what is the stock price of the peer group in 2032?", 97.5),
    ):
        (answer,) = _conversation(PERFORMANCE_GRAPH, question)

        assert answer.status == "found", question
        assert _facts(answer) == [value]


def test_the_price_of_a_line_that_names_no_security_is_asked_back() -> None:
    # "Crude oil" here is a volume: its price is another figure, not held.
    (answer,) = _conversation(PERFORMANCE_GRAPH, "What was the price of crude oil in 2031?")

    assert answer.status == "clarify"
    assert not answer.figures


def test_a_constant_after_a_slip_between_operator_and_number_is_not_a_lookup() -> None:
    # "less and initial 100": a calculation is asked; the index's own figure is not its answer.
    (answer,) = _conversation(
        PERFORMANCE_GRAPH, "What is the price of the peer group in 2032 less and initial 100?"
    )

    # Never the index's own figure alone: the calculation, from the line and the constant.
    assert answer.status == "found"
    assert [f.kind for f in answer.figures] == ["fact", "computed"]
    assert answer.figures[-1].value == Decimal("-2.5")


def test_a_follow_up_asking_the_price_takes_the_security_on_hand() -> None:
    *_, answer = _conversation(
        PERFORMANCE_GRAPH,
        "What was the price of the harbourside transport index in 2031?",
        "And what is the price in 2032?",
    )

    assert answer.status == "found"
    assert _facts(answer) == [99.8]


def test_a_follow_up_asking_the_price_of_a_line_that_names_no_security_is_asked_back() -> None:
    *_, answer = _conversation(
        PERFORMANCE_GRAPH, "What was the crude oil in 2031?", "And what is the price in 2032?"
    )

    assert answer.status == "clarify"
    assert not answer.figures


def test_that_return_in_a_year_is_the_security_s_own_figure() -> None:
    *_, answer = _conversation(
        PERFORMANCE_GRAPH,
        "What was the change in the return of the harbourside transport index from 2030 to 2032?",
        "And how much does this change represent in relation to that return in 2030?",
    )

    assert answer.status == "found"
    computed = [f for f in answer.figures if f.kind == "computed"]
    assert computed and round(float(computed[-1].value), 4) == -0.002
