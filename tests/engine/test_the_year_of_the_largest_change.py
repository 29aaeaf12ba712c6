""" "Which year had the biggest increase?" after a series of three or more years is the
largest of its year-on-year changes, not the change over the whole span; "and in percent?"
then takes the same changes in percent (ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

from engine.intent import Intent
from tests.engine.test_shares_and_steps import ask, page

FLEET = [
    ["", "2024", "2023", "2022", "2021"],
    ["Charter revenue", "700", "610", "600", "500"],
    ["Fuel costs", "90", "120", "95", "100"],
]


def _steps(answer) -> list[Decimal]:  # type: ignore[no-untyped-def]
    return [f.value for f in answer.figures if f.kind == "computed"]


def test_the_biggest_increase_is_the_largest_yearly_change() -> None:
    _, biggest = ask(
        page(FLEET),
        "what was charter revenue from 2021 to 2024?",
        "which year had the biggest increase?",
    )

    assert biggest.status == "found"
    assert sorted(_steps(biggest)) == [Decimal("10"), Decimal("90"), Decimal("100")]
    assert "FY2022's was the largest: 100" in biggest.text  # not 200, the span's change


def test_the_same_changes_in_percent_keep_the_end_asked() -> None:
    *_, percent = ask(
        page(FLEET),
        "what was charter revenue from 2021 to 2024?",
        "which year had the biggest increase?",
        "and in percent?",
    )

    assert "FY2022's was the largest: 20%" in percent.text  # 100 over 500; 2024's is 14.75%


def test_the_largest_fall_is_the_most_negative_change() -> None:
    _, fall = ask(
        page(FLEET),
        "what were fuel costs from 2021 to 2024?",
        "which year saw the largest decrease?",
    )

    assert "FY2024's was the largest fall: -30" in fall.text


def test_one_figure_on_hand_is_no_series_of_changes() -> None:
    _, one = ask(
        page(FLEET), "what was charter revenue in 2024?", "which year had the biggest increase?"
    )

    assert "was the largest" not in one.text


def test_a_stored_turn_keeps_that_it_asked_of_the_changes() -> None:
    _, biggest = ask(
        page(FLEET),
        "what was charter revenue from 2021 to 2024?",
        "which year had the biggest increase?",
    )

    assert Intent.from_dict("which year had the biggest increase?", biggest.intent).of_changes
