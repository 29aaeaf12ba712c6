""" "Which company had the highest revenue in FY2031?": the highest (or lowest) of one line in
one period across the companies the knowledge base holds it for, as the asker may see them:
a figure above the asker's clearance is not among them, and its company is not named
(ADR 0081)."""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import INTERNAL, PUBLIC, RESTRICTED, Answer, Fact, Term

FIGURES = [  # company, revenue in FY2031, its classification
    ("Alder Freight", "410", PUBLIC),
    ("Birchwood Mining", "905", PUBLIC),
    ("Cedar Row Bank", "1200", INTERNAL),
    ("Dunmore Vault", "5000", RESTRICTED),
]
STORE = InMemoryStore(
    entities=[Term(name) for name, _, _ in FIGURES],
    metrics=[Term("Revenue"), Term("Net income")],
    facts=[
        *(
            Fact(f"rev-{i}", name, "Revenue", "FY2031", Decimal(value), "USD", level)
            for i, (name, value, level) in enumerate(FIGURES)
        ),
        Fact("ni-0", "Alder Freight", "Net income", "FY2031", Decimal("40"), "USD"),
    ],
)


def _ask(*questions: str, clearance: frozenset[str] = frozenset({PUBLIC})) -> list[Answer]:
    session = ConversationSession()
    return [
        answer_question(
            q, STORE, MockProvider(), session=session, history=session.history(),
            clearance=clearance,
        )
        for q in questions
    ]  # fmt: skip


def test_the_highest_across_the_companies_held_names_it_and_the_others() -> None:
    (answer,) = _ask("Which company had the highest revenue in FY2031?")

    assert answer.status == "found"
    assert answer.text.startswith(
        "Birchwood Mining's Revenue in FY2031 is the higher"
    )  # of two seen
    assert "Alder Freight" in answer.text


def test_a_figure_above_the_askers_clearance_is_not_among_them_nor_named() -> None:
    (public,) = _ask("Which company had the highest revenue in FY2031?")
    (internal,) = _ask(
        "Which company had the highest revenue in FY2031?", clearance=frozenset({PUBLIC, INTERNAL})
    )

    for answer in (public, internal):
        assert "Dunmore" not in answer.text
        assert Decimal("5000") not in [f.value for f in answer.figures]
        assert all(s.classification != RESTRICTED for s in answer.sources)
    assert "Cedar Row" not in public.text
    assert internal.text.startswith("Cedar Row Bank's Revenue in FY2031 is the highest")


def test_a_company_named_before_does_not_stand_in_for_which_company() -> None:
    *_, which, lowest = _ask(
        "What was Alder Freight's net income in FY2031?",
        "Which company had the highest revenue in FY2031?",
        "and the lowest?",
    )

    assert which.text.startswith("Birchwood Mining's Revenue in FY2031 is the higher")
    assert lowest.text.startswith("Alder Freight's Revenue in FY2031 is the lower")


def test_a_line_only_one_company_holds_is_no_ranking() -> None:
    (answer,) = _ask("Which company had the highest net income in FY2031?")

    assert "is the high" not in answer.text
