"""A lookup over a range answers the periods held and names those that are not (ADR 0040)."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.providers.mock import MockProvider
from engine.store import InMemoryStore
from engine.types import Fact, Term

QUARRY = "Quarry Lane"
STORE = InMemoryStore(
    entities=[Term(QUARRY), Term("Other Co")],
    metrics=[Term("Gravel output")],
    facts=[
        Fact(f"f{year}", QUARRY, "Gravel output", f"FY{year}", Decimal(year - 2000), "tonnes")
        for year in (2031, 2032, 2034)
    ],
)


def test_a_range_partly_held_answers_the_held_years_and_names_the_rest() -> None:
    answer = answer_question(
        "What was Quarry Lane's gravel output from FY2030 to FY2034?", STORE, MockProvider()
    )

    assert answer.status == "found"
    facts = [f.period for f in answer.figures if f.kind == "fact"]
    assert facts == ["FY2031", "FY2032", "FY2034"]
    assert "FY2030 or FY2033" in answer.text


def test_a_range_of_which_one_year_is_held_reads_as_that_years_figure() -> None:
    answer = answer_question(
        "What was Quarry Lane's gravel output from FY2033 to FY2035?", STORE, MockProvider()
    )

    assert answer.status == "found"
    assert answer.text.startswith("Quarry Lane's Gravel output in FY2034 was 34 tonnes [1].")
    assert "FY2033 or FY2035" in answer.text


def test_a_range_wholly_held_names_nothing_missing() -> None:
    answer = answer_question(
        "What was Quarry Lane's gravel output from FY2031 to FY2032?", STORE, MockProvider()
    )

    assert [f.period for f in answer.figures if f.kind == "fact"] == ["FY2031", "FY2032"]
    assert "holds no figure" not in answer.text


def test_a_range_of_which_nothing_is_held_is_not_found() -> None:
    answer = answer_question(
        "What was Quarry Lane's gravel output from FY2040 to FY2042?", STORE, MockProvider()
    )

    assert answer.status == "not_found"
    assert not answer.figures


def test_a_change_in_the_latest_year_is_from_the_year_before() -> None:
    answer = answer_question(
        "What was the change in Quarry Lane's gravel output in the latest year?",
        STORE, MockProvider(),
    )  # fmt: skip

    computed = [f for f in answer.figures if f.kind == "computed"]
    assert answer.status == "found"
    assert [f.value for f in computed] == [Decimal(2)]  # FY2032 to FY2034, never 0 from itself
