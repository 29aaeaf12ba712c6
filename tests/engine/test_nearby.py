"""A not-found answer or a question asked back offers what is held nearby, as whole questions
that the engine answers, and never anything the asker may not see."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.answer import answer_question
from engine.nearby import Asker, nearest, phrase
from engine.parser import parser_for
from engine.plan import asker_for
from engine.providers.mock import MockProvider
from engine.store import InMemoryStore
from engine.types import Answer, Fact, Term
from tests.demo_store import demo_store

INTERNAL_CLEARANCE = frozenset({"PUBLIC", "INTERNAL"})


def _ask(question: str, store: InMemoryStore | None = None, **options: object) -> Answer:
    return answer_question(question, store or demo_store(), MockProvider(), **options)  # type: ignore[arg-type]


def _labels(answer: Answer) -> list[str]:
    return [choice.label for choice in answer.choices]


def test_a_missing_period_offers_the_nearest_periods_held_newest_first() -> None:
    answer = _ask("What was Tesla's revenue in FY2023?")  # the demo holds FY2012-FY2021

    assert answer.status == "not_found"
    assert _labels(answer) == ["FY2021", "FY2020", "FY2019", "FY2018", "FY2017", "FY2016"]
    assert answer.choices[0].question == "What was Tesla's Revenue in FY2021?"


def test_a_figure_the_company_never_reports_offers_its_figures_for_that_period() -> None:
    answer = _ask("What was JPMorgan's operating income in FY2023?")

    assert answer.status == "not_found"
    assert "Revenue" in _labels(answer) and "Net income" in _labels(answer)
    assert "Operating income" not in _labels(answer)
    assert all("JPMorgan Chase" in c.question and "FY2023" in c.question for c in answer.choices)


@pytest.mark.parametrize(
    "question",
    [
        "What was Tesla's revenue in FY2023?",
        "What was JPMorgan's operating income in FY2023?",
        "What was JPMorgan's capital expenditure in FY2022?",
        "What was the change in Amazon's revenue from FY2019 to FY2022?",
        "What was the change in Tesla's revenue in FY2012?",
        "What was Walmart's net income in FY2020?",
    ],
)
def test_every_choice_of_a_not_found_answer_asks_a_question_the_engine_answers(
    question: str,
) -> None:
    answer = _ask(question)
    assert answer.status == "not_found" and answer.choices

    for choice in answer.choices:
        assert choice.question != choice.label, "a not-found choice asks a whole question"
        followed = _ask(choice.question)
        assert followed.status == "found", (choice, followed.text)


@pytest.mark.parametrize(
    "question",
    [
        "What was Apple's income in FY2023?",  # which figure
        "What was Apple's revenue?",  # which period
        "What was revenue in FY2023?",  # which company
        "What was the change in Tesla's revenue?",  # which two periods
        "Which was higher, Tesla's or Apple's revenue?",  # which period, for a comparison
    ],
)
def test_every_choice_of_a_question_asked_back_completes_the_question(question: str) -> None:
    answer = _ask(question)
    assert answer.status == "clarify" and answer.choices

    for choice in answer.choices:
        followed = _ask(choice.question)
        assert followed.status == "found", (choice, followed.text)


def _pell_store() -> InMemoryStore:
    """A line whose name reads as an operation on another line: "Net change in fair value"
    written out is read as the change of "Fair value". Its alias reads back as itself."""
    moved = Term("Net change in fair value", ("Fair value remeasurement",))
    return InMemoryStore(
        entities=[Term("Pell Co")],
        metrics=[moved, Term("Fair value")],
        facts=[
            Fact("f1", "Pell Co", "Net change in fair value", "FY2023", Decimal("12"), "million"),
            Fact("f2", "Pell Co", "Fair value", "FY2023", Decimal("340"), "million"),
        ],
    )


def test_a_choice_is_asked_in_words_the_parser_reads_back_as_meant() -> None:
    """Written with its name, the question would be read as the change of another figure.
    The choice names it by an alias that reads back as the figure."""
    store = _pell_store()
    vocabulary = store.vocabulary()
    parse = parser_for(vocabulary).parse
    metric = "Net change in fair value"
    target = parse("What was Pell Co's Fair value in FY2023?").with_(metrics=(metric,))

    unchecked = phrase(target)
    assert unchecked is not None and parse(unchecked).metrics != (metric,)
    choice = asker_for(parse, vocabulary).choice(target, metric)

    assert choice is not None and choice.question != unchecked
    assert parse(choice.question).metrics == (metric,)
    assert _ask(choice.question, store).status == "found"


def test_without_the_read_back_check_a_choice_would_ask_another_question() -> None:
    """Reverse proof of the check above: an Asker that accepts whatever it writes offers a
    question the engine reads as the change of another figure, not as the figure offered."""
    store = _pell_store()
    vocabulary = store.vocabulary()
    parse = parser_for(vocabulary).parse
    target = parse("What was Pell Co's Fair value in FY2023?").with_(
        metrics=("Net change in fair value",)
    )
    trusting = Asker(parse=lambda q: target, normal=lambda i: i, metrics=vocabulary.metrics)

    choice = trusting.choice(target, "Net change in fair value")

    assert choice is not None
    answer = _ask(choice.question, store)
    assert not any(f.value == 12 for f in answer.figures)


def test_nearest_periods_prefer_the_closer_then_the_later() -> None:
    held = ["FY2018", "FY2019", "FY2021", "FY2022"]

    assert nearest(held, "FY2020", 2) == ["FY2021", "FY2019"]
    assert nearest(held, "FY2030", 3) == ["FY2022", "FY2021", "FY2019"]
    assert nearest(held, "FY2021", 6) == ["FY2022", "FY2019", "FY2018"]


# --- clearance ----------------------------------------------------------------------------------


def _fact(number: int, period: str, value: str, classification: str = "PUBLIC") -> Fact:
    return Fact(
        id=f"fact:{number}",
        entity="Shanghai Co",
        metric="Revenue",
        period=period,
        value=Decimal(value),
        unit="USD",
        classification=classification,
        source="filing",
    )


def _classified_store() -> InMemoryStore:
    restricted_income = Fact(
        "fact:4", "Shanghai Co", "Net income", "FY2022", Decimal("9"), "USD", "RESTRICTED"
    )
    return InMemoryStore(
        facts=[
            _fact(1, "FY2019", "100"),
            _fact(2, "FY2020", "110", "INTERNAL"),
            _fact(3, "FY2021", "120", "RESTRICTED"),
            restricted_income,
        ]
    )


def test_choices_offer_only_what_the_asker_may_see() -> None:
    store = _classified_store()

    public = _ask("What was Shanghai Co's revenue in FY2022?", store)
    cleared = _ask("What was Shanghai Co's revenue in FY2022?", store, clearance=INTERNAL_CLEARANCE)

    assert _labels(public) == ["FY2019"]
    assert _labels(cleared) == ["FY2020", "FY2019"]
    for answer in (public, cleared):
        assert "FY2021" not in " ".join(c.question for c in answer.choices)  # RESTRICTED


def test_a_figure_held_only_as_restricted_is_never_offered() -> None:
    """Net income is held for FY2022 only, RESTRICTED: nothing of it is offered, and since
    only RESTRICTED material names the metric, the question reads exactly as one about a
    metric nobody holds (docs/adr/0029)."""
    store = _classified_store()
    answer = _ask("What was Shanghai Co's net income in FY2022?", store)
    # The same question of a store that never held net income at all (ADR 0050 reads a
    # measure asked for a year as a number question, whatever is held).
    without = InMemoryStore(facts=[_fact(1, "FY2019", "100"), _fact(2, "FY2020", "110", "INTERNAL"),
                                   _fact(3, "FY2021", "120", "RESTRICTED")])  # fmt: skip
    unknown = _ask("What was Shanghai Co's net income in FY2022?", without)

    assert answer.status == "not_found"
    assert "Net income" not in repr(answer.choices) + answer.text
    assert (answer.text, answer.choices) == (unknown.text, unknown.choices)


def test_a_period_note_counts_one_period_in_the_singular() -> None:
    store = InMemoryStore(facts=[_fact(1, "FY2019", "100")])

    answer = _ask("What was Shanghai Co's revenue over the last 3 years?", store)

    assert answer.status == "found"
    assert "(The last period held.)" in answer.text
