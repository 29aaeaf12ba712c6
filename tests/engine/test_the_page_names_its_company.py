"""A page's running header names the company it is about (ADR 0058).

Report pages open on their company's name with its legal suffix ("Lantern Bay Power, Inc.
and Subsidiaries ..."). A question that names that company ("for Lantern Bay Power") asks
about the page's company: those words name no line item, so they are neither looked for
in line labels nor read as narrowing the line. A name the page's lines hold (a stock
performance table's own row) stays the line's.
"""

from __future__ import annotations

from decimal import Decimal

from engine.answer import answer_question
from engine.evaluate.tatqa import ENTITY, page_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.types import Answer

HEADER = "lantern bay power , inc . and subsidiaries management's discussion and analysis"
BRIDGE = [
    ["", "amount ( in millions )"],
    ["2031 net revenue", "510.0"],
    ["fuel recovery", "12.5"],
    ["other", "-2.5"],
    ["2032 net revenue", "520.0"],
]


def _ask(store: InMemoryStore, question: str) -> Answer:
    session = ConversationSession(scope=ENTITY)
    return answer_question(
        question, store, MockProvider(), session=session, history=session.history()
    )


def _values(answer: Answer) -> list[Decimal]:
    return sorted(f.value for f in answer.figures if f.kind == "fact")


def test_the_company_the_page_opens_on_names_no_line() -> None:
    store = page_store("page", BRIDGE, f"{HEADER} net revenue rose in 2032 .", [])

    answer = _ask(store, "what was the net revenue for lantern bay power, inc. in 2032?")

    assert answer.status == "found"
    assert _values(answer) == [Decimal("520.0")]


def test_the_company_named_without_its_suffix_names_no_line() -> None:
    store = page_store("page", BRIDGE, f"{HEADER} net revenue rose in 2032 .", [])

    answer = _ask(store, "what was the net revenue for lantern bay power in 2031?")

    assert answer.status == "found"
    assert _values(answer) == [Decimal("510.0")]


def test_a_name_the_lines_hold_stays_the_lines() -> None:
    rows = [
        ["", "12/31/2031", "12/31/2032"],
        ["lantern bay power , inc .", "100.0", "118.0"],
        ["s&p 500 index", "100.0", "109.0"],
    ]
    store = page_store("page", rows, "lantern bay power , inc . stock performance graph", [])

    answer = _ask(store, "what was the value of lantern bay power in 2032?")

    assert answer.status == "found"
    assert _values(answer) == [Decimal("118.0")]
