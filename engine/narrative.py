"""The narrative channel: retrieve -> link -> rerank -> generate, each stage behind a Protocol.

RESTRICTED material is removed twice, independently: at the link exit (an allow-list of the
caller's classifications) and at the rerank exit (a second allow-list check in its own code).
Either one alone keeps RESTRICTED text away from the model, the answer and the sources; the
conformance tests prove that with a retriever that leaks on purpose.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from engine.intent import Intent
from engine.parser import STOP
from engine.store import KnowledgeStore
from engine.text import words
from engine.timeframe import period_sort_key
from engine.types import INTERNAL, PUBLIC, RESTRICTED, Passage, showable

RETRIEVE_LIMIT = 20
PASSAGES_FOR_MODEL = 4


class Retriever(Protocol):
    def retrieve(self, query: str, *, intent: Intent, clearance: frozenset[str]) -> list[Passage]:
        """Candidate passages for the current question (never for history)."""
        ...


class Linker(Protocol):
    def link(
        self, passages: Sequence[Passage], *, intent: Intent, clearance: frozenset[str]
    ) -> list[Passage]: ...


class Reranker(Protocol):
    def rerank(
        self, passages: Sequence[Passage], *, intent: Intent, clearance: frozenset[str]
    ) -> list[Passage]: ...


@dataclass(frozen=True, slots=True)
class StoreRetriever:
    """Full-text search through the knowledge store (FTS5, PostgreSQL, or in memory)."""

    store: KnowledgeStore
    limit: int = RETRIEVE_LIMIT

    def retrieve(self, query: str, *, intent: Intent, clearance: frozenset[str]) -> list[Passage]:
        return self.store.search_passages(
            query, limit=self.limit, classifications=clearance, entities=intent.entities
        )


def visible(passage: Passage, clearance: frozenset[str]) -> bool:
    return showable(passage.classification, clearance)


@dataclass(frozen=True, slots=True)
class EntityLinker:
    """First exit: drops what the caller may not see, and passages about other companies."""

    def link(
        self, passages: Sequence[Passage], *, intent: Intent, clearance: frozenset[str]
    ) -> list[Passage]:
        named = set(intent.entities)
        return [
            p
            for p in passages
            if visible(p, clearance) and (not named or p.entity is None or p.entity in named)
        ]


_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class OverlapReranker:
    """Second exit: orders by words shared with the question, entity, period and recency,
    and checks classification again on its own, so one broken exit never leaks."""

    keep: int = PASSAGES_FOR_MODEL

    def rerank(
        self, passages: Sequence[Passage], *, intent: Intent, clearance: frozenset[str]
    ) -> list[Passage]:
        allowed = [
            p
            for p in passages
            if p.classification in (PUBLIC, INTERNAL)
            and p.classification != RESTRICTED
            and p.classification in clearance
        ]
        wanted = {w for w in words(intent.question) if w not in STOP}
        newest = max((period_sort_key(p.period) for p in allowed if p.period), default=(0, 0))
        scored = [(self._score(p, wanted, intent, newest), i, p) for i, p in enumerate(allowed)]
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [
            replace(p, score=round(score, 4)) for score, _, p in scored[: self.keep] if score > 0
        ]

    def _score(
        self, passage: Passage, wanted: set[str], intent: Intent, newest: tuple[int, int]
    ) -> float:
        held = set(words(passage.title + " " + passage.text))
        overlap = len(wanted & held) / math.sqrt(len(wanted) or 1)
        if overlap == 0:
            return 0.0
        score = overlap
        if passage.entity and passage.entity in intent.entities:
            score += 0.5
        if passage.period and passage.period in intent.periods:
            score += 0.5
        if passage.period and not intent.periods:
            years_behind = newest[0] - period_sort_key(passage.period)[0]
            score += 0.2 / (1 + max(years_behind, 0))
        return score


@dataclass(frozen=True, slots=True)
class Pipeline:
    """The narrative stages; a test swaps any one (a leaky retriever, a disabled exit)."""

    retriever: Retriever
    linker: Linker = EntityLinker()
    reranker: Reranker = OverlapReranker()

    def passages(
        self, question: str, *, intent: Intent, clearance: frozenset[str]
    ) -> list[Passage]:
        found = self.retriever.retrieve(question, intent=intent, clearance=clearance)
        linked = self.linker.link(found, intent=intent, clearance=clearance)
        return self.reranker.rerank(linked, intent=intent, clearance=clearance)


def default_pipeline(store: KnowledgeStore) -> Pipeline:
    return Pipeline(retriever=StoreRetriever(store))
