"""A roll-forward's moments said in other words (ADR 0058).

A table names its opening line with one word ("Beginning depots") and a question may say
the moment with another ("at the start of 2032"): both name the opening line. The change
between the two ends of one period is the closing line less the opening one, whichever
of them the conversation asked first.
"""

from __future__ import annotations

from decimal import Decimal

from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

OWNER = "Harbor Light"
DEPOTS = table_page(
    OWNER,
    [
        ["", "2032", "2031"],
        ["Beginning depots", "40", "36"],
        ["New depots", "6", "5"],
        ["Depots closed", "1", "1"],
        ["Ending depots", "45", "40"],
    ],
    scale="",
)


def _values(answer: Answer) -> list[Decimal]:
    return sorted(f.value for f in answer.figures if f.kind == "fact")


def test_the_start_of_a_year_names_the_beginning_line() -> None:
    (answer,) = ask_on_page(DEPOTS, OWNER, "How many depots were there at the start of 2032?")

    assert answer.status == "found"
    assert _values(answer) == [Decimal("40")]


def test_the_change_between_the_ends_is_closing_less_opening() -> None:
    *_, change = ask_on_page(
        DEPOTS,
        OWNER,
        "What were the ending depots in 2032?",
        "And the number at the start of 2032?",
        "What is the net change?",
    )

    assert change.status == "found"
    computed = [f.value for f in change.figures if f.kind == "computed"]
    assert computed == [Decimal("5")]
