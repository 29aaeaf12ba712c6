"""A line that is itself a ratio ("Debt to capital at the end of the year", in percent):
"the debt-to-capital ratio" names that line, so "the change in the debt-to-capital ratio" is
one change of one line, not a ratio and a change composed (ADR 0076). And a question the
engine does not compute in one step is told so, not that askapp "does not forecast"."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import COMPOSED_TEXT, UNSUPPORTED_TEXT
from tests.engine.test_shares_and_steps import ask, page

LEVERAGE = [
    ["", "2021", "2020", "2019"],
    ["Debt to capital at the end of the year", "50.1%", "52.1%", "52.5%"],
    ["Effect of subtracting cash from debt", "2.0%", "1.9%", "1.5%"],
    ["Loan to value, average", "61.0%", "63.5%", "64.0%"],
]


def test_the_change_in_a_ratio_the_table_holds_is_the_change_of_that_line() -> None:
    (change,) = ask(page(LEVERAGE), "how did the debt-to-capital ratio change from 2020 to 2021?")
    (level,) = ask(page(LEVERAGE), "what was the loan to value ratio in 2019?")

    assert change.status == "found"
    assert [f.value for f in change.figures if f.kind == "computed"] == [Decimal("-2.0")]
    assert level.status == "found"
    assert [f.value for f in level.figures] == [Decimal("64.0")]


def test_a_calculation_in_several_steps_is_not_called_a_forecast() -> None:
    (composed,) = ask(
        page(LEVERAGE), "what was the average of the yearly changes in the effect of cash?"
    )
    (forecast,) = ask(page(LEVERAGE), "what will the debt to capital ratio be next year?")

    assert composed.status == "not_found"
    assert composed.text == COMPOSED_TEXT
    assert "forecast" not in composed.text
    assert forecast.text == UNSUPPORTED_TEXT
