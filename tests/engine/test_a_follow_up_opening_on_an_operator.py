"""A follow-up that opens on an operator word ("less capex?", "over revenue?") sets the figure
the conversation is on against the line it names, in that figure's year; the next elliptical
turn ("and in 2022?") takes both lines to the other year (ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.store import InMemoryStore
from tests.engine.pages import ask_on_page, table_page

OWNER = "Harbour Lane Foods"


@pytest.fixture(scope="module")
def page() -> InMemoryStore:
    return table_page(
        OWNER,
        [
            ["( in millions )", "2023", "2022"],
            ["net sales", "4,210", "3,980"],
            ["cash provided by operating activities", "612", "540"],
            ["purchases of property and equipment", "205", "188"],
        ],
    )


def _figure(answer) -> Decimal:  # type: ignore[no-untyped-def]
    (computed,) = [f for f in answer.figures if f.kind == "computed"]
    return computed.value


def test_less_a_line_after_a_figure_is_their_difference_in_its_year(
    page: InMemoryStore,
) -> None:
    _, less = ask_on_page(
        page,
        OWNER,
        "what was cash provided by operating activities in 2023?",
        "less purchases of property and equipment?",
    )

    assert less.status == "found"
    assert _figure(less) == Decimal("407")
    assert {f.period for f in less.figures if f.kind == "fact"} == {"FY2023"}


def test_the_next_year_asked_keeps_both_lines_not_the_one_named_last(
    page: InMemoryStore,
) -> None:
    *_, earlier = ask_on_page(
        page,
        OWNER,
        "what was cash provided by operating activities in 2023?",
        "minus purchases of property and equipment?",
        "and in 2022?",
    )

    # 540 - 188, not the change in purchases from one year to the other (188 - 205).
    assert earlier.status == "found"
    assert _figure(earlier) == Decimal("352")
    assert {f.metric for f in earlier.figures if f.kind == "fact"} == {
        "cash provided by operating activities",
        "purchases of property and equipment",
    }


def test_over_a_line_is_the_figure_on_hand_divided_by_it_and_carries_to_the_other_year(
    page: InMemoryStore,
) -> None:
    _, over, earlier = ask_on_page(
        page,
        OWNER,
        "what was cash provided by operating activities in 2023?",
        "and over net sales?",
        "and in 2022?",
    )

    assert round(_figure(over), 4) == Decimal("0.1454")
    assert round(_figure(earlier), 4) == Decimal("0.1357")


def test_a_share_is_said_in_percent_and_a_proportion_as_a_ratio(page: InMemoryStore) -> None:
    asked = "what was cash provided by operating activities in 2023?"
    _, share = ask_on_page(page, OWNER, asked, "and as a share of net sales?")
    _, proportion = ask_on_page(page, OWNER, asked, "and as a proportion of net sales?")

    assert share.text.endswith("is 14.54%.")
    assert proportion.text.endswith("is 0.1454.")
