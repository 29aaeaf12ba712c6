"""Follow-ups that set the conversation's figures side by side: "how does that compare with
2023?", "which one was larger?", "the difference between them", "the average over those
three years". Each is answered from the figures of the engine's own earlier answers, the
same after the session is rebuilt from stored intents (ADR 0017: never from history text)."""

from __future__ import annotations

from decimal import Decimal

from engine import ConversationSession, Engine, Fact, InMemoryStore, Intent, MockProvider, Term
from engine.session import Remembered


def _fact(number: int, entity: str, metric: str, period: str, value: str) -> Fact:
    return Fact(f"fact:{number}", entity, metric, period, Decimal(value), "USD")


STORE = InMemoryStore(
    entities=[Term("Larkspur Inc"), Term("Tamarack Co")],
    metrics=[Term("Revenue"), Term("Operating expenses")],
    facts=[
        _fact(1, "Larkspur Inc", "Revenue", "FY2021", "300"),
        _fact(2, "Larkspur Inc", "Revenue", "FY2022", "330"),
        _fact(3, "Larkspur Inc", "Revenue", "FY2023", "360"),
        _fact(4, "Tamarack Co", "Revenue", "FY2023", "410"),
        _fact(5, "Larkspur Inc", "Operating expenses", "FY2023", "200"),
    ],
)
ENGINE = Engine(STORE, MockProvider())


def _conversation(*questions: str, session: ConversationSession | None = None):  # type: ignore[no-untyped-def]
    session = session or ConversationSession()
    answers = []
    for question in questions:
        answers.append(ENGINE.answer(question, session=session, history=session.history()))
    return answers, session


def _computed(answer):  # type: ignore[no-untyped-def]
    (figure,) = [f for f in answer.figures if f.role != "fact"]
    return figure


def test_how_does_that_compare_sets_the_named_period_against_the_one_on() -> None:
    (_, compared, versus), _ = _conversation(
        "What was Larkspur Inc's revenue in FY2023?",
        "how does that compare with FY2022?",
        "and versus FY2021?",
    )

    assert compared.status == "found", compared.text
    assert _computed(compared).value == Decimal(30)  # FY2022 to FY2023
    assert versus.status == "found", versus.text
    assert _computed(versus).value == Decimal(60)  # FY2021 to FY2023, the period on


def test_that_after_two_figures_is_asked_about_not_guessed() -> None:
    (_, compared), _ = _conversation(
        "Larkspur Inc revenue and operating expenses in FY2023",
        "how does that compare with FY2022?",
    )

    assert compared.status == "clarify"
    assert "Which figure do you mean" in compared.text
    assert not compared.figures


def test_which_one_was_larger_and_the_difference_between_them() -> None:
    (_, larger, difference), _ = _conversation(
        "Compare Larkspur Inc and Tamarack Co revenue in FY2023.",
        "which one was larger?",
        "what is the difference between them?",
    )

    assert larger.status == "found", larger.text
    assert larger.text.startswith("Tamarack Co's Revenue in FY2023 is the higher")
    assert difference.status == "found", difference.text
    assert abs(_computed(difference).value) == Decimal(50)  # in FY2023, the one period on


def test_the_average_and_the_sum_over_the_years_the_conversation_asked() -> None:
    (*_, average, total), _ = _conversation(
        "Larkspur Inc revenue FY2021",
        "FY2022",
        "FY2023",
        "what was the average over the three years?",
        "and the sum of those three years?",
    )

    assert average.status == "found", average.text
    assert _computed(average).value == Decimal(330)
    assert total.status == "found", total.text
    assert _computed(total).value == Decimal(990)


def test_the_same_follow_up_reads_the_same_after_a_restart() -> None:
    """A session rebuilt from stored intents (as askapp rebuilds it from stored turns)."""
    _, session = _conversation("Larkspur Inc revenue FY2021", "FY2022", "FY2023")
    rebuilt = ConversationSession(
        turns=[
            Remembered(t.question, Intent.from_dict(t.question, t.intent.to_dict()), t.answer_text,
                       t.status, t.results)
            for t in session.turns
        ]
    )  # fmt: skip

    (average,), _ = _conversation("what was the average over the three years?", session=rebuilt)

    assert _computed(average).value == Decimal(330)


def test_a_figure_named_without_a_period_is_asked_in_the_period_just_answered() -> None:
    (_, other, share), _ = _conversation(
        "What was Larkspur Inc's revenue in FY2023?",
        "and operating expenses?",
        "operating expenses as a percentage of revenue?",
    )

    assert [f.period for f in other.figures] == ["FY2023"]
    assert [round(f.value, 2) for f in share.figures if f.role == "share"] == [Decimal("55.56")]


def test_after_a_question_back_the_period_is_asked_again() -> None:
    (asked, other), _ = _conversation("What was Larkspur Inc's revenue?", "and operating expenses?")

    assert asked.status == "clarify"
    assert other.status == "clarify" and not other.figures


def test_the_total_for_the_years_the_conversation_asked() -> None:
    (*_, total), _ = _conversation(
        "Larkspur Inc revenue FY2021", "FY2022", "FY2023", "what's the total for the three years"
    )

    assert _computed(total).value == Decimal(990)


def test_two_answers_in_a_row_are_the_figures_a_bare_comparison_sets_side_by_side() -> None:
    first, then = "What was Larkspur Inc's revenue in FY2023?", "and Tamarack Co's?"
    (*_, higher), _ = _conversation(first, then, "which was higher?")
    (*_, difference), _ = _conversation(first, then, "the difference?")

    assert higher.status == "found", higher.text
    assert higher.text.startswith("Tamarack Co's Revenue in FY2023 is the higher")
    assert _computed(difference).value == Decimal(50)  # the later answer less the earlier


def test_one_figure_is_never_combined_with_itself() -> None:
    (_, alone), _ = _conversation("What was Larkspur Inc's revenue in FY2023?", "which was higher?")

    assert alone.status == "clarify"
    assert "cannot be combined" not in alone.text
    assert not [f for f in alone.figures if f.role != "fact"]
