"""A scale written in one line's label is that line's, not the table's (issue 12, ADR 0062).
An invented ferry operator's page: passengers counted in thousands on the first line, money
in plain figures below it."""

from __future__ import annotations

from tests.engine.test_shares_and_steps import ask, page

FERRIES = [
    ["", "2022", "2021"],
    ["Passengers carried (thousands)", "500", "400"],
    ["Fare revenue", "1000", "900"],
]


def test_a_line_below_a_label_that_counts_in_thousands_is_not_in_thousands() -> None:
    (fares,) = ask(page(FERRIES), "what was fare revenue in 2022?")

    assert fares.status == "found"
    assert "thousand" not in fares.text
    assert [(f.value, f.unit) for f in fares.figures if f.kind == "fact"] == [(1000, "")]


def test_a_scale_in_the_heading_row_still_scales_every_line() -> None:
    headed = [["(in thousands)", "2022", "2021"], *FERRIES[2:]]

    (fares,) = ask(page(headed), "what was fare revenue in 2022?")

    assert [(f.value, f.unit) for f in fares.figures if f.kind == "fact"] == [(1000, "thousand")]
