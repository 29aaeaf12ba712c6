"""A question for a number is answered from figures, or by a quoted sentence that states that
very number for the asked period, or it is asked back: never by quoting passages whose numbers
are not the answer (ADR 0040)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.answer import answer_question
from engine.parser import figure_asked
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import PUBLIC, Fact, Passage, Term

MILL = "Northmill"


def _store(*texts: str) -> InMemoryStore:
    return InMemoryStore(
        entities=[Term(MILL)],
        metrics=[Term("Revenue")],
        facts=[Fact("f:rev:2022", MILL, "Revenue", "FY2022", Decimal("410"), "million")],
        passages=[
            Passage(
                id=f"p{i}",
                document_id="annual",
                title="Annual review",
                text=text,
                classification=PUBLIC,
                entity=MILL,
            )
            for i, text in enumerate(texts)
        ],
    )


LEDGER = _store(
    "Freight spending at the Northmill yards rose sharply in 2022, when 310 trucks and "
    "42 barges served the yards.",
    "In 2022 Northmill paid freight charges of $18 million for its yards.",
)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What percentage of the freight spending went to barges in 2022?", "percent"),
        ("How much did freight spending change from 2021 to 2022?", "change"),
        ("What was the ratio of trucks to barges?", "computed"),
        # Line-item words and a difference (ADR 0050).
        ("What was the difference in freight spending between 2021 and 2022?", "change"),
        ("What was the change in the aggregate freight charges from 2021 to 2022?", "change"),
        ("What was the total freight spending in 2022?", "amount"),
        ("What proportion of the freight spending went to barges?", "percent"),
        ("How many barges served the yards?", "amount"),
        ("Why did freight spending rise?", None),
        ("How is the freight charge determined?", None),
        ("What does freight spending represent?", None),
    ],
)
def test_the_kind_of_number_a_question_asks_for(question: str, kind: str | None) -> None:
    assert figure_asked(question) == kind


def test_a_number_the_passages_do_not_state_is_asked_back_not_quoted() -> None:
    answer = answer_question(
        "What was the ratio of freight spending to trucks in 2022?", LEDGER, MockProvider()
    )

    assert answer.status in ("clarify", "not_found")
    assert not answer.sources
    assert "310" not in answer.text and "trucks" not in answer.text.lower().split("figure")[0]


def test_asking_back_offers_the_figures_held() -> None:
    answer = answer_question("What was the average barge rate in 2022?", LEDGER, MockProvider())

    assert answer.status == "clarify"
    assert [c.label for c in answer.choices] == ["Revenue"]


def test_a_sentence_stating_the_amount_for_the_asked_year_answers_it() -> None:
    answer = answer_question(
        "How much were the freight charges paid in 2022?", LEDGER, MockProvider()
    )

    # Read from the sentence as a figure, cited (ADR 0041).
    assert answer.status == "found"
    assert [(f.value, f.unit) for f in answer.figures] == [(Decimal("18"), "million")]
    assert "18 million" in answer.text
    assert answer.sources[0].id == "p1"


def test_a_sentence_about_another_year_does_not_answer_for_the_asked_one() -> None:
    answer = answer_question(
        "How much were the freight charges paid in 2021?", LEDGER, MockProvider()
    )

    assert answer.status != "answered"
    assert "18" not in answer.text


def test_in_a_conversation_a_question_without_a_period_keeps_the_period_asked() -> None:
    session = ConversationSession(scope=MILL)
    answer_question("What was revenue in 2021?", LEDGER, MockProvider(), session=session)

    answer = answer_question(
        "How much were the freight charges paid?", LEDGER, MockProvider(), session=session
    )

    assert answer.status != "answered"  # the sentence states 2022's charges, not 2021's


def test_prose_questions_still_quote_passages() -> None:
    answer = answer_question("Why did freight spending rise?", LEDGER, MockProvider())

    assert answer.status == "answered"
    assert answer.sources


@pytest.mark.parametrize("follow_up", ["and what is that less 100?", "what is the average then?"])
def test_a_calculation_not_read_is_never_answered_with_its_operand(follow_up: str) -> None:
    session = ConversationSession(scope=MILL)
    answer_question("What was revenue in 2022?", LEDGER, MockProvider(), session=session)

    answer = answer_question(follow_up, LEDGER, MockProvider(), session=session)

    computed = [f for f in answer.figures if f.kind == "computed"]
    assert answer.status != "found" or computed  # never the 410 it would start from


def test_what_a_report_says_about_a_rise_is_prose() -> None:
    assert figure_asked("What did Northmill say about freight growth?") is None


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What were Northmill's freight earnings in 2022?", "amount"),
        ("What was the net revenue for Northmill in 2021?", "amount"),
        # No year: it may ask what the line item is; names or several figures are not one.
        ("What is freight income?", None),
        ("What are the components of freight revenue in 2022?", None),
    ],
)
def test_a_measure_asked_for_a_year_is_a_number_question(question: str, kind: str | None) -> None:
    assert figure_asked(question) == kind


def test_a_measure_asked_for_a_year_is_not_quoted_from_another_years_sentence() -> None:
    store = _store("Freight earnings at the Northmill yards were $12 million in 2020.")

    answer = answer_question(
        "What were Northmill's freight earnings in 2021?", store, MockProvider()
    )

    assert answer.status in ("clarify", "not_found")
    assert "12" not in answer.text and not answer.sources


def test_a_sentence_stating_none_answers_the_amount_asked() -> None:
    store = _store("No impairment losses were recognized on the Northmill yards in 2022.")

    answer = answer_question(
        "What was the amount of impairment losses recognized in 2022?", store, MockProvider()
    )

    assert answer.status == "answered"
    assert "No impairment losses" in answer.text and answer.sources


def _obligations() -> InMemoryStore:
    held = {"Total debt": (400, 350, 300), "Lease obligations": (90, 80, 70)}
    facts = [
        Fact(f"f:{metric}:{period}", MILL, metric, period, Decimal(value), "million")
        for metric, values in held.items()
        for period, value in zip(("FY2020", "FY2021", "FY2022"), values, strict=True)
    ]
    return InMemoryStore(entities=[Term(MILL)], metrics=[Term(m) for m in held], facts=facts)


def test_a_follow_up_does_not_take_on_every_figure_a_question_back_offered() -> None:
    store, session = _obligations(), ConversationSession(scope=MILL)
    first = answer_question(
        "what was the change in total debt to be repaid under the scheduled obligations for "
        "leases as of the year end between 2021 and 2022?",
        store, MockProvider(), session=session,
    )  # fmt: skip
    assert first.status == "clarify"  # it offers Total debt or Lease obligations

    answer = answer_question("and between 2020 and 2021?", store, MockProvider(), session=session)

    # Neither offer was picked: listing both figures of both years answers nothing asked.
    assert answer.status in ("clarify", "not_found")
    assert not answer.figures


def test_gains_written_as_a_line_item_ask_an_amount_not_a_change() -> None:
    assert figure_asked("How much exchange gains did Northmill report in 2022?") == "amount"
    assert figure_asked("How much did freight spending gain in 2022?") == "change"


def test_a_weighted_average_is_a_line_item_not_an_average_to_take() -> None:
    store = _store("The weighted-average rate of return on the Northmill plan assets is 4.1%.")

    answer = answer_question(
        "How much is the weighted average rate of return on the plan assets?",
        store,
        MockProvider(),
    )

    assert figure_asked("What was the weighted average discount rate in 2022?") == "amount"
    # Not "Over which periods should I take the average?": the sentence states it.
    assert answer.status == "answered" and "4.1%" in answer.text


def test_the_day_of_a_date_is_not_a_figure_a_sentence_states() -> None:
    store = _store(
        "The weighted-average discount rates for the Northmill plan at December 31, 2022 and "
        "2021 are set out in the table below."
    )

    answer = answer_question(
        "What was the weighted average discount rate for the Northmill plan in 2022?",
        store,
        MockProvider(),
    )

    # "31" is the day of the date: the sentence states no rate, so it is not quoted.
    assert answer.status in ("clarify", "not_found")
    assert not answer.sources


def test_there_were_none_states_a_nil_amount() -> None:
    store = _store("In 2022 there were no uncertain tax positions at Northmill.")

    answer = answer_question(
        "What was the amount of uncertain tax positions at Northmill in 2022?",
        store,
        MockProvider(),
    )

    assert answer.status == "answered" and answer.sources


def test_a_balance_sheet_named_is_not_an_amount_asked() -> None:
    assert (
        figure_asked("What line of the consolidated balance sheets holds freight deposits?") is None
    )
    assert figure_asked("What did Northmill combine freight fees with in 2022?") is None


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What were those freight charges, in millions?", "amount"),
        ("What is the freight revenue per barge?", "amount"),
        ("What is cash from freight less cash spent on barges?", "computed"),
        ("What is the number of barges not included in the lease plan?", "amount"),
        # Still prose: what a line item holds, or which segments.
        ("What is included in freight revenue?", None),
        ("What costs are included within the yard fees?", None),
        ("What are the segments for which freight charges are recorded in 2022?", None),
        ("Which leases run for less than one year?", None),
    ],
)
def test_numbers_asked_in_a_scale_per_unit_or_as_one_less_another(
    question: str, kind: str | None
) -> None:
    assert figure_asked(question) == kind


def test_what_a_measure_was_asks_its_figure_what_it_is_may_ask_what_it_is() -> None:
    assert figure_asked("And what were the remaining freight expenses for the yards?") == "amount"
    assert figure_asked("What is freight income?") is None


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Was freight spending greater than revenue in 2022?", "computed"),
        ("Did the Northmill share index outperform the harbour index?", "computed"),
        ("What would freight revenue be without the barge segment?", "computed"),
        ("How many trucks were sold without recourse in 2022?", "amount"),
        ("Did Northmill say why freight spending rose?", None),
    ],
)
def test_two_figures_set_against_each_other_are_a_number_question(
    question: str, kind: str | None
) -> None:
    # Settled by figures, so never answered by quoting passages (ADR 0050).
    assert figure_asked(question) == kind


def test_the_change_in_a_percentage_is_not_a_share_to_take() -> None:
    held = {"Grade B holdings": (3, 2)}
    facts = [
        Fact(f"f:b:{p}", MILL, "Grade B holdings", p, Decimal(v), "%")
        for p, v in zip(("FY2021", "FY2022"), held["Grade B holdings"], strict=True)
    ]
    store = InMemoryStore(entities=[Term(MILL)], metrics=[Term("Grade B holdings")], facts=facts)

    answer = answer_question(
        "between 2021 and 2022, what was the change in that percentage of the grade b holdings?",
        store,
        MockProvider(),
        session=ConversationSession(scope=MILL),
    )

    # Never "-1, which is -33.33% of the FY2021 figure": the percentage is what moved.
    assert all(f.unit != "%" or f.kind != "computed" for f in answer.figures)
    assert answer.intent.get("operation") != "percent_of"


def test_a_figure_named_only_in_an_aside_is_not_what_the_sentence_states() -> None:
    store = _store("Freight charges were $4.0 million (12 percent of net sales) in 2022.")

    answer = answer_question("What were Northmill's net sales in 2022?", store, MockProvider())

    # The sentence states freight charges; net sales appear only in the aside (ADR 0050).
    assert answer.status in ("clarify", "not_found")
    assert not answer.sources
