"""A question's reading is kept for the store's current vocabulary (docs/adr/0051): asked
again with the same scope and clearance it is not parsed again; another clearance, another
scope or a changed knowledge base reads it afresh, and the answers are those a fresh engine
gives."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from engine import (
    INTERNAL,
    PUBLIC,
    ConversationSession,
    Engine,
    Fact,
    InMemoryStore,
    MockProvider,
)
from engine.cache import PerSnapshot
from engine.parser import IntentParser
from engine.providers import mock

WITH_INTERNAL = frozenset({PUBLIC, INTERNAL})
PUBLIC_ONLY = frozenset({PUBLIC})
QUILLON = "What was Quillon Partners' revenue in FY2023?"


def _store(*, quillon: str = INTERNAL) -> InMemoryStore:
    return InMemoryStore(
        facts=[
            Fact("fact:1", "Apple", "Revenue", "FY2023", Decimal(1001), "USD", PUBLIC),
            Fact("fact:2", "Microsoft", "Revenue", "FY2023", Decimal(1002), "USD", PUBLIC),
            Fact("fact:3", "Quillon Partners", "Revenue", "FY2023", Decimal(1003), "USD", quillon),
        ]
    )


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The questions IntentParser.parse is given (the engine's, and the mock's when it is
    told no facts to fetch)."""
    seen: list[str] = []
    real = IntentParser.parse

    def counting(self: IntentParser, question: str, **kwargs: Any) -> Any:
        seen.append(question)
        return real(self, question, **kwargs)

    monkeypatch.setattr(IntentParser, "parse", counting)
    mock._READINGS.clear()
    return seen


def test_a_question_asked_again_is_not_parsed_again(parses: list[str]) -> None:
    engine = Engine(_store(), MockProvider())
    first = engine.answer("What was Apple's revenue in FY2023?", clearance=PUBLIC_ONLY)
    parsed_once = len(parses)
    again = engine.answer("What was Apple's revenue in FY2023?", clearance=PUBLIC_ONLY)
    # The engine's reading only: the mock model fetches the facts the system prompt names.
    assert parsed_once == 1
    assert len(parses) == parsed_once
    assert again == first
    assert first.status == "found"


def test_the_clearance_is_part_of_the_reading(parses: list[str]) -> None:
    """An INTERNAL-only company is unknown to a PUBLIC asker and known to an INTERNAL one,
    whichever asks first."""
    for order in ((PUBLIC_ONLY, WITH_INTERNAL), (WITH_INTERNAL, PUBLIC_ONLY)):
        engine = Engine(_store(), MockProvider())
        answers = {clearance: engine.answer(QUILLON, clearance=clearance) for clearance in order}
        fresh = {c: Engine(_store(), MockProvider()).answer(QUILLON, clearance=c) for c in order}
        assert answers == fresh
        assert answers[PUBLIC_ONLY].status == "not_found"
        assert answers[PUBLIC_ONLY].intent["entities"] == []
        assert answers[WITH_INTERNAL].status == "found"


def test_the_scope_is_part_of_the_reading() -> None:
    engine = Engine(_store(), MockProvider())
    for scope in ("Apple", "Microsoft", None):
        session = ConversationSession(scope=scope)
        asked = engine.answer("What was revenue in FY2023?", session=session)
        fresh = Engine(_store(), MockProvider()).answer(
            "What was revenue in FY2023?", session=ConversationSession(scope=scope)
        )
        assert asked == fresh


class _ChangingStore:
    """A store whose knowledge base changes: a new vocabulary object, as DatabaseStore
    hands out after its version moved."""

    def __init__(self) -> None:
        self.current = _store(quillon=PUBLIC)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.current, name)


def test_a_changed_knowledge_base_is_read_afresh() -> None:
    store = _ChangingStore()
    engine = Engine(store, MockProvider())  # type: ignore[arg-type]
    assert engine.answer(QUILLON, clearance=PUBLIC_ONLY).status == "found"
    store.current = _store(quillon=INTERNAL)  # reclassified: a PUBLIC asker may not see it
    answer = engine.answer(QUILLON, clearance=PUBLIC_ONLY)
    assert answer.status == "not_found"
    assert answer.intent["entities"] == []


def test_values_for_another_source_are_never_found() -> None:
    kept: PerSnapshot[str, int] = PerSnapshot(size=2)
    old, new = object(), object()
    kept.put(old, "a", 1)
    assert kept.get(old, "a") == 1
    assert kept.get(new, "a") is None
    kept.put(new, "b", 2)
    assert kept.get(old, "a") is None  # emptied, not only hidden
    assert kept.get(new, "a") is None
    kept.put(new, "c", 3)
    kept.put(new, "d", 4)
    assert kept.get(new, "b") is None  # bounded
