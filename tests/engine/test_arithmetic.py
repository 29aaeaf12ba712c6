"""The arithmetic grammar and results as referents (docs/adr/0023, 0024), in the engine.

Each test asks in its own words over the demo knowledge base: a follow-up names an earlier
answer's result by its role and uses it as an operand; constants and one nested step are read;
a result is only ever the engine's own earlier figure, never a number in history text.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.answer import Engine
from engine.arithmetic import Operand, combine
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer
from tests.demo_store import demo_store
from tests.engine.conversing import REVENUE_2022, conversation, last_computed


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(demo_store(), MockProvider())


def facts(answer: Answer) -> dict[str, Decimal]:
    return {f.period or "": f.value for f in answer.figures if f.kind == "fact"}


def test_a_named_change_is_the_numerator_of_a_share_of_the_base(engine: Engine) -> None:
    *_, change, share = conversation(
        engine, REVENUE_2022, "and in FY2021?", "by how much did it change?",
        "how much is that change in relation to the FY2021 revenue, in percent?",
    )  # fmt: skip

    moved = last_computed(change)
    figure = last_computed(share)
    base = facts(share)["FY2021"]
    assert share.status == "found"
    assert figure.role == "share"
    assert figure.value == pytest.approx(moved.value / base * 100, abs=Decimal("0.000001"))
    result = next(c for c in share.carried if c.slot == "result")
    assert result.from_turn == 3 and result.value.startswith("the change of")
    assert result.figure is not None and result.figure.value == moved.value
    assert "the change from your question 3" in figure.formula
    # the operands' sources: the change rests on both years' facts, the base on its own
    assert set(moved.sources) <= set(figure.sources)


def test_a_bare_pronoun_takes_the_last_answers_result_with_a_constant(engine: Engine) -> None:
    *_, share, less = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the difference?",
        "and that difference divided by the FY2021 revenue?", "what is this less 1?",
    )  # fmt: skip

    assert last_computed(less).role == "change"
    assert last_computed(less).value == last_computed(share).value - 1
    assert "− 1" in last_computed(less).formula


@pytest.mark.parametrize(
    ("words", "operation", "expected"),
    [
        ("plus 40", "sum", Decimal("140")),
        ("times 3", "product", Decimal("300")),
        ("less 100", "difference", Decimal("0")),
    ],
)
def test_constants_are_operands(
    engine: Engine, words: str, operation: str, expected: Decimal
) -> None:
    operands = (Operand("a figure", Decimal(100), "USD"), Operand.constant(words.split()[1]))
    figure = combine(operation, operands)

    assert figure is not None and figure.value == expected and figure.unit == "USD"


def test_a_figure_less_a_base_of_100_is_read_as_a_difference(engine: Engine) -> None:
    (answer,) = conversation(engine, "What was Apple's revenue in FY2022 less 100?")

    assert answer.status == "found"
    assert last_computed(answer).value == facts(answer)["FY2022"] - 100


def test_one_nested_step_a_change_then_that_change_against_its_base(engine: Engine) -> None:
    (answer,) = conversation(
        engine,
        "What was the change in Apple's revenue from FY2021 to FY2022 as a percentage of "
        "the FY2021 figure?",
    )

    inner, outer = [f for f in answer.figures if f.kind == "computed"]
    held = facts(answer)
    assert inner.role == "change" and inner.value == held["FY2022"] - held["FY2021"]
    assert outer.role == "share"
    assert outer.value == pytest.approx(inner.value / held["FY2021"] * 100, abs=Decimal("1e-6"))


def test_the_sum_of_averages_is_a_sum(engine: Engine) -> None:
    (answer,) = conversation(
        engine, "What is the sum of Apple's average revenue in FY2021 and FY2022?"
    )

    assert answer.intent["operation"] == "sum"


def test_a_referent_without_an_earlier_result_is_asked_back_not_guessed(engine: Engine) -> None:
    (answer,) = conversation(
        engine, "how much does that change represent in relation to Apple's FY2021 revenue?"
    )

    assert answer.status == "clarify"
    assert not answer.figures


def test_a_number_in_history_text_is_never_a_result(engine: Engine) -> None:
    session = ConversationSession()
    history = [("user", "what was the change?"), ("assistant", "The change was USD 5 billion.")]

    answer = engine.answer(
        "what is that change in relation to Apple's FY2021 revenue?",
        session=session, history=history,
    )  # fmt: skip

    assert answer.status == "clarify"
    assert not answer.figures


def test_a_percentage_change_of_this_is_the_change_it_points_at(engine: Engine) -> None:
    *_, change, percent = conversation(
        engine, REVENUE_2022, "and in FY2021?", "and the change from FY2021 to FY2022?",
        "what percentage change does this represent?",
    )  # fmt: skip

    held = facts(change)
    assert percent.status == "found"
    assert percent.intent["periods"] == ["FY2021", "FY2022"]
    expected = (held["FY2022"] - held["FY2021"]) / held["FY2021"] * 100
    assert last_computed(percent).value == pytest.approx(expected, abs=Decimal("1e-6"))
    assert {(c.slot, c.from_turn) for c in percent.carried} >= {("period", 3), ("metric", 3)}


def test_a_change_over_one_named_value_is_the_earlier_change_against_it(engine: Engine) -> None:
    *_, change, over = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what is the net change?",
        "what is the net change over the FY2021 value?",
    )  # fmt: skip

    base = facts(over)["FY2021"]
    assert over.status == "found"
    assert last_computed(over).value == pytest.approx(
        last_computed(change).value / base, abs=Decimal("1e-6")
    )


def test_the_value_of_a_period_is_a_lookup_not_the_last_calculation(engine: Engine) -> None:
    *_, value = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?", "what is the FY2021 value?"
    )

    assert value.intent["operation"] is None
    assert [f.kind for f in value.figures] == ["fact"]


def test_the_sum_including_another_year_adds_to_the_earlier_sum(engine: Engine) -> None:
    *_, total, more = conversation(
        engine, "What was the sum of Apple's revenue in FY2022 and FY2023?",
        "what is the sum including the FY2021 value?",
    )  # fmt: skip

    assert more.status == "found", more.text
    assert last_computed(more).value == last_computed(total).value + facts(more)["FY2021"]


def test_that_same_year_carries_the_period_beside_a_new_figure(engine: Engine) -> None:
    *_, other = conversation(
        engine, REVENUE_2022, "and what was Apple's net income in that same year?"
    )

    assert other.status == "found"
    assert other.intent["periods"] == ["FY2022"]
    assert ("period", 1) in {(c.slot, c.from_turn) for c in other.carried}


def test_a_share_of_the_original_value_is_the_earlier_change_in_percent(engine: Engine) -> None:
    *_, change, percent = conversation(
        engine, REVENUE_2022, "and in FY2021?", "and the difference between these two years?",
        "and as a percentage of the original value?",
    )  # fmt: skip

    held = facts(change)
    assert percent.status == "found"
    expected = (held["FY2022"] - held["FY2021"]) / held["FY2021"] * 100
    assert last_computed(percent).value == pytest.approx(expected, abs=Decimal("1e-6"))


def test_two_constants_multiply_without_any_fact(engine: Engine) -> None:
    (answer,) = conversation(engine, "what is 45 times 4?")

    assert answer.status == "found"
    assert last_computed(answer).value == 180
    assert last_computed(answer).sources == ()


def test_the_sum_follow_up_adds_the_two_figures_just_asked(engine: Engine) -> None:
    first, second, total = conversation(engine, REVENUE_2022, "and in FY2021?", "what is the sum?")

    assert total.status == "found"
    assert last_computed(total).value == facts(first)["FY2022"] + facts(second)["FY2021"]


def test_a_change_over_several_figures_and_periods_is_asked_back(engine: Engine) -> None:
    (answer,) = conversation(
        engine, "What was the change in Apple's revenue and net income from FY2021 to FY2022?"
    )

    # never one figure's FY2021 against another's FY2022
    assert answer.status == "clarify"
    assert not answer.figures


def test_the_change_after_a_range_runs_between_its_ends_and_a_share_takes_it(
    engine: Engine,
) -> None:
    _, change, share = conversation(
        engine, "What was Apple's revenue from FY2019 to FY2021?", "what was the change?",
        "and what percentage of FY2019 was the change?",
    )  # fmt: skip

    assert change.intent["periods"] == ["FY2019", "FY2021"]
    assert share.status == "found"
    result = next(c for c in share.carried if c.slot == "result")
    assert result.figure is not None and result.figure.value == last_computed(change).value


def test_that_plus_a_named_figure_adds_it_to_the_last_result(engine: Engine) -> None:
    *_, change, more = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?",
        "what is that plus the revenue in FY2020?",
    )  # fmt: skip

    assert more.status == "found", more.text
    assert last_computed(more).role == "sum"
    assert last_computed(more).value == last_computed(change).value + facts(more)["FY2020"]


def test_that_figure_in_a_period_is_a_lookup_even_after_a_change(engine: Engine) -> None:
    *_, value = conversation(
        engine, REVENUE_2022, "and in FY2021?", "what was the change?",
        "and what was that revenue in FY2020?",
    )  # fmt: skip

    assert value.intent["operation"] is None
    assert [f.period for f in value.figures] == ["FY2020"]


def test_a_calculation_on_a_figure_of_no_named_company_asks_which_company(engine: Engine) -> None:
    # The demo holds thirteen companies: none may be picked for the asker.
    answer = engine.answer("How much was revenue in FY2023 minus 100?")

    assert answer.status == "clarify"
    assert "Which company" in answer.text
    assert not answer.figures
