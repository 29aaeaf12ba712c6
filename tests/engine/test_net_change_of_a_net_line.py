"""'The net change in fares': the word "net" said for the change also names the one line of
several fare lines that is the fares net of nothing else ("Net fares"); the narrower lines
("Freight fares", "Cabin fares") add a word the question does not say."""

from __future__ import annotations

from decimal import Decimal

from engine.store import InMemoryStore
from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

OWNER = "Kestrel Ferries"


def _page(rows: list[list[str]]) -> InMemoryStore:
    return table_page(OWNER, rows)


def _ask(store: InMemoryStore, question: str) -> Answer:
    (answer,) = ask_on_page(store, OWNER, question)
    return answer


FARES = _page(
    [
        ["", "2031", "2032"],
        ["Freight fares", "40", "44"],
        ["Cabin fares", "25", "21"],
        ["Net fares", "300", "320"],
    ]
)


def test_the_net_change_in_a_line_takes_its_net_line() -> None:
    answer = _ask(FARES, "what was the net change in fares from 2031 to 2032?")
    assert answer.status == "found", answer.text
    assert answer.figures[-1].value == Decimal(20)


def test_without_the_soft_word_the_lines_are_still_asked_back() -> None:
    answer = _ask(FARES, "what was the change in fares from 2031 to 2032?")
    assert answer.status == "clarify", answer.text
