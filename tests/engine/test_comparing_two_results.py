"""Two answers that each worked out one result (two companies' operating margins, or one
company's in two years), then "which is higher?": the higher of those results, never of the
figures the last one was worked out from; and "the difference" after that is the same two
results' gap, in percentage points (ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import Answer, Fact, Term

FIGURES = {  # company: {year: (revenue, operating income)}
    "Kestrel Optics": {2031: ("800", "120"), 2032: ("900", "171")},
    "Larkspur Tools": {2031: ("500", "110"), 2032: ("520", "78")},
}
STORE = InMemoryStore(
    entities=[Term(name) for name in FIGURES],
    metrics=[Term("Revenue"), Term("Operating income")],
    facts=[
        Fact(f"{name[:3]}-{metric[:3]}-{year}", name, metric, f"FY{year}", Decimal(value), "USD")
        for name, years in FIGURES.items()
        for year, pair in years.items()
        for metric, value in zip(("Revenue", "Operating income"), pair, strict=True)
    ],
)


def _ask(*questions: str) -> list[Answer]:
    session = ConversationSession()
    return [
        answer_question(q, STORE, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def _computed(answer: Answer) -> list[Decimal]:
    return [round(f.value, 2) for f in answer.figures if f.kind == "computed"]


def test_which_is_higher_after_two_companies_margins_compares_the_margins() -> None:
    *_, higher = _ask(
        "What was Kestrel Optics's operating margin in FY2032?",
        "and Larkspur Tools's?",
        "which is higher?",
    )

    assert higher.status == "found"
    assert higher.text.startswith("Of the two shares, 19%")  # Kestrel's, against 15%
    assert "15%" in higher.text
    assert "Revenue in FY2032 is the higher" not in higher.text
    assert sorted(_computed(higher)) == [Decimal("15.00"), Decimal("19.00")]


def test_which_was_lower_after_one_companys_margin_in_two_years() -> None:
    *_, lower = _ask(
        "What was Larkspur Tools's operating margin in FY2031?",
        "and in FY2032?",
        "which was lower?",
    )

    assert lower.status == "found"
    assert lower.text.startswith(
        "Of the two shares, 15% (Larkspur Tools's Operating income in FY2032"
    )


def test_the_difference_after_the_comparison_is_the_same_two_in_points() -> None:
    *_, gap = _ask(
        "What was Kestrel Optics's operating margin in FY2032?",
        "and Larkspur Tools's?",
        "which is higher?",
        "and the difference?",
    )

    assert gap.status == "found"
    assert _computed(gap) == [Decimal("-4.00")]  # the newer answer's 15% less the older's 19%
    assert "4 percentage points" in gap.text


def test_compared_with_another_company_sets_the_figure_on_hand_against_its() -> None:
    _, compared = _ask(
        "What was Kestrel Optics's revenue in FY2032?",
        "how does it compare with Larkspur Tools's?",
    )

    assert compared.status == "found"
    assert compared.text.startswith("Kestrel Optics's Revenue in FY2032 is the higher")
    assert "Larkspur Tools's Revenue in FY2032" in compared.text
