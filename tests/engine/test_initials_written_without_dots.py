"""Initials a question writes without their dots (ADR 0058).

A table writes a country's initials with dots ("U.S. pension plans", "Non-U.S. pension
plans"); a question may write them as one word ("non-us", "US"). Read so, they name the
same line. Lower case "us" is also the pronoun, so "tell us" names no line.
"""

from __future__ import annotations

from decimal import Decimal

from engine.types import Answer
from tests.engine.pages import ask_on_page, table_page

OWNER = "Harbor Light"
PLANS = table_page(
    OWNER,
    [
        ["", "2032", "2031"],
        ["U.S. pension plans", "4.1", "3.9"],
        ["Non-U.S. pension plans", "2.6", "2.2"],
        ["Postretirement plans", "3.3", "3.0"],
    ],
    scale="",
)


def _values(answer: Answer) -> list[Decimal]:
    return sorted(f.value for f in answer.figures if f.kind == "fact")


def test_initials_joined_by_a_hyphen_name_the_dotted_line() -> None:
    (answer,) = ask_on_page(
        PLANS, OWNER, "How much did the non-us pension plans change from 2031 to 2032?"
    )

    assert answer.status == "found"
    assert _values(answer) == [Decimal("2.2"), Decimal("2.6")]


def test_initials_before_the_rest_of_the_label_name_the_dotted_line() -> None:
    (answer,) = ask_on_page(PLANS, OWNER, "What were the us pension plans in 2031?")

    assert answer.status == "found"
    assert _values(answer) == [Decimal("3.9")]


def test_initials_in_capitals_name_the_dotted_line() -> None:
    (answer,) = ask_on_page(PLANS, OWNER, "What were the US pension plans in 2032?")

    assert answer.status == "found"
    assert _values(answer) == [Decimal("4.1")]


def test_the_pronoun_us_names_no_line() -> None:
    (answer,) = ask_on_page(PLANS, OWNER, "Can you tell us the postretirement plans in 2032?")

    assert answer.status == "found"
    assert _values(answer) == [Decimal("3.3")]
