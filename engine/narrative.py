"""The narrative channel: retrieve -> link -> rerank -> generate, each stage behind a Protocol.

RESTRICTED material is removed twice, independently: at the link exit (an allow-list of the
caller's classifications) and at the rerank exit (a second allow-list check in its own code).
Either one alone keeps RESTRICTED text away from the model, the answer and the sources; the
conformance tests prove that with a retriever that leaks on purpose.

Between the two exits, passages are cleaned of page footers and flattened tables
(engine/passages.py). The reranker keeps only passages that answer (ADR 0027): of the asked
period when the question names one (or, failing those, the sentences of other documents that
state that year), and covering at least FLOOR of the question's topic (engine/topic.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from engine.intent import Intent
from engine.parser import STOP
from engine.passages import clean, sentences, years
from engine.store import KnowledgeStore
from engine.timeframe import period_sort_key
from engine.topic import Topic, intent_topic, question_topic, root, text_words
from engine.types import INTERNAL, PUBLIC, RESTRICTED, Passage, showable

RETRIEVE_LIMIT = 20
PASSAGES_FOR_MODEL = 4
_FILLER = frozenset(root(w) for w in STOP)
FLOOR = 0.25  # the share of a question's topic a passage must cover to be given (ADR 0027)


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


@dataclass(frozen=True, slots=True)
class OverlapReranker:
    """Second exit: checks classification again on its own, so one broken exit never leaks;
    keeps passages of the asked period that cover enough of the question's topic, and orders
    them by that cover, the title's, entity, period and recency."""

    keep: int = PASSAGES_FOR_MODEL
    floor: float = FLOOR

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
        topic = _topic(intent)
        asked = {_year(p) for p in intent.periods}
        if not asked:
            return self._best(allowed, topic, intent)
        dated = [p for p in allowed if p.period is None or _year(p.period) in asked]
        return self._best(dated, topic, intent) or self._best(
            [t for p in allowed if p not in dated if (t := _stating(p, asked))], topic, intent
        )

    def _best(self, passages: Sequence[Passage], topic: Topic, intent: Intent) -> list[Passage]:
        newest = max((period_sort_key(p.period) for p in passages if p.period), default=(0, 0))
        scored = []
        for index, passage in enumerate(passages):
            cover = topic.coverage(text_words(f"{passage.title}\n{passage.text}"))
            if cover >= self.floor and cover > 0:
                score = cover + _bonus(passage, topic, intent, newest)
                scored.append((score, index, passage))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [replace(p, score=round(score, 4)) for score, _, p in scored[: self.keep]]


def _topic(intent: Intent) -> Topic:
    if intent.topic:
        return intent_topic(intent.topic)
    return question_topic(intent.question, names=intent.entities)


def _bonus(passage: Passage, topic: Topic, intent: Intent, newest: tuple[int, int]) -> float:
    held = text_words(f"{passage.title}\n{passage.text}")
    question = text_words(intent.question) - _FILLER  # frame words too: "reason", "table"
    bonus = 0.25 * len(question & held) / len(question) if question else 0.0
    bonus += 0.25 * topic.coverage(text_words(passage.title)) if topic else 0.0
    if passage.entity and passage.entity in intent.entities:
        bonus += 0.5
    if passage.period and passage.period in intent.periods:
        bonus += 0.5
    if passage.period and not intent.periods:
        years_behind = newest[0] - period_sort_key(passage.period)[0]
        bonus += 0.2 / (1 + max(years_behind, 0))
    return bonus


def _year(period: str) -> int:
    return period_sort_key(period)[0]


def _stating(passage: Passage, asked: set[int]) -> Passage | None:
    """The passage cut to its sentences about an asked year: sentences that name it and no
    later year ("rose to $64.6 billion in fiscal 2025 from $44.5 billion in fiscal 2024" is
    about 2025). None when it has no such sentence."""
    kept = []
    for sentence in sentences(passage.text):
        named = years(sentence.text)
        if named & asked and max(named) in asked:
            kept.append(sentence.text)
    return replace(passage, text="\n\n".join(kept)) if kept else None


@dataclass(frozen=True, slots=True)
class Selection:
    """The passages for the model, and when the asked period has none that answers, the
    periods whose passages would."""

    passages: list[Passage]
    periods_elsewhere: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pipeline:
    """The narrative stages; a test swaps any one (a leaky retriever, a disabled exit)."""

    retriever: Retriever
    linker: Linker = EntityLinker()
    reranker: Reranker = OverlapReranker()

    def passages(
        self, question: str, *, intent: Intent, clearance: frozenset[str]
    ) -> list[Passage]:
        return self.select(question, intent=intent, clearance=clearance).passages

    def select(self, question: str, *, intent: Intent, clearance: frozenset[str]) -> Selection:
        found = self.retriever.retrieve(question, intent=intent, clearance=clearance)
        linked = self.linker.link(found, intent=intent, clearance=clearance)
        cleaned = [replace(p, text=clean(p.text)) for p in linked]
        chosen = self.reranker.rerank(cleaned, intent=intent, clearance=clearance)
        if chosen or not intent.periods:
            return Selection(chosen)
        anywhere = self.reranker.rerank(
            cleaned, intent=intent.with_(periods=()), clearance=clearance
        )
        periods = {p.period for p in anywhere if p.period}
        return Selection([], tuple(sorted(periods, key=period_sort_key)))


def default_pipeline(store: KnowledgeStore) -> Pipeline:
    return Pipeline(retriever=StoreRetriever(store))
