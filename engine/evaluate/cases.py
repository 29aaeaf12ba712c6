"""Cases exported by reviewers from the admin, run again through an Engine.

A case is {question, history, scope?, expected_status, expected_figures}; see
askapp/selectors/reviews.py for the export and askapp's evaluate_cases command, which runs
them through the Engine askapp answers with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.answer import Engine
from engine.evaluate.scoring import Scored, parse_decimal, scored
from engine.evaluate.split import TUNE
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import KnowledgeStore
from engine.types import DEFAULT_CLEARANCE, Answer


def run_cases(
    cases: Iterable[Mapping[str, Any]],
    engine: Engine | KnowledgeStore,
    *,
    clearance: frozenset[str] = DEFAULT_CLEARANCE,
) -> list[Scored]:
    """Reviewer-exported cases: {question, history, scope?, expected_status, expected_figures},
    answered by `engine` (a bare store is answered with MockProvider, like the public sets).

    The earlier questions of a case are asked again through one session first, so a
    follow-up ("and in FY2022?") gets the slots it carried when it was answered."""
    if not isinstance(engine, Engine):
        engine = Engine(engine, MockProvider())
    results: list[Scored] = []
    for case in cases:
        history = [(str(role), str(text)) for role, text in case.get("history", [])]
        session = ConversationSession(scope=case.get("scope"))
        for role, text in history:
            if role == "user":
                engine.answer(text, session=session, clearance=clearance)
        answer = engine.answer(
            case["question"], history=history, session=session, clearance=clearance
        )
        outcome = _case_outcome(answer, case)
        kind = case.get("expected_status", "?")
        gold = case.get("expected_figures")
        results.append(scored(kind, case["question"], outcome, gold, answer, part=TUNE))
    return results


def _case_outcome(answer: Answer, case: Mapping[str, Any]) -> str:
    expected = case.get("expected_status")
    figures = [str(f.get("value")) for f in case.get("expected_figures", [])]
    given = [format(f.value, "f") for f in answer.figures]
    if answer.status != expected:
        if answer.figures and expected in ("not_found", "clarify", "blocked"):
            return "wrong"
        return "refused" if answer.status in ("not_found", "clarify", "blocked") else "other"
    if figures and not all(_same_number(f, given) for f in figures):
        return "wrong"
    return "correct"


def _same_number(expected: str, given: Sequence[str]) -> bool:
    value = parse_decimal(expected)
    return any(value is not None and parse_decimal(g) == value for g in given)
