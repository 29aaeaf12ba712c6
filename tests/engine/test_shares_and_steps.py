"""Arithmetic over one report page's table (issue 12, ADR 0060): shares of a total named with
a verb other than "represent", and steps taken on earlier results. The page and its labels are
invented; each conversation is asked in order through one ConversationSession scoped to the
page, as the chat page does."""

from __future__ import annotations

from decimal import Decimal

from engine import arithmetic
from engine.answer import Engine
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.text import TOKEN, normalise_word
from engine.types import PUBLIC, Answer, Fact, Passage, Term

# Commitments by when they fall due: a Total column and a Total line, no period columns.
COMMITMENTS = [
    ["", "Total", "Within 1 year", "After 1 year"],
    ["Ferry charters", "48.0", "30.0", "18.0"],
    ["Berth leases", "152.0", "80.0", "72.0"],
    ["Total commitments", "200.0", "110.0", "90.0"],
]


PAGE = "Tidewater/2024/page_3"


def page(rows: list[list[str]], text: str = "") -> Engine:
    """The table, and the page's text around it as one passage."""
    passages = [Passage(f"passage:{PAGE}:0", PAGE, "Annual report page", text, PUBLIC)]
    return Engine(page_store(PAGE, rows, text, passages if text else ()), MockProvider())


def ask(engine: Engine, *questions: str) -> list[Answer]:
    session = ConversationSession(scope=ENTITY)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


def computed(answer: Answer) -> Decimal:
    return [f.value for f in answer.figures if f.kind == "computed"][-1]


def test_a_share_said_with_comprised_of_sets_the_part_over_the_total() -> None:
    # Both lines are read in the Total column, so both labels hold the word "total"; the one
    # named right after "percent of" is the whole.
    (share,) = ask(
        page(COMMITMENTS),
        "what percent of total commitments is comprised of berth leases?",
    )

    assert share.status == "found"
    assert computed(share) == Decimal("76")
    assert [f.unit for f in share.figures if f.kind == "computed"] == ["%"]


# Quarterly fees with a Total line; the 2022 column misreads one cell as larger than its total.
FEES = "Harbour fees are billed each quarter; the table below gives them by quarter."
QUARTERS = [
    ["", "2023", "2022"],
    ["Winter quarter", "2.0", "60.0"],
    ["Summer quarter", "6.0", "3.0"],
    ["Total", "8.0", "4.0"],
]


def facts(answer: Answer) -> list[tuple[str, Decimal]]:
    return [(f.label, f.value) for f in answer.figures if f.kind == "fact"]


def test_a_share_of_the_total_takes_the_total_line_when_only_the_part_is_named() -> None:
    (share,) = ask(
        page(QUARTERS, FEES),
        "what percentage of the total fees in 2023 came from the summer quarter?",
    )

    assert share.status == "found"
    assert computed(share) == Decimal("75")
    assert [value for _, value in facts(share)] == [Decimal("6.0"), Decimal("8.0")]


# A fleet by how it is held: the Total column and the Total line meet in "Total Total".
FLEET = [
    ["", "Owned", "Chartered", "Total"],
    ["Tankers", "12", "18", "30"],
    ["Tugs", "6", "4", "10"],
    ["Total", "18", "22", "40"],
]


def test_the_total_line_is_read_in_the_part_s_own_column() -> None:
    (share,) = ask(
        page(FLEET, "Our fleet is owned or chartered."), "what portion of the total fleet are tugs?"
    )

    assert share.status == "found"
    assert computed(share) == Decimal("0.25")
    assert [value for _, value in facts(share)] == [Decimal("10"), Decimal("40")]


def test_a_total_described_in_words_the_page_never_uses_is_not_the_total_line() -> None:
    # The page is about fees: "total revenue" may be another table's figure.
    (share,) = ask(
        page(QUARTERS, FEES),
        "what percentage of the total revenue in 2023 came from the summer quarter?",
    )

    assert share.status == "clarify"
    assert not [f for f in share.figures if f.kind == "computed"]


def test_a_total_line_of_another_page_is_not_the_part_s_whole() -> None:
    # Two pages in one knowledge base: the quarters on one, a "Total" line on another.
    facts = [
        Fact("f1", ENTITY, "Summer quarter", "FY2023", Decimal("6"), "", source="page_1"),
        Fact("f2", ENTITY, "Winter quarter", "FY2023", Decimal("2"), "", source="page_1"),
        Fact("f3", ENTITY, "Total", "FY2023", Decimal("90"), "", source="page_2"),
    ]
    store = InMemoryStore(
        entities=[Term(ENTITY)],
        metrics=[Term(m) for m in ("Summer quarter", "Winter quarter", "Total")],
        facts=facts,
        passages=[Passage("p2", "page_2", "Annual report page", FEES, PUBLIC, entity=ENTITY)],
    )
    (share,) = ask(
        Engine(store, MockProvider()),
        "what percentage of the total fees in 2023 came from the summer quarter?",
    )

    assert not [f for f in share.figures if f.kind == "computed"]


def test_a_line_larger_than_the_total_is_not_taken_as_its_part() -> None:
    (share,) = ask(
        page(QUARTERS, FEES),
        "what percentage of the total fees in 2022 came from the winter quarter?",
    )

    assert share.status == "clarify"
    assert not [f for f in share.figures if f.kind == "computed"]


def test_a_constant_said_before_times_multiplies_the_figure() -> None:
    first, again = ask(
        page(QUARTERS), "what is 3 times the summer quarter in 2023?", "and that times 2?"
    )

    assert first.status == "found"
    assert computed(first) == Decimal("18")
    assert "times 3" in first.text
    assert computed(again) == Decimal("36")


def test_the_difference_between_a_result_and_a_number_takes_the_number_off() -> None:
    *_, less_one = ask(
        page(QUARTERS),
        "what was the summer quarter in 2023?",
        "and in 2022?",
        "how much did the 2023 figure represent in relation to the 2022 one?",
        "what is the difference between this value and the number one?",
    )

    assert less_one.status == "found"
    assert computed(less_one) == Decimal("1")
    assert "minus 1" in less_one.text


def constants_read(question: str) -> tuple[str, ...]:
    norms = [normalise_word(w) for w in TOKEN.findall(question.lower())]
    return arithmetic.read(norms, [False] * len(norms)).constants


def test_numbers_on_both_sides_of_and_are_labels_not_a_constant() -> None:
    assert constants_read("what is the difference between that and 1?") == ("1",)
    assert constants_read("what is the difference between 1-90 and 91-180 days past due?") == ()


def test_a_spelled_number_is_a_constant_only_where_a_number_would_be() -> None:
    assert constants_read("what is that minus one?") == ("1",)
    assert constants_read("what is that plus one time items?") == ()
    assert constants_read("and the 2018 one?") == ()
