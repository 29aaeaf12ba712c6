"""Conversations over the demo knowledge base for engine tests: questions asked in order
through one ConversationSession, each with the session's own history, as the chat page asks."""

from __future__ import annotations

from engine.answer import Engine
from engine.session import ConversationSession
from engine.types import Answer, Figure

REVENUE_2022 = "What was Apple's revenue in FY2022?"


def conversation(engine: Engine, *questions: str) -> list[Answer]:
    session = ConversationSession()
    return [engine.answer(q, session=session, history=session.history()) for q in questions]


def last_computed(answer: Answer) -> Figure:
    return [f for f in answer.figures if f.kind == "computed"][-1]
