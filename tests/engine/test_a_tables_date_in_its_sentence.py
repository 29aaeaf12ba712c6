"""A table that dates none of its figures takes the date its announcing sentence gives
(ADR 0076): "as of march 31, 2022, our branches by region were as follows:" makes every
figure of the table a FY2022 figure, so a question asked "as of 2022" finds them. A sentence
naming a span ("since 2015") or two years dates nothing, and a table with year columns keeps
its own dates.

Asked over such a table, "all branches" is the whole its "Total" line holds, and a share
whose other operand would be the earlier figure itself is asked back, never "a ratio of 1"."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from engine.answer import Engine
from engine.evaluate.convfinqa import ENTITY, dialogue_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.tables import table_date
from engine.types import Answer

BRANCHES = [
    ["", "Branches", "Employees"],
    ["Northern region", "42", "1,180"],
    ["Coastal region", "27", "655"],
    ["Inland region", "11", "240"],
    ["Total", "80", "2,075"],
]
ANNOUNCED = (
    "We run a network of branches across three regions. As of march 31, 2022, our branches "
    "and the people who work in them were as follows:"
)


def converse(pre_text: str, *questions: str) -> list[Answer]:
    dialogue: dict[str, Any] = {
        "id": "Single_HARB/2022/page_9.pdf-1",
        "table": BRANCHES,
        "pre_text": pre_text,
        "post_text": "",
    }
    engine = Engine(dialogue_store(dialogue), MockProvider())
    session = ConversationSession(scope=ENTITY)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


def test_a_question_dated_as_the_sentence_dates_the_table_finds_its_figures() -> None:
    coastal, share = converse(
        ANNOUNCED,
        "how many branches did the coastal region have at the end of march 2022?",
        "what share of all branches was that?",
    )

    assert coastal.status == "found"
    assert [f.value for f in coastal.figures] == [Decimal("27")]
    assert "FY2022" in coastal.text
    assert share.status == "found"
    assert [f.value for f in share.figures if f.kind == "computed"] == [Decimal("33.75")]
    assert Decimal("80") in [f.value for f in share.figures if f.kind == "fact"]


def test_all_of_a_line_is_its_total_line() -> None:
    (every,) = converse(ANNOUNCED, "how many branches did we have in all of our regions?")
    _, of_all = converse(
        ANNOUNCED,
        "how many employees did the inland region have?",
        "and as a percentage of all employees?",
    )

    assert every.status == "found"
    assert [f.value for f in every.figures] == [Decimal("80")]
    assert "only period held" in every.text
    assert of_all.status == "found"
    assert "11.57%" in of_all.text
    assert Decimal("2075") in [f.value for f in of_all.figures if f.kind == "fact"]


def test_a_share_of_the_earlier_figure_against_itself_is_asked_back() -> None:
    _, share = converse(
        ANNOUNCED,
        "how many branches did the coastal region have?",
        "what share of branches was that?",
    )

    assert share.status == "clarify"
    assert not [f for f in share.figures if f.kind == "computed"]


def test_a_question_for_another_year_is_not_answered_from_that_table() -> None:
    (answer,) = converse(ANNOUNCED, "how many branches did the coastal region have in 2019?")

    assert answer.status != "found"
    assert not answer.figures


def test_only_a_sentence_dating_the_table_by_one_moment_gives_it_a_date() -> None:
    assert table_date(ANNOUNCED) == "FY2022"
    # The table's own headings printed as a last sentence after the announcing one.
    assert (
        table_date(
            "the following chart lists the plants sold during 2019 . plant sold ( in millions ) ."
        )
        == "FY2019"
    )
    assert table_date("the following table shows our branches opened since 2015 :") == ""
    assert table_date("the following table compares 2021 with 2020 :") == ""
    assert table_date("revenue grew in 2021 . the following table lists our branches :") == ""


def test_a_table_with_year_columns_keeps_its_own_years() -> None:
    dialogue = {
        "id": "Single_HARB/2022/page_9.pdf-1",
        "table": [["", "2021", "2020", "change"], ["Branches", "80", "74", "6"]],
        "pre_text": "As of march 31, 2022, our branches were as follows:",
        "post_text": "",
    }
    facts = dialogue_store(dialogue).find_facts(entity=ENTITY, metric="Branches")

    assert sorted(f.period for f in facts) == ["FY2020", "FY2021"]
