""" "That margin" right after a margin is that margin: "how has that margin changed since
FY2030?" is the change in it, not a passage search for the word "margin" (ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import Answer, Fact, Term

OWNER = "Quillfeather Press"
STORE = InMemoryStore(
    entities=[Term(OWNER), Term("Other Press")],
    metrics=[Term("Revenue"), Term("Operating income"), Term("Gross profit")],
    facts=[
        Fact(f"{m[:3]}-{y}", OWNER, m, f"FY{y}", Decimal(v), "USD")
        for m, by_year in {
            "Revenue": {2030: "400", 2032: "500"},
            "Operating income": {2030: "60", 2032: "100"},
            "Gross profit": {2030: "200", 2032: "260"},
        }.items()
        for y, v in by_year.items()
    ],
)


def _ask(*questions: str) -> list[Answer]:
    session = ConversationSession()
    return [
        answer_question(q, STORE, MockProvider(), session=session, history=session.history())
        for q in questions
    ]


def test_that_margin_changed_since_a_year_is_the_change_in_the_margin() -> None:
    _, changed = _ask(
        "What was Quillfeather Press's operating margin in FY2032?",
        "how has that margin changed since FY2030?",
    )

    assert changed.status == "found"
    computed = [round(f.value, 2) for f in changed.figures if f.kind == "computed"]
    assert computed[:2] == [Decimal("15.00"), Decimal("20.00")]  # FY2030, FY2032
    assert "5 percentage points" in changed.text


def test_that_margin_in_another_year_is_the_same_margin() -> None:
    _, earlier = _ask(
        "What was Quillfeather Press's gross margin in FY2032?",
        "and what was that margin in FY2030?",
    )

    assert [round(f.value, 2) for f in earlier.figures if f.kind == "computed"] == [
        Decimal("50.00")
    ]
