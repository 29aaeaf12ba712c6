"""Reading the figures a document's sentence states, each tied to its period (ADR 0041)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.stated import about, read_sentence, read_text, stated_figure
from engine.topic import question_topic
from engine.types import PUBLIC, Passage


def _read(sentence: str) -> list[tuple[str, str, str]]:
    return [(str(s.value), s.unit, s.period) for s in read_sentence(sentence)]


def test_a_respectively_list_pairs_each_amount_with_its_year_in_order() -> None:
    sentence = (
        "Warranty claims paid by the group were $41.5 million, $38 million and $29.25 million "
        "for 2021, 2020 and 2019, respectively."
    )

    assert _read(sentence) == [
        ("41.5", "million", "FY2021"),
        ("38", "million", "FY2020"),
        ("29.25", "million", "FY2019"),
    ]


def test_dates_may_come_before_the_amounts_they_pair_with() -> None:
    sentence = (
        "Deferred licence fees as of March 31, 2022 and 2021 were $7.2 billion and "
        "$6.9 billion, respectively."
    )

    assert _read(sentence) == [("7.2", "billion", "FY2022"), ("6.9", "billion", "FY2021")]


def test_an_amount_beside_its_period_and_the_clause_that_compares_it() -> None:
    sentence = (
        "Harbour fees in fiscal 2023 were $12.4 million, compared with $10.1 million in "
        "fiscal 2022."
    )

    found = read_sentence(sentence)

    assert [(str(s.value), s.period) for s in found] == [("12.4", "FY2023"), ("10.1", "FY2022")]
    assert all("Harbour fees" in s.subject for s in found)  # the second clause keeps it


def test_negatives_in_brackets_or_with_a_minus_sign_stay_negative() -> None:
    assert _read("The dredging unit posted a result of $(3.5) million in 2020.") == [
        ("-3.5", "million", "FY2020")
    ]
    assert _read("Currency translation was -$0.8 million in 2021.") == [
        ("-0.8", "million", "FY2021")
    ]


def test_a_percent_repeated_in_brackets_is_read_once() -> None:
    assert _read("The pilotage margin was 12.5% ( 12.5 % ) in 2022.") == [("12.5", "%", "FY2022")]


def test_how_much_a_figure_moved_is_not_its_level() -> None:
    # "$4 million" is the rise, "$52 million" the level in 2022.
    sentence = "Towage income increased $4 million to $52 million in 2022."

    assert _read(sentence) == [("52", "million", "FY2022")]
    assert _read("Towage income grew by $4 million in 2022.") == []


def test_an_aside_in_brackets_and_a_bare_count_are_not_figures_of_the_subject() -> None:
    sentence = "Ferry spending was $2.1 billion (9 percent of sales) in 2021, over 300 routes."

    assert _read(sentence) == [("2.1", "billion", "FY2021")]


def test_lists_that_do_not_pair_one_to_one_say_nothing() -> None:
    # Two amounts and three years: which amount is whose year is not written.
    assert _read("Lock tolls were $5 million and $6 million in 2019, 2020 and 2021.") == []


def test_a_text_without_capitals_is_still_read_sentence_by_sentence() -> None:
    text = "harbour fees were $ 3 million in 2020 . mooring fees were $ 5 million in 2020 ."

    found = read_text(text)

    assert [text[s.start : s.end] for s in found] == [
        "harbour fees were $ 3 million in 2020 .",
        "mooring fees were $ 5 million in 2020 .",
    ]


def _passage(text: str, number: int = 0) -> Passage:
    return Passage(f"p{number}", "review", "Review", text, PUBLIC, entity="Kestrel")


def test_the_figure_for_a_topic_names_the_whole_topic() -> None:
    passages = [_passage("Our total dock rental expense was $9 million in 2021.")]

    found = stated_figure(passages, question_topic("dock rental expense"), "FY2021")

    assert found is not None and found.stated.value == Decimal("9")
    assert found.label == "dock rental expense"
    assert stated_figure(passages, question_topic("crane rental expense"), "FY2021") is None


def test_a_qualifier_of_its_own_makes_it_another_figure() -> None:
    topic = question_topic("rental income")

    assert about("sublease rental income was", topic) == ""
    assert about("included in our rental income were", topic) == ""  # a part of it
    assert about("the company recorded rental income of", topic) == "rental income"


def test_two_sentences_stating_different_numbers_give_no_figure() -> None:
    passages = [
        _passage("Dock rental expense was $9 million in 2021.", 0),
        _passage("Dock rental expense was $11 million in 2021.", 1),
    ]

    assert stated_figure(passages, question_topic("dock rental expense"), "FY2021") is None


def test_a_one_word_topic_is_too_little_to_pick_a_figure() -> None:
    passages = [_passage("Revenue was $90 million in 2021.")]

    assert stated_figure(passages, question_topic("revenue"), "FY2021") is None


@pytest.mark.parametrize("period", ["FY2020", "FY2022"])
def test_no_figure_for_a_year_the_sentence_does_not_state(period: str) -> None:
    passages = [_passage("Dock rental expense was $9 million in 2021.")]

    assert stated_figure(passages, question_topic("dock rental expense"), period) is None


def test_an_including_aside_keeps_the_subject_before_it() -> None:
    sentence = (
        "Total berth expense, including pilots, tugs, and mooring crews, was $6.4 million and "
        "$5.9 million for 2022 and 2021, respectively."
    )

    found = read_sentence(sentence)

    assert [(str(s.value), s.period) for s in found] == [("6.4", "FY2022"), ("5.9", "FY2021")]
    assert about(found[0].subject, question_topic("total berth expense")) == "Total berth expense"


@pytest.mark.parametrize(
    "sentence",
    [
        "The group expects to record berth amortization of $4.2 million and $3.9 million for "
        "2023 and 2024, respectively.",
        "Harbour dues will be $1.1 million in 2025.",
    ],
)
def test_a_sentence_looking_ahead_states_no_figure(sentence: str) -> None:
    # A projection is not a figure the report states (ADR 0050).
    assert _read(sentence) == []
