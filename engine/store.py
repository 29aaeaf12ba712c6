"""The knowledge store the engine reads: a Protocol, and an in-memory implementation.

askapp's database store implements the same Protocol; engine tests and the evaluation command
use InMemoryStore.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Protocol

from engine.types import Fact, Holding, Passage, Term, Vocabulary, least_restrictive


class KnowledgeStore(Protocol):
    def vocabulary(self) -> Vocabulary:
        """Entity and metric names with aliases, and the periods held."""
        ...

    def find_facts(
        self, *, entity: str, metric: str, periods: Sequence[str] | None = None
    ) -> list[Fact]:
        """Facts for one entity and metric (canonical names), in the given periods or all."""
        ...

    def holdings(self, *, entity: str | None = None, metric: str | None = None) -> list[Holding]:
        """Which (entity, metric, period) the store holds, with each one's classification and
        no value: one entity's, one metric's, or both's. The caller filters by clearance."""
        ...

    def search_passages(
        self,
        query: str,
        *,
        limit: int,
        classifications: frozenset[str],
        entities: Sequence[str] = (),
    ) -> list[Passage]:
        """Full-text search over passages. Any text is a safe query; never raises on syntax."""
        ...

    def document_passages(
        self, document_id: str, *, classifications: frozenset[str]
    ) -> list[Passage]:
        """Every passage of one document, in order, if its classification is allowed."""
        ...


_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _naming(
    facts: dict[tuple[str, str], dict[str, Fact]], passages: Sequence[Passage]
) -> tuple[dict[str, str], dict[str, str]]:
    """The classification of each entity and metric name the material introduces: the
    least restrictive among the facts (and, for entities, passages) naming it. Names given
    as Terms keep the classification they were given."""
    entity_levels: dict[str, list[str | None]] = defaultdict(list)
    metric_levels: dict[str, list[str | None]] = defaultdict(list)
    for (entity, metric), by_period in facts.items():
        for fact in by_period.values():
            entity_levels[entity].append(fact.classification)
            metric_levels[metric].append(fact.classification)
    for passage in passages:
        if passage.entity:
            entity_levels[passage.entity].append(passage.classification)
    return (
        {name: least_restrictive(levels) for name, levels in entity_levels.items()},
        {name: least_restrictive(levels) for name, levels in metric_levels.items()},
    )


class InMemoryStore:
    """A KnowledgeStore over Python lists, for engine tests and the evaluation command."""

    def __init__(
        self,
        *,
        entities: Iterable[Term] = (),
        metrics: Iterable[Term] = (),
        facts: Iterable[Fact] = (),
        passages: Iterable[Passage] = (),
    ) -> None:
        self._facts: dict[tuple[str, str], dict[str, Fact]] = defaultdict(dict)
        for fact in facts:
            self._facts[(fact.entity, fact.metric)][fact.period] = fact
        entity_terms = {t.name: t for t in entities}
        metric_terms = {t.name: t for t in metrics}
        passages = list(passages)
        named = _naming(self._facts, passages)
        for entity, metric in self._facts:
            entity_terms.setdefault(entity, Term(entity, (), named[0][entity]))
            metric_terms.setdefault(metric, Term(metric, (), named[1][metric]))
        periods = sorted({p for by_period in self._facts.values() for p in by_period})
        digest = hashlib.sha1(
            repr((sorted(entity_terms.items()), sorted(metric_terms.items()), periods)).encode()
        ).hexdigest()
        self._vocabulary = Vocabulary(
            entities=tuple(entity_terms.values()),
            metrics=tuple(metric_terms.values()),
            periods=tuple(periods),
            version=digest,
        )
        self._passages = passages
        self._passage_words = [set(_words(p.title + " " + p.text)) for p in self._passages]
        document_frequency: dict[str, int] = defaultdict(int)
        for words in self._passage_words:
            for word in words:
                document_frequency[word] += 1
        count = max(len(self._passages), 1)
        self._idf = {w: math.log(1 + count / n) for w, n in document_frequency.items()}

    def vocabulary(self) -> Vocabulary:
        return self._vocabulary

    def find_facts(
        self, *, entity: str, metric: str, periods: Sequence[str] | None = None
    ) -> list[Fact]:
        by_period = self._facts.get((entity, metric), {})
        if periods is None:
            return [by_period[p] for p in sorted(by_period)]
        return [by_period[p] for p in periods if p in by_period]

    def holdings(self, *, entity: str | None = None, metric: str | None = None) -> list[Holding]:
        return [
            Holding(fact.entity, fact.metric, fact.period, fact.classification)
            for (held_entity, held_metric), by_period in self._facts.items()
            if entity in (None, held_entity) and metric in (None, held_metric)
            for fact in by_period.values()
        ]

    def search_passages(
        self,
        query: str,
        *,
        limit: int,
        classifications: frozenset[str],
        entities: Sequence[str] = (),
    ) -> list[Passage]:
        terms = set(_words(query))
        scored: list[tuple[float, int]] = []
        for index, (passage, words) in enumerate(
            zip(self._passages, self._passage_words, strict=True)
        ):
            if passage.classification not in classifications:
                continue
            # Summed in a fixed order: a float sum over a set would rank ties by hash seed.
            score = sum(self._idf.get(t, 0.0) for t in sorted(terms & words))
            if score > 0:
                scored.append((score, index))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [
            _with_score(self._passages[index], score) for score, index in scored[: max(limit, 0)]
        ]

    def document_passages(
        self, document_id: str, *, classifications: frozenset[str]
    ) -> list[Passage]:
        return [
            p
            for p in self._passages
            if p.document_id == document_id and p.classification in classifications
        ]


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _with_score(passage: Passage, score: float) -> Passage:
    from dataclasses import replace

    return replace(passage, score=score)
