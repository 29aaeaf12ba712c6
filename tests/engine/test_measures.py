"""Named measures the knowledge base holds as two figures: a margin, free cash flow, a return.
Computed from the two facts (each cited, the formula on the computed figure), said to be a
computation, carried into follow-ups; never offered when a figure is beyond the asker, and
never standing in for a line item the knowledge base holds under that name."""

from __future__ import annotations

from decimal import Decimal

from engine import (
    PUBLIC,
    RESTRICTED,
    ConversationSession,
    Engine,
    Fact,
    InMemoryStore,
    MockProvider,
)

PUBLIC_ONLY = frozenset({PUBLIC})


def _fact(n: int, metric: str, period: str, value: str, classification: str = PUBLIC) -> Fact:
    return Fact(f"fact:{n}", "Osprey Mills", metric, period, Decimal(value), "USD",
                classification=classification)  # fmt: skip


def _engine(*facts: Fact) -> Engine:
    """Names come from the facts, each as secret as the least restrictive fact naming it."""
    return Engine(InMemoryStore(facts=list(facts)), MockProvider())


HELD = (
    _fact(1, "Revenue", "FY2022", "800"),
    _fact(2, "Revenue", "FY2023", "1000"),
    _fact(3, "Gross profit", "FY2022", "320"),
    _fact(4, "Gross profit", "FY2023", "450"),
    _fact(5, "Operating cash flow", "FY2023", "300"),
    _fact(6, "Capital expenditure", "FY2023", "120"),
)


def test_a_margin_is_computed_from_its_two_figures_and_says_so() -> None:
    answer = _engine(*HELD).answer("What was Osprey Mills' gross margin in FY2023?")

    assert answer.status == "found", answer.text
    (share,) = [f for f in answer.figures if f.role == "share"]
    assert share.value == Decimal(45)
    assert {s.id for s in answer.sources} == {"fact:2", "fact:4"}
    assert "Gross profit" in share.formula and "Revenue" in share.formula
    assert "(Gross margin is gross profit as a percentage of revenue.)" in answer.text


def test_a_follow_up_carries_the_measure() -> None:
    engine, session = _engine(*HELD), ConversationSession()
    engine.answer("Osprey Mills gross margin FY2023", session=session)

    answer = engine.answer("and in FY2022?", session=session, history=session.history())

    assert [f.value for f in answer.figures if f.role == "share"] == [Decimal(40)]


def test_free_cash_flow_is_operating_cash_flow_less_capital_expenditure() -> None:
    answer = _engine(*HELD).answer("What was the free cash flow of Osprey Mills in FY2023?")

    assert [f.value for f in answer.figures if f.role == "change"] == [Decimal(180)]


def test_a_change_in_free_cash_flow_is_worked_out_in_two_steps() -> None:
    # Like a change in a margin (tests/engine/test_said_another_way.py): free cash flow in
    # each year, one difference a year, then the change between them (ADR 0075).
    earlier = (_fact(7, "Operating cash flow", "FY2022", "260"),
               _fact(8, "Capital expenditure", "FY2022", "100"))  # fmt: skip
    answer = _engine(*HELD, *earlier).answer(
        "How did Osprey Mills' free cash flow change from FY2022 to FY2023?"
    )

    assert answer.status == "found", answer.text
    computed = [f.value for f in answer.figures if f.kind == "computed"]
    assert computed == [Decimal(160), Decimal(180), Decimal(20)]
    assert answer.text.endswith("it went from USD 160 to USD 180: an increase of USD 20.")


def test_a_change_in_free_cash_flow_with_a_year_not_held_is_not_found() -> None:
    answer = _engine(*HELD).answer(
        "How did Osprey Mills' free cash flow change from FY2022 to FY2023?"
    )

    assert answer.status == "not_found"
    assert not answer.figures
    assert "Operating cash flow in FY2022" in answer.text


def test_a_line_item_of_that_name_is_the_answer_not_the_formula() -> None:
    own = _fact(7, "Gross margin", "FY2023", "44.5")
    answer = _engine(*HELD, own).answer("What was Osprey Mills' gross margin in FY2023?")

    assert [s.id for s in answer.sources] == ["fact:7"]


def test_no_measure_is_offered_from_a_figure_the_asker_may_not_see() -> None:
    hidden = (
        _fact(1, "Revenue", "FY2023", "1000", RESTRICTED),
        _fact(4, "Gross profit", "FY2023", "450"),
    )
    answer = _engine(*hidden).answer(
        "What was Osprey Mills' gross margin in FY2023?", clearance=PUBLIC_ONLY
    )

    assert answer.status != "found"
    assert "Revenue" not in answer.text  # a name only RESTRICTED material names
    assert "1000" not in answer.text and "1,000" not in answer.text
    assert all(s.id != "fact:1" for s in answer.sources)


def test_a_question_about_why_a_margin_moved_goes_to_the_documents() -> None:
    answer = _engine(*HELD).answer("Why did Osprey Mills' gross margin improve in FY2023?")

    assert answer.status == "not_found"  # no passage here says why
    assert answer.text == "The knowledge base holds no passage that answers this question."
