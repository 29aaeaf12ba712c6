"""Comparisons an analyst says in few words: "was it higher in 2023 or 2022?" names the
higher, "by how much?" then gives the gap, and "compared with 2022?" after a figure is the
change from that year (ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.store import InMemoryStore
from tests.engine.pages import ask_on_page, table_page

OWNER = "Tidewater Mills"


@pytest.fixture(scope="module")
def page() -> InMemoryStore:
    return table_page(
        OWNER,
        [
            ["( in thousands )", "2023", "2022"],
            ["freight revenue", "88,400", "91,250"],
            ["cash provided by operating activities", "12,600", "10,900"],
        ],
    )


def _computed(answer) -> list[Decimal]:  # type: ignore[no-untyped-def]
    return [f.value for f in answer.figures if f.kind == "computed"]


def test_higher_in_one_year_or_the_other_names_the_higher(page: InMemoryStore) -> None:
    (answer,) = ask_on_page(page, OWNER, "was freight revenue higher in 2023 or 2022?")

    assert answer.status == "found"
    assert answer.text.startswith("Tidewater Mills's freight revenue in FY2022 is the higher")


def test_by_how_much_after_a_comparison_is_the_gap(page: InMemoryStore) -> None:
    _, gap = ask_on_page(page, OWNER, "was freight revenue higher in 2023 or 2022?", "by how much?")

    assert gap.status == "found"
    assert _computed(gap) == [Decimal("-2850")]  # 2022 to 2023


def test_how_much_is_a_line_named_with_by_is_still_its_figure(page: InMemoryStore) -> None:
    (answer,) = ask_on_page(
        page, OWNER, "how much is the cash provided by operating activities in 2023?"
    )

    assert answer.status == "found"
    assert not _computed(answer)
    assert [f.value for f in answer.figures] == [Decimal("12600")]


@pytest.mark.parametrize("follow_up", ["compared with 2022?", "and compared to 2022?"])
def test_compared_with_a_year_after_a_figure_is_the_change_from_it(
    page: InMemoryStore, follow_up: str
) -> None:
    _, compared = ask_on_page(
        page, OWNER, "what was cash provided by operating activities in 2023?", follow_up
    )

    assert compared.status == "found"
    assert _computed(compared) == [Decimal("1700")]


def test_the_absolute_change_after_a_percent_change_is_the_amount(page: InMemoryStore) -> None:
    _, absolute = ask_on_page(
        page,
        OWNER,
        "what was the percent change in freight revenue from 2022 to 2023?",
        "and the absolute change?",
    )

    assert absolute.status == "found"
    assert _computed(absolute) == [Decimal("-2850")]


@pytest.mark.parametrize(
    "question",
    [
        "the gap in 2023 between freight revenue and cash provided by operating activities?",
        "the gap in 2023 between cash provided by operating activities and freight revenue?",
    ],
)
def test_a_gap_between_two_lines_is_the_larger_less_the_smaller(
    page: InMemoryStore, question: str
) -> None:
    (gap,) = ask_on_page(page, OWNER, question)

    assert gap.status == "found"
    assert _computed(gap) == [Decimal("75800")]


@pytest.mark.parametrize("follow_up", ["and in dollars?", "and in absolute terms?"])
def test_the_change_in_dollars_after_a_percent_change_is_the_amount(
    page: InMemoryStore, follow_up: str
) -> None:
    _, amount = ask_on_page(
        page, OWNER, "what was the percent change in freight revenue from 2022 to 2023?", follow_up
    )

    assert amount.status == "found"
    assert _computed(amount) == [Decimal("-2850")]


def test_in_terms_is_no_word_of_a_line_holding_term() -> None:
    store = table_page(
        OWNER,
        [
            ["( in thousands )", "2023", "2022"],
            ["freight revenue", "88,400", "91,250"],
            ["long-term debt", "40,000", "42,000"],
        ],
    )
    _, amount = ask_on_page(
        store,
        OWNER,
        "what was the percent change in freight revenue from 2022 to 2023?",
        "and in absolute terms?",
    )

    assert _computed(amount) == [Decimal("-2850")]


def test_the_yoy_change_after_two_years_is_their_change(page: InMemoryStore) -> None:
    *_, yoy = ask_on_page(
        page,
        OWNER,
        "what was freight revenue in 2023?",
        "and in 2022?",
        "what's the YoY change?",
    )

    assert yoy.status == "found"
    assert _computed(yoy) == [Decimal("-2850")]


def test_compared_to_another_line_sets_the_figure_on_hand_beside_it(page: InMemoryStore) -> None:
    _, compared = ask_on_page(
        page,
        OWNER,
        "what was cash provided by operating activities in 2023?",
        "how does that compare to freight revenue?",
    )

    assert compared.status == "found"
    assert compared.text.startswith("Tidewater Mills's freight revenue in FY2023 is the higher")
    assert sorted(f.value for f in compared.figures) == [Decimal("12600"), Decimal("88400")]


def test_and_of_another_whole_after_a_share_keeps_the_part() -> None:
    store = table_page(
        OWNER,
        [
            ["( in thousands )", "2023", "2022"],
            ["freight revenue", "88,400", "91,250"],
            ["net income", "8,840", "9,000"],
            ["total assets", "176,800", "180,000"],
        ],
    )
    *_, other = ask_on_page(
        store,
        OWNER,
        "what was net income in 2023?",
        "what percentage of freight revenue was that?",
        "and of total assets?",
    )

    assert other.status == "found"
    assert [f.value for f in other.figures if f.kind == "computed"] == [Decimal("5")]
