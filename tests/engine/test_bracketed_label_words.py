"""A line's bracketed words (its scale, a footnote) qualify it: a question naming the rest
of the line means that line, even beside a word that names nothing held ("projected")."""

from __future__ import annotations

from engine.store import InMemoryStore
from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

OWNER = "Kestrel Ferries"


def _page(rows: list[list[str]]) -> InMemoryStore:
    return table_page(OWNER, rows)


def _ask(store: InMemoryStore, question: str) -> Answer:
    (answer,) = ask_on_page(store, OWNER, question)
    return answer


CHARTERS = _page(
    [
        ["Years ending June 30,", "Charter commitments (in $000s)"],
        ["2031", "2,400"],
        ["2032", "2,520"],
        ["2033", "2,646"],
        ["Thereafter", "9,000"],
        ["Total minimum charter payments", "16,566"],
    ]
)

CREWS = _page(
    [
        ["", "Crew (thous.)", "Average wage"],
        ["Contracted at July 1, 2032", "4.2", "61.5"],
        ["Hired", "1.1", "58.0"],
        ["Contracted at June 30, 2033", "4.9", "62.3"],
    ]
)


def test_a_line_named_but_for_its_bracketed_scale_answers() -> None:
    answer = _ask(
        CHARTERS, "what is the projected percent rise in charter commitments from 2032 to 2033?"
    )
    assert answer.status == "found", answer.text
    assert answer.figures[-1].kind == "computed"
    assert round(answer.figures[-1].value, 1) == 5  # 2,520 -> 2,646


def test_a_heading_in_thousands_written_short_keeps_its_scale() -> None:
    answer = _ask(CREWS, "how many crew were contracted at june 30, 2033?")
    assert answer.status == "found", answer.text
    assert "4.9 thousand" in answer.text
