"""Conversations over the shipped demo knowledge base (real filings' figures) that earlier
sessions found answered badly: each asserts what the analyst reads (ADR 0075)."""

from __future__ import annotations

import pytest

from engine.answer import Engine
from engine.evaluate.demo import demo_store
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.types import Answer


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(demo_store(), MockProvider())


def _ask(engine: Engine, *questions: str, scope: str | None = None) -> list[Answer]:
    session = ConversationSession(scope=scope)
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


# -- a line named by its head, in a conversation about one company -------------------------
def test_a_head_word_names_the_line_of_the_company_the_conversation_is_about(
    engine: Engine,
) -> None:
    *_, equity = _ask(engine, "What were Tesla's total assets in FY2021?", "and equity?")

    assert equity.status == "found"
    assert equity.text.startswith("Tesla's Stockholders' equity in FY2021 was USD 30.2 billion")


def test_the_company_a_head_word_is_read_against_is_the_latest_one_named(
    engine: Engine,
) -> None:
    *_, equity = _ask(
        engine, "What were Tesla's total assets in FY2021?", "and Apple's?", "and equity?"
    )

    assert equity.text.startswith("Apple's Stockholders' equity in FY2021 was USD 63.1 billion")


def test_a_head_word_after_two_companies_is_still_asked_back(engine: Engine) -> None:
    *_, equity = _ask(
        engine, "What were Apple's and Tesla's total assets in FY2021?", "and equity?"
    )

    assert equity.status == "clarify"
    assert not equity.figures
