"""The deterministic parser: linking to the vocabulary, periods, and the kind of question."""

from __future__ import annotations

import pytest

from engine.parser import IntentParser, parser_for
from engine.types import Term, Vocabulary
from tests.demo_store import demo_store


@pytest.fixture(scope="module")
def parse() -> IntentParser:
    return parser_for(demo_store().vocabulary())


@pytest.mark.parametrize(
    ("question", "entity"),
    [
        ("What was Apple's revenue in FY2023?", "Apple"),
        ("what was apple revenue in fy2023", "Apple"),
        ("What was Apple Inc.'s revenue in FY2023?", "Apple"),
        ("AAPL revenue FY2023", "Apple"),
        ("What was The Procter & Gamble Company's revenue in 2023?", "Procter & Gamble"),
        ("P&G revenue in 2023", "Procter & Gamble"),
        ("Wal-Mart net income 2023", "Walmart"),
        ("Amazon.com revenue 2022", "Amazon"),
        ("What was SNOW's revenue in FY2024?", "Snowflake"),
        ("JP Morgan total assets in 2023", "JPMorgan Chase"),
    ],
)
def test_entities_link_through_aliases_case_and_possessives(
    parse: IntentParser, question: str, entity: str
) -> None:
    assert parse.parse(question).entities == (entity,)


def test_a_ticker_that_is_a_word_needs_capitals(parse: IntentParser) -> None:
    assert parse.parse("How much snow fell in 2023?").entities == ()


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("What were Apple's revenues in FY2023?", "Revenue"),
        ("What were Apple's total net sales in FY2023?", "Revenue"),
        ("Apple diluted earnings per share FY2023", "Diluted EPS"),
        ("Apple R&D in FY2023", "Research and development expense"),
        ("What was Apple's cash, cash equivalents and restricted cash in 2023?",
         "Cash, cash equivalents and restricted cash"),
        ("What were Apple's stockholders’ equity in FY2023?", "Stockholders' equity"),
    ],
)  # fmt: skip
def test_metrics_link_through_aliases_plurals_and_punctuation(
    parse: IntentParser, question: str, metric: str
) -> None:
    assert parse.parse(question).metrics == (metric,)


def test_a_long_metric_label_links_by_its_rare_words() -> None:
    vocabulary = Vocabulary(
        entities=(Term("Acme"),),
        metrics=(
            Term("Weighted average exercise price per share"),
            Term("Number of shares"),
            Term("Weighted average remaining contractual term"),
        ),
    )
    parser = IntentParser(vocabulary)

    intent = parser.parse("What was the weighted average exercise price per share in 2019?")

    assert intent.metrics == ("Weighted average exercise price per share",)
    assert intent.periods == ("FY2019",)


def test_two_labels_that_tie_are_asked_about(parse: IntentParser) -> None:
    intent = parse.parse("What was Apple's income in FY2023?")

    assert intent.metrics == ()
    assert intent.ambiguous
    assert {"Net income", "Operating income"} <= set(intent.ambiguous[0].choices)


@pytest.mark.parametrize(
    ("question", "periods"),
    [
        ("Apple revenue FY2023", ("FY2023",)),
        ("Apple revenue fiscal 2023", ("FY2023",)),
        ("Apple revenue in fiscal year 2023", ("FY2023",)),
        ("Apple revenue 2023", ("FY2023",)),
        ("Apple revenue FY23", ("FY2023",)),
        ("Apple revenue in 2022 and 2023", ("FY2022", "FY2023")),
    ],
)
def test_periods_are_read_and_normalised(
    parse: IntentParser, question: str, periods: tuple[str, ...]
) -> None:
    assert parse.parse(question).periods == periods


@pytest.mark.parametrize("number", ["1320", "999", "1,320", "21000"])
def test_a_number_that_is_not_a_year_is_never_a_period(parse: IntentParser, number: str) -> None:
    assert parse.parse(f"Apple revenue was {number}, what about FY2023?").periods == ("FY2023",)
    assert parse.parse(f"Was Apple revenue above {number}?").periods == ()


def test_a_range_is_expanded_for_a_trend(parse: IntentParser) -> None:
    intent = parse.parse("How did Microsoft's revenue develop from 2021 to 2023?")

    assert intent.operation == "trend"
    assert intent.periods == ("FY2021", "FY2022", "FY2023")


def test_over_the_last_years_is_relative_to_the_data(parse: IntentParser) -> None:
    intent = parse.parse("Microsoft revenue over the last three years")

    assert intent.relative_last == 3 and intent.periods == ()


@pytest.mark.parametrize(
    ("question", "kind", "operation"),
    [
        ("What was Apple's revenue in FY2023?", "lookup", None),
        ("What was the change in Apple's revenue from 2022 to 2023?", "comparison", "difference"),
        ("By how much did Apple's revenue decrease between 2022 and 2023?", "comparison",
         "difference"),
        ("What was the percentage change in Apple's revenue from 2022 to 2023?", "comparison",
         "percent_change"),
        ("What was Apple's revenue growth in 2023?", "comparison", "percent_change"),
        ("What is the ratio of Apple's net income to revenue in 2023?", "comparison", "ratio"),
        ("Which had higher revenue in 2023, Apple or Microsoft?", "comparison", "higher"),
        ("What were Apple's revenue and net income in FY2023?", "multi", None),
        ("What was revenue for Apple and Microsoft in 2023?", "multi", None),
        ("Why did Apple's revenue fall in 2023?", "narrative", None),
        ("Explain Apple's services strategy", "narrative", None),
        ("What did Microsoft say about cloud capacity?", "narrative", None),
        ("Will Apple's revenue grow next year?", "unsupported", None),
    ],
)  # fmt: skip
def test_the_kind_of_question(
    parse: IntentParser, question: str, kind: str, operation: str | None
) -> None:
    intent = parse.parse(question)

    assert (intent.kind, intent.operation) == (kind, operation)


def test_restricted_cash_is_an_ordinary_metric(parse: IntentParser) -> None:
    intent = parse.parse("What was Apple's cash including restricted cash in FY2023?")

    assert intent.kind == "lookup"
    assert intent.metrics == ("Cash, cash equivalents and restricted cash",)


@pytest.mark.parametrize("question", ["and in FY2022?", "what was the change?", "in percent?"])
def test_an_elliptical_question_is_a_follow_up(parse: IntentParser, question: str) -> None:
    intent = parse.parse(question)

    assert intent.follow_up and not intent.entities and not intent.metrics


def test_a_narrower_line_item_is_flagged_not_swallowed(parse: IntentParser) -> None:
    intent = parse.parse("What was Apple's iPhone revenue in FY2023?")

    assert intent.metrics == ("Revenue",)
    assert intent.qualifiers == ("iPhone",)


def test_the_parser_is_built_once_per_vocabulary_version() -> None:
    vocabulary = demo_store().vocabulary()

    assert parser_for(vocabulary) is parser_for(vocabulary)
