"""The off-target suite: does an answer stay on the company and period it was asked about?

Run on the demo knowledge base (engine/evaluate/demo.py) with the questions of
data/eval/offtarget/questions.jsonl, written for askapp before the engine was tuned on them:

- unknown company: the question names a company the demo does not hold. correct: not found,
  naming it; other: not found without naming it (or a question back); wrong: any answer.
- period document: a held company and a period. correct: the first source is the expected
  document; other: an answer citing first another document of that company and period;
  wrong: an answer citing another company's passage, or first a passage of another period;
  refused: not found, clarify or blocked.
- period without passage: no document covers that period. correct: not found, naming the
  period; other: not found without naming it; wrong: any answer.

Every answer that cites a passage of a company other than the ones the question named counts
as wrong whatever its kind, and is tagged "cites another company".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from engine.answer import answer_question
from engine.evaluate.scoring import Scored, scored
from engine.evaluate.split import part_of
from engine.providers.mock import MockProvider
from engine.store import KnowledgeStore
from engine.types import DEFAULT_CLEARANCE, Answer

QUESTIONS = Path(__file__).resolve().parent.parent.parent / "data/eval/offtarget/questions.jsonl"
OTHER_COMPANY = "cites another company"
_ANSWERS = ("found", "answered")


def load_offtarget(path: Path = QUESTIONS) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def run_offtarget(
    items: Iterable[Mapping[str, Any]],
    store: KnowledgeStore,
    *,
    clearance: frozenset[str] = DEFAULT_CLEARANCE,
    limit: int | None = None,
) -> list[Scored]:
    provider = MockProvider()
    results: list[Scored] = []
    for item in items:
        question = item["question"]
        answer = answer_question(question, store, provider, clearance=clearance)
        tags = (OTHER_COMPANY,) if _cites_another_company(answer) else ()
        outcome = "wrong" if tags else _outcome(item, answer)
        gold = item.get("name") or item.get("document") or item.get("period")
        part = part_of(question)
        results.append(scored(item["kind"], question, outcome, gold, answer, part=part, tags=tags))
        if limit and len(results) >= limit:
            break
    return results


def _outcome(item: Mapping[str, Any], answer: Answer) -> str:
    kind = item["kind"]
    if kind == "period document":
        return _document_outcome(item, answer)
    named = item.get("name") if kind == "unknown company" else item.get("period")
    if answer.status in _ANSWERS:
        return "wrong"
    if answer.status == "not_found" and _names(answer.text, str(named)):
        return "correct"
    return "other"


def _document_outcome(item: Mapping[str, Any], answer: Answer) -> str:
    if answer.status not in _ANSWERS:
        return "refused"
    first = answer.sources[0] if answer.sources else None
    if first is None or first.kind != "passage":
        return "other"
    if first.title == item["document"]:
        return "correct"
    asked = answer.intent.get("periods") or []
    if first.period and asked and first.period not in asked and not _states(first, asked):
        return "wrong"
    return "other"


def _states(source: Any, periods: list[str]) -> bool:
    """Whether the sentences an answer cites from a passage name one of the asked years."""
    spans = getattr(source, "spans", ())
    cited = " ".join(source.excerpt[start:end] for start, end in spans)
    return any(re.search(rf"\b{p[2:6]}\b", cited) for p in periods if p.startswith("FY"))


def _cites_another_company(answer: Answer) -> bool:
    named = set(answer.intent.get("entities") or ())
    return bool(named) and any(
        s.kind == "passage" and s.entity is not None and s.entity not in named
        for s in answer.sources
    )


def _names(text: str, name: str) -> bool:
    if name.startswith("FY"):
        return name in text or re.search(rf"\b{name[2:]}\b", text) is not None
    return name.casefold() in text.casefold()
