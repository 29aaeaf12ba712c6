"""Follow-ups about the two figures the conversation has just given, however the analyst points
at them: "which of the two", "compare them", "add them up", one of the two companies named
("how much more did Quillon make?"), and two results of the same kind (a margin in two
years), which are set against each other, never the figures they were worked out from."""

from __future__ import annotations

from decimal import Decimal

from engine import ConversationSession, Engine, Fact, InMemoryStore, MockProvider, Term
from engine.measures import MEASURES

STORE = InMemoryStore(
    entities=[Term("Quillon Foods"), Term("Brightmere Labs")],
    # A line with "total" in its label, as most companies hold, so a bare "total" is not
    # linked to one line alone.
    metrics=[Term("Revenue"), Term("Gross profit"), Term("Total assets"), Term("Total debt")],
    facts=[
        Fact("q-rev-24", "Quillon Foods", "Revenue", "FY2024", Decimal("800"), "USD"),
        Fact("b-rev-24", "Brightmere Labs", "Revenue", "FY2024", Decimal("500"), "USD"),
        Fact("q-rev-23", "Quillon Foods", "Revenue", "FY2023", Decimal("640"), "USD"),
        Fact("q-gp-24", "Quillon Foods", "Gross profit", "FY2024", Decimal("320"), "USD"),
        Fact("q-gp-23", "Quillon Foods", "Gross profit", "FY2023", Decimal("192"), "USD"),
    ],
)
ENGINE = Engine(STORE, MockProvider())
TWO_COMPANIES = ("What was Quillon Foods' revenue in FY2024?", "and Brightmere Labs'?")


def _ask(*questions: str, scope: str | None = None):  # type: ignore[no-untyped-def]
    session = ConversationSession(scope=scope)
    answers = [ENGINE.answer(q, session=session, history=session.history()) for q in questions]
    return answers[-1]


def _computed(answer):  # type: ignore[no-untyped-def]
    return [f for f in answer.figures if f.kind == "computed"]


def test_which_of_the_two_points_at_the_figures_on_hand() -> None:
    answer = _ask(*TWO_COMPANIES, "which of the two was higher?")

    assert answer.status == "found", answer.text
    assert answer.text.startswith("Quillon Foods's Revenue in FY2024 is the higher") or (
        answer.text.startswith("Quillon Foods' Revenue in FY2024 is the higher")
    ), answer.text


def test_the_two_before_a_noun_still_counts_that_noun() -> None:
    # "the two years" is a count of periods, not the figures on hand.
    answer = _ask(
        "What was Quillon Foods' revenue in FY2023?", "and in FY2024?",
        "what was the total for the two years?",
    )  # fmt: skip

    assert [f.value for f in _computed(answer)] == [Decimal(1440)]


def test_compare_them_and_add_them_up_take_the_pair() -> None:
    compared = _ask(*TWO_COMPANIES, "compare them")
    added = _ask(*TWO_COMPANIES, "add them up")

    assert compared.status == "found" and len(compared.figures) == 2, compared.text
    assert "higher" in compared.text
    assert [f.value for f in _computed(added)] == [Decimal(1300)]


def test_one_company_of_the_pair_named_is_set_against_the_other() -> None:
    more = _ask(*TWO_COMPANIES, "how much more did Quillon Foods make?")
    # Named second, the other one comes first all the same: the named company leads.
    other = _ask(*TWO_COMPANIES, "and how much higher was Brightmere Labs'?")

    assert [f.value for f in _computed(more)] == [Decimal(300)], more.text
    assert [f.value for f in _computed(other)] == [Decimal(-300)], other.text


def test_a_company_outside_the_pair_is_not_set_against_it() -> None:
    session_answer = _ask(
        "What was Quillon Foods' revenue in FY2024?",
        "and its gross profit?",
        "how much more did Brightmere Labs make?",
    )

    assert not [f for f in _computed(session_answer) if f.value in (Decimal(480), Decimal(-480))]


def test_two_margins_in_a_row_are_set_against_each_other_not_their_operands() -> None:
    assert any(m.name == "Gross margin" for m in MEASURES)
    answer = _ask(
        "what was gross margin in FY2024?", "and in FY2023?", "what's the change between the two?",
        scope="Quillon Foods",
    )  # fmt: skip

    (change,) = _computed(answer)
    # 40% in FY2024 against 30% in FY2023: the later year's less the earlier's, whichever
    # was asked first; never gross profit less revenue.
    assert change.value == Decimal(10), answer.text
    assert "from your question 1" in answer.text and "from your question 2" in answer.text


def test_two_results_of_different_kinds_are_not_combined() -> None:
    answer = _ask(
        "what was gross margin in FY2024?",
        "what was the change in revenue from FY2023 to FY2024?",
        "what's the sum of the two?",
        scope="Quillon Foods",
    )

    assert not [f for f in _computed(answer) if f.value in (Decimal("200"), Decimal("-120"))]


def test_a_bare_total_after_figures_is_their_sum() -> None:
    after_two_years = _ask(
        "What was Quillon Foods' revenue in FY2023?", "and in FY2024?", "and the total?"
    )
    after_two_companies = _ask(*TWO_COMPANIES, "what was the total?")

    assert [f.value for f in _computed(after_two_years)] == [Decimal(1440)], after_two_years.text
    assert [f.value for f in _computed(after_two_companies)] == [Decimal(1300)]


def test_a_total_with_nothing_before_it_is_no_sum() -> None:
    answer = _ask("what was the total?")

    assert answer.status == "clarify" and not answer.figures


def test_how_much_lower_is_the_gap_below_never_a_negative_difference() -> None:
    asked = ENGINE.answer(
        "How much lower was Brightmere Labs' revenue than Quillon Foods' in FY2024?"
    )
    followed = _ask(*TWO_COMPANIES, "how much less was Brightmere Labs'?")
    wrong_way = ENGINE.answer(
        "How much lower was Quillon Foods' revenue than Brightmere Labs' in FY2024?"
    )

    for answer in (asked, followed):
        assert [f.value for f in _computed(answer)] == [Decimal(300)], answer.text
        assert "lower by USD 300" in answer.text
    # Said the wrong way round, the answer says so instead of a gap of minus 300.
    assert "not lower but higher, by USD 300" in wrong_way.text
