"""Follow-up turns that build on earlier answers (docs/adr/0043), in the engine.

Each test holds a conversation in its own words over the demo knowledge base: a year counted
from the conversation's period, a result divided or averaged, a figure named by a
demonstrative and its year, two earlier figures named at once, a calculation asked again in
another period, and what a turn after an ask-back still finds. Whatever is unclear is asked
back, naming what the conversation holds; nothing is ever read from history text.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.answer import Engine
from engine.parser import parser_for
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.timeframe import read_timeframe
from engine.types import PUBLIC, Answer, Fact, Passage, Term
from tests.demo_store import demo_store
from tests.engine.conversing import REVENUE_2022, conversation, last_computed

CLOSE = Decimal("0.000001")


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(demo_store(), MockProvider())


def fact(answer: Answer, period: str) -> Decimal:
    return next(f.value for f in answer.figures if f.kind == "fact" and f.period == period)


def results(answer: Answer) -> list[tuple[int, Decimal]]:
    return [(c.from_turn, c.figure.value) for c in answer.carried if c.figure is not None]


# -- a year counted from the conversation's ------------------------------------------------


def test_the_year_before_is_counted_from_the_period_carried(engine: Engine) -> None:
    first, before = conversation(engine, REVENUE_2022, "and in the year before?")

    assert before.status == "found"
    assert before.intent["periods"] == ["FY2021"]
    assert ("period", "FY2021", 1) in {(c.slot, c.value, c.from_turn) for c in before.carried}
    assert fact(before, "FY2021") != fact(first, "FY2022")


def test_the_following_year_counts_forward(engine: Engine) -> None:
    *_, after = conversation(engine, REVENUE_2022, "what was net income in the following year?")

    assert after.intent["periods"] == ["FY2023"]
    assert after.intent["metrics"] == ["Net income"]


def test_a_year_said_again_beside_the_relative_one_is_that_year() -> None:
    frame = read_timeframe("and in the prior year of that date, in 2019, what was revenue?")

    assert frame.periods == ("FY2019",)
    assert read_timeframe("and in the preceding year, in 2019?").periods == ("FY2019",)


def test_a_year_in_a_list_of_years_is_not_counted_from_the_conversation() -> None:
    assert read_timeframe("what do the costs in the year and prior year relate to?").step == 0
    assert read_timeframe("revenue in 2019 and the year before").periods == ("FY2019", "FY2018")


def test_the_year_before_with_no_period_held_in_the_conversation_is_asked() -> None:
    session = ConversationSession()
    answer = Engine(demo_store(), MockProvider()).answer(
        "what was Apple's revenue in the year before?", session=session
    )

    assert answer.status == "clarify"
    assert not answer.figures


# -- a result divided, and the average of what a sum added -------------------------------


def test_the_sum_divided_by_a_number_stays_an_amount(engine: Engine) -> None:
    *_, total, half = conversation(
        engine, REVENUE_2022, "and in the year before?", "what is the sum of those two years?",
        "what is the sum divided by 2?",
    )  # fmt: skip

    figure = last_computed(half)
    assert half.status == "found", half.text
    assert figure.value == last_computed(total).value / 2
    assert figure.unit == last_computed(total).unit == "USD"
    assert "the sum from your question 3" in figure.formula and "÷ 2" in figure.formula


def test_that_change_over_a_number_is_the_change_divided(engine: Engine) -> None:
    *_, change, over = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?",
        "what is that change over 1000?",
    )  # fmt: skip

    assert last_computed(over).value == pytest.approx(last_computed(change).value / 1000, abs=CLOSE)


def test_the_average_per_year_after_a_sum_averages_every_figure_summed(engine: Engine) -> None:
    *_, more, average = conversation(
        engine, REVENUE_2022, "and in the year before?", "what is the sum of those two years?",
        "what is the total sum including the 2020 value?", "what is the average per year?",
    )  # fmt: skip

    assert average.status == "found", average.text
    assert average.intent["periods"] == ["FY2020", "FY2021", "FY2022"]
    assert last_computed(average).value == pytest.approx(
        last_computed(more).value / 3, abs=Decimal("0.01")
    )


def test_the_average_per_year_after_a_sum_not_given_does_not_pass_it_over(engine: Engine) -> None:
    *_, average = conversation(
        engine, REVENUE_2022, "and in the year before?", "what is the sum of those two years?",
        "what is the total sum including the widgets?", "what is the average per year?",
    )  # fmt: skip

    # The sum of the two years is the answer before last; the average is not taken of it.
    assert average.status == "clarify"
    assert not average.figures


# -- a figure named by a demonstrative and its year --------------------------------------


def test_this_year_price_is_the_conversations_figure_of_that_year(engine: Engine) -> None:
    *_, change, share = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?",
        "how much is that change in relation to this 2021 price, in percent?",
    )  # fmt: skip

    assert share.status == "found", share.text
    assert share.intent["metrics"] == ["Revenue"]
    expected = last_computed(change).value / fact(share, "FY2021") * 100
    assert last_computed(share).value == pytest.approx(expected, abs=CLOSE)


def test_a_year_figure_named_by_another_series_word_is_not_the_results(engine: Engine) -> None:
    *_, share = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?",
        "how much is that change in relation to this 2021 cash, in percent?",
    )  # fmt: skip

    assert share.status != "found" or share.intent["metrics"] != ["Revenue"]


# -- two earlier figures at once ---------------------------------------------------------

INCOME_2022 = "and what was its net income in that same year?"


def test_the_first_in_relation_to_the_second_takes_the_two_answers_in_order(
    engine: Engine,
) -> None:
    revenue, income, ratio = conversation(
        engine, REVENUE_2022, INCOME_2022, "what did the first represent in relation to the second?"
    )  # fmt: skip

    assert ratio.status == "found", ratio.text
    assert results(ratio) == [(1, fact(revenue, "FY2022")), (2, fact(income, "FY2022"))]
    assert last_computed(ratio).value == pytest.approx(
        fact(revenue, "FY2022") / fact(income, "FY2022"), abs=CLOSE
    )
    assert "from your question 1" in last_computed(ratio).formula


def test_that_amount_of_this_value_takes_the_older_over_the_newer(engine: Engine) -> None:
    revenue, income, share = conversation(
        engine, REVENUE_2022, INCOME_2022, "what percentage of this value does that amount make up?"
    )  # fmt: skip

    assert share.status == "found", share.text
    expected = fact(revenue, "FY2022") / fact(income, "FY2022") * 100
    assert last_computed(share).value == pytest.approx(expected, abs=CLOSE)


def test_two_figures_the_words_cannot_tell_apart_are_asked_back_by_name(engine: Engine) -> None:
    *_, unclear = conversation(
        engine, REVENUE_2022, INCOME_2022, "what is this value in relation to this amount?"
    )  # fmt: skip

    assert unclear.status == "clarify"
    assert not unclear.figures
    assert "Which is which" in unclear.text and "your question 1" in unclear.text


def test_that_amount_beside_a_named_figure_is_the_other_answer(engine: Engine) -> None:
    income_first = "What was Apple's net income in FY2022?"
    income, revenue, share = conversation(
        engine, income_first, "and its revenue in that same year?",
        "what percentage does that amount represent in relation to this revenue?",
    )  # fmt: skip

    assert share.status == "found", share.text
    expected = fact(income, "FY2022") / fact(revenue, "FY2022") * 100
    assert last_computed(share).value == pytest.approx(expected, abs=CLOSE)


def test_that_number_after_an_answer_of_several_figures_asks_which(engine: Engine) -> None:
    *_, unclear = conversation(
        engine, "What were Apple's revenue and net income in FY2022?",
        "what is that number times 2?",
    )  # fmt: skip

    assert unclear.status == "clarify"
    assert not unclear.figures
    assert "Revenue" in unclear.text and "Net income" in unclear.text


def test_results_named_by_their_years_are_the_shares_answered_for_them(engine: Engine) -> None:
    *_, later, earlier, gap = conversation(
        engine, "What percentage of Apple's revenue was net income in FY2022?",
        "and what percentage of revenue was net income in FY2021?",
        "what is the difference between the 2022 percentage and this 2021 one?",
    )  # fmt: skip

    assert gap.status == "found", gap.text
    expected = last_computed(later).value - last_computed(earlier).value
    assert last_computed(gap).value == pytest.approx(expected, abs=CLOSE)


def test_a_year_named_result_never_answered_is_asked_back(engine: Engine) -> None:
    *_, gap = conversation(
        engine, REVENUE_2022,
        "what is the difference between the 2022 percentage and this 2021 one?",
    )  # fmt: skip

    assert gap.status == "clarify"
    assert not gap.figures


# -- a calculation asked again, and the whole after "percentage of" ------------------------


def test_the_whole_is_the_figure_named_after_percentage_of(engine: Engine) -> None:
    (share,) = conversation(engine, "What percentage of Apple's revenue was net income in FY2022?")

    values = {f.metric: f.value for f in share.figures if f.kind == "fact"}
    assert last_computed(share).value == pytest.approx(
        values["Net income"] / values["Revenue"] * 100, abs=Decimal("0.001")
    )


def test_this_percentage_in_another_year_repeats_the_calculation(engine: Engine) -> None:
    _, again = conversation(
        engine, "What percentage of Apple's revenue was net income in FY2022?",
        "and what was this percentage in the previous year, in 2021?",
    )  # fmt: skip

    values = {f.metric: f.value for f in again.figures if f.kind == "fact"}
    assert again.status == "found", again.text
    assert again.intent["periods"] == ["FY2021"]
    assert last_computed(again).value == pytest.approx(
        values["Net income"] / values["Revenue"] * 100, abs=Decimal("0.001")
    )


def test_a_revenue_less_net_income_is_their_difference(engine: Engine) -> None:
    (gap,) = conversation(engine, "What was Apple's revenue less net income in FY2022?")

    values = {f.metric: f.value for f in gap.figures if f.kind == "fact"}
    assert last_computed(gap).value == values["Revenue"] - values["Net income"]


# -- after an ask-back --------------------------------------------------------------------


def test_a_question_asked_back_in_between_loses_nothing_the_session_holds(
    engine: Engine,
) -> None:
    *_, change, _, share = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?", "what about the widgets?",
        "what is that change as a percentage of the FY2021 revenue?",
    )  # fmt: skip

    assert share.status == "found", share.text
    assert results(share) == [(3, last_computed(change).value)]


def test_that_change_after_a_change_asked_and_not_given_is_asked_back(engine: Engine) -> None:
    *_, refused, share = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?",
        "what was the change in widgets from 2021 to 2022?",
        "what is that change as a percentage of the FY2021 revenue?",
    )  # fmt: skip

    assert refused.status != "found"
    assert share.status == "clarify"
    assert not share.figures


def test_two_figures_in_history_text_are_never_the_pair(engine: Engine) -> None:
    history = [
        ("user", REVENUE_2022),
        ("assistant", "Apple's Revenue in FY2022 was USD 394.3 billion."),
        ("user", INCOME_2022),
        ("assistant", "Apple's Net income in FY2022 was USD 99.8 billion."),
    ]

    answer = engine.answer(
        "what did the first represent in relation to the second?",
        session=ConversationSession(), history=history,
    )  # fmt: skip

    assert answer.status == "clarify"
    assert not answer.figures


def test_the_parser_reads_the_pair_and_the_step_from_the_question_alone() -> None:
    parser = parser_for(demo_store().vocabulary())

    pair = parser.parse("how much did the first represent in relation to the second?")
    step = parser.parse("and in the year before?")

    assert pair.pair == ("first", "second") and pair.operation == "ratio"
    assert step.period_step == -1 and step.periods == ()


def test_a_question_ending_in_adjectives_after_the_reads_without_failing() -> None:
    parser = parser_for(demo_store().vocabulary())

    intent = parser.parse("and what was the net total")

    assert intent.referent == ""


# -- sums and averages over what the conversation covered ----------------------------------


def test_the_sum_after_a_range_adds_every_year_of_it(engine: Engine) -> None:
    *_, total = conversation(
        engine, "What was Apple's revenue from FY2019 to FY2021?", "what is the sum?"
    )  # fmt: skip

    assert total.intent["periods"] == ["FY2019", "FY2020", "FY2021"]
    assert len([f for f in total.figures if f.kind == "fact"]) == 3


def test_the_average_between_them_takes_the_two_years_asked_of_that_figure(
    engine: Engine,
) -> None:
    first, second, average = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what is the average between them?"
    )  # fmt: skip

    assert average.status == "found", average.text
    expected = (fact(first, "FY2022") + fact(second, "FY2021")) / 2
    assert last_computed(average).value == pytest.approx(expected, abs=Decimal("0.01"))


def test_its_average_never_takes_a_year_asked_of_another_figure(engine: Engine) -> None:
    *_, average = conversation(
        engine, "What was Apple's net income in FY2021?", REVENUE_2022, "and the average of them?"
    )  # fmt: skip

    assert average.status != "found" or average.intent["periods"] != ["FY2021", "FY2022"]


def test_the_combined_total_is_a_sum_not_a_total_line(engine: Engine) -> None:
    *_, total = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what about the combined total of those years?"
    )  # fmt: skip

    assert total.status == "found", total.text
    assert total.intent["operation"] == "sum" and total.intent["metrics"] == ["Revenue"]


def test_both_years_are_the_two_the_conversation_is_on(engine: Engine) -> None:
    *_, income = conversation(
        engine, REVENUE_2022, "and in FY2021?", "and what was its net income in both years?"
    )  # fmt: skip

    assert income.status == "found", income.text
    assert income.intent["metrics"] == ["Net income"]
    assert income.intent["periods"] == ["FY2021", "FY2022"]


def test_the_sum_of_both_adds_the_two_figures_asked_one_by_one(engine: Engine) -> None:
    revenue, income, total = conversation(
        engine, REVENUE_2022, INCOME_2022, "what is the sum of both?"
    )  # fmt: skip

    assert total.status == "found", total.text
    assert last_computed(total).value == fact(revenue, "FY2022") + fact(income, "FY2022")
    assert {(c.slot, c.value) for c in total.carried} >= {
        ("metric", "Revenue"), ("metric", "Net income"), ("period", "FY2022")
    }  # fmt: skip


def test_the_difference_of_two_figures_asked_one_by_one_is_first_less_second(
    engine: Engine,
) -> None:
    # ADR 0076 supersedes ADR 0043's question back: the answer shows both figures, so the
    # order it took them in (as asked) is plain to see.
    revenue, income, gap = conversation(
        engine, REVENUE_2022, INCOME_2022, "what is the difference?"
    )

    assert gap.status == "found"
    assert last_computed(gap).value == fact(revenue, "FY2022") - fact(income, "FY2022")


# -- an operand an earlier answer read from a sentence -------------------------------------

HARBOUR = "Harbour Mills"
FREIGHT_NOTE = (
    "Harbour Mills' freight cost was $12.0 million, $10.0 million and $9.0 million for 2022, "
    "2021 and 2020, respectively."
)


def _harbour() -> Engine:
    store = InMemoryStore(
        entities=[Term(HARBOUR, ("Harbour",))],
        metrics=[Term("Revenue")],
        facts=[Fact("f:h", HARBOUR, "Revenue", "FY2022", Decimal("300"), "million")],
        passages=[
            Passage(
                id="passage:h1", document_id="doc:h1", title="Notes", text=FREIGHT_NOTE,
                classification=PUBLIC, entity=HARBOUR,
            )
        ],
    )  # fmt: skip
    return Engine(store, MockProvider())


def test_a_figure_read_from_a_sentence_earlier_is_the_operand_it_names() -> None:
    *_, share = conversation(
        _harbour(), "What was Harbour's freight cost in 2022?", "and in 2021?",
        "what was the change?",
        "how much does that change represent in relation to this 2021 freight cost, in percent?",
    )  # fmt: skip

    assert share.status == "found", share.text
    assert last_computed(share).value == pytest.approx(Decimal("20"), abs=CLOSE)
    results = [c for c in share.carried if c.slot == "result" and c.figure is not None]
    assert [r.figure.value for r in results] == [Decimal("2"), Decimal("10.0")]  # type: ignore[union-attr]
    assert results[1].figure.period == "FY2021"  # type: ignore[union-attr]
    assert last_computed(share).sources == ("passage:h1",)


def test_the_net_change_divided_by_a_number_names_the_earlier_change(engine: Engine) -> None:
    *_, change, half = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?",
        "what is the net change divided by 2?",
    )  # fmt: skip

    assert half.status == "found", half.text
    assert last_computed(half).value == last_computed(change).value / 2
    assert last_computed(half).role == "quotient"


def test_all_three_years_are_the_last_three_asked(engine: Engine) -> None:
    *_, total = conversation(
        engine, REVENUE_2022, "and in FY2021?", "and in FY2020?",
        "what is the total sum for all 3 years?",
    )  # fmt: skip

    assert total.status == "found", total.text
    assert total.intent["periods"] == ["FY2020", "FY2021", "FY2022"]


def test_more_years_counted_than_the_conversation_asked_are_not_made_up(engine: Engine) -> None:
    *_, total = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what is the total sum for all 4 years?"
    )  # fmt: skip

    assert total.status == "clarify"
    assert not total.figures


def test_one_figure_over_another_is_their_ratio_and_a_new_year_repeats_it(
    engine: Engine,
) -> None:
    ratio, again = conversation(
        engine, "What was Apple's net income over revenue in FY2022?", "and in FY2021?"
    )  # fmt: skip

    for answer, period in ((ratio, "FY2022"), (again, "FY2021")):
        values = {f.metric: f.value for f in answer.figures if f.kind == "fact"}
        assert answer.intent["periods"] == [period]
        assert last_computed(answer).value == pytest.approx(
            values["Net income"] / values["Revenue"], abs=Decimal("0.0001")
        )


def test_over_the_years_is_a_span_not_a_division() -> None:
    parser = parser_for(demo_store().vocabulary())

    assert parser.parse("how did Apple's revenue develop over the years?").operation != "ratio"


def test_and_the_year_before_opening_a_follow_up_is_counted_back(engine: Engine) -> None:
    *_, before = conversation(engine, REVENUE_2022, "and the year before?")

    assert before.status == "found", before.text
    assert before.intent["periods"] == ["FY2021"]


def test_the_sum_of_the_two_and_a_bare_average_take_the_figures_on_hand(engine: Engine) -> None:
    first, second, total, average = conversation(
        engine, REVENUE_2022, "and in FY2020?", "sum of the two", "average?"
    )  # fmt: skip

    both = fact(first, "FY2022") + fact(second, "FY2020")
    assert total.status == "found", total.text
    assert last_computed(total).value == both
    assert average.status == "found", average.text
    assert last_computed(average).value == pytest.approx(both / 2, abs=Decimal("0.01"))


def test_the_total_over_those_years_is_a_sum_not_a_total_line(engine: Engine) -> None:
    *_, total = conversation(
        engine, "What was Apple's revenue from FY2019 to FY2021?", "total over those years"
    )  # fmt: skip

    assert total.status == "found", total.text
    assert total.intent["operation"] == "sum"
    assert total.intent["periods"] == ["FY2019", "FY2020", "FY2021"]
