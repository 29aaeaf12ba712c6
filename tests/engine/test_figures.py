"""How figures are written, read back from text, computed, and read out of report tables."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.calc import compute
from engine.grounding import Grounder, figures_in, sentences
from engine.numbers import format_value
from engine.tables import parse_number, read_table, table_scale
from engine.timeframe import read_timeframe
from engine.types import Fact, Passage


@pytest.mark.parametrize(
    ("value", "unit", "shown"),
    [
        ("383285000000", "USD", "USD 383.3 billion"),
        ("-2222000000", "USD", "USD -2.22 billion"),
        ("1200000000000", "USD", "USD 1.20 trillion"),
        ("-11043000000", "USD", "USD -11.0 billion"),
        ("6.13", "USD/share", "USD 6.13 per share"),
        ("15550061000", "shares", "15.6 billion shares"),
        ("-2.800461", "%", "-2.8%"),
        ("0.2531", "ratio", "0.2531"),
        ("1496.5", "million", "1,496.5 million"),
        ("950", "USD", "USD 950"),
    ],
)
def test_values_read_like_a_report(value: str, unit: str, shown: str) -> None:
    assert format_value(Decimal(value), unit) == shown


def _fact(value: str, unit: str = "USD", period: str = "FY2023") -> Fact:
    return Fact(f"f:{value}", "Acme", "Revenue", period, Decimal(value), unit)


def test_arithmetic_is_exact_and_refuses_what_would_mislead() -> None:
    assert compute("difference", [_fact("100"), _fact("90")]) == (Decimal(-10), "USD")
    assert compute("percent_change", [_fact("80"), _fact("100")]) == (Decimal(25), "%")
    assert compute("ratio", [_fact("1"), _fact("3")]) == (Decimal("0.333333"), "ratio")
    assert compute("average", [_fact("1"), _fact("2")]) == (Decimal("1.5"), "USD")
    assert compute("percent_change", [_fact("0"), _fact("1")]) is None
    assert compute("difference", [_fact("1"), _fact("1", unit="EUR")]) is None
    assert compute("ratio", [_fact("1"), _fact("0")]) is None


@pytest.mark.parametrize(
    ("text", "periods", "is_range"),
    [
        ("between 2018 and 2019", ("FY2018", "FY2019"), True),
        ("in 2018 and 2019", ("FY2018", "FY2019"), False),
        ("from 2017 to 2019", ("FY2017", "FY2019"), True),
        ("2017-2019", ("FY2017", "FY2019"), True),
        ("Q3 FY2023", ("FY2023 Q3",), False),
        ("the third quarter of 2023", ("FY2023 Q3",), False),
        ("December 31, 2019", ("FY2019",), False),
        ("2019 compared with the prior year", ("FY2019", "FY2018"), False),
        ("$2019 million", (), False),
        ("grew 2019%", (), False),
        ("1320 and 999", (), False),
    ],
)
def test_timeframes(text: str, periods: tuple[str, ...], is_range: bool) -> None:
    frame = read_timeframe(text)

    assert (frame.periods, frame.is_range) == (periods, is_range)


def test_figures_in_text_keep_their_scale_and_ignore_citations() -> None:
    found = figures_in("Sales rose 8% or $28.5 billion [2] to 1,234.50 units in FY2022.")

    assert [(f.number, f.qualifier) for f in found] == [
        ("8", "%"),
        ("28.5", "billion"),
        ("1234.5", ""),
        ("2022", ""),
    ]


def test_sentences_are_cut_as_they_complete_not_at_decimals_or_initials() -> None:
    deltas = ["Revenue was $91", ".3 billion in the U.S. market [1]. Ne", "xt one.\nLast"]

    assert list(sentences(deltas)) == [
        "Revenue was $91.3 billion in the U.S. market [1].",
        "Next one.",
        "Last",
    ]


def test_grounder_keeps_held_figures_and_drops_invented_ones() -> None:
    grounder = Grounder([Passage("p1", "d", "T", "Revenue was $91.3 billion in 2021.", "PUBLIC")])

    assert grounder.sentence("Revenue was $91.3 billion [1].") == "Revenue was $91.3 billion [1]."
    assert grounder.sentence("It may reach $95 billion [1].") is None
    assert grounder.sentence("Revenue was $91.3 million [1].") is None
    assert grounder.cited_passages()[0].id == "p1"


@pytest.mark.parametrize(
    ("cell", "parsed"),
    [
        ("$ 1,452.4", (Decimal("1452.4"), False)),
        ("(1,234)", (Decimal("-1234"), False)),
        ("$(9,982)", (Decimal("-9982"), False)),
        ("12.5%", (Decimal("12.5"), True)),
        ("—", None),
        ("", None),
        ("n/a", None),
    ],
)
def test_table_cells_are_read_faithfully(cell: str, parsed: tuple[Decimal, bool] | None) -> None:
    assert parse_number(cell) == parsed


def test_a_report_table_becomes_facts_with_sections_and_spanning_headers() -> None:
    rows = [
        ["", "Years Ended September 30,", "", ""],
        ["(in millions)", "2019", "2018", "2017"],
        ["Current:", "", "", ""],
        ["Federal", "$ 10", "(2)", "3"],
        ["Deferred:", "", "", ""],
        ["Federal", "4", "5", "—"],
        ["Total", "14", "3", "3"],
    ]

    facts = read_table(rows, scale=table_scale(rows))

    by_key = {(f.metric, f.period): f.value for f in facts}
    assert by_key[("Current Federal", "FY2019")] == Decimal(10)
    assert by_key[("Current Federal", "FY2018")] == Decimal(-2)
    assert by_key[("Deferred Federal", "FY2018")] == Decimal(5)
    assert ("Deferred Federal", "FY2017") not in by_key
    assert by_key[("Total Deferred", "FY2019")] == Decimal(14)
    assert {f.unit for f in facts} == {"million"}
