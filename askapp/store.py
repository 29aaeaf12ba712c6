"""The knowledge store the engine reads, over the database (engine.store.KnowledgeStore)."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import engine
from askapp import search
from askapp.models import Chunk, Classification, Document, Entity, Fact, Metric
from askapp.selectors.clearance import naming_levels, term_classification

_KNOWN = frozenset(Classification.values)
VERSIONED = ("sqlite", "postgresql")  # the databases askapp/migrations/0007 puts triggers on
VERSION_SQL = "SELECT version FROM askapp_knowledge_version WHERE id = 1"
_COUNTING_PROBE = "SELECT " + ", ".join(
    f"(SELECT count(*) FROM {t}), (SELECT max(updated) FROM {t})"
    for t in ("askapp_entity", "askapp_metric", "askapp_fact", "askapp_document")
)
SERIES_CACHED = 4096
# The knowledge base's version as a scalar subquery: the statement that reads an ask's user
# (askapp/auth.py) brings it too, and the ask's question takes it as its probe (`probed`).
VERSION_SUBQUERY = f"({VERSION_SQL})"
_GIVEN = threading.local()


@contextmanager
def probed(version: object, *, using: str = "default") -> Iterator[None]:
    """Within the block, this thread's next probe of `using` takes `version` (read by the
    request's own first statement, moments before) instead of reading the row again. Once:
    a second question in the block reads it. None: nothing was read, the probe reads."""
    _GIVEN.probe = None if version is None else (using, version)
    try:
        yield
    finally:
        _GIVEN.probe = None


class DatabaseStore:
    """Entities, metrics, facts and passages from the database, as engine values.

    The vocabulary is cached per store and checked with one cheap probe per call: the
    knowledge base's version, one row the database itself bumps in every transaction that
    writes entities, metrics, facts or documents (triggers, askapp/migrations/0007). A
    question costs one primary-key read instead of three full reads, and any import, admin
    edit, queryset update or delete is seen by the very next question, in every process,
    with no cross-process signal. A write the triggers would miss (they were dropped) is
    caught by a full re-read at most every `refresh_after` seconds. Each name comes with the
    least restrictive classification among the facts and documents naming it
    (askapp/selectors/clearance.py), read with the names, so the engine keeps a name from
    askers who may not learn it.
    """

    def __init__(
        self,
        *,
        using: str = "default",
        refresh_after: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.using = using
        self.refresh_after = refresh_after
        self.clock = clock
        self._lock = threading.Lock()
        self._vocabulary: engine.Vocabulary | None = None
        self._probe: object = None
        self._loaded_at = 0.0
        # Each (entity, metric) series read since the last probe change. The probe (the
        # knowledge base's version) runs at the start of every question, so a fact edited
        # anywhere is read afresh by the next question.
        self._series: OrderedDict[tuple[str, str], list[engine.Fact]] = OrderedDict()
        # What is held for an entity, a metric or both, since the last probe change: the
        # parser asks it of every question that names a company (ADR 0044).
        self._holdings: OrderedDict[tuple[str | None, str | None], tuple[engine.Holding, ...]]
        self._holdings = OrderedDict()

    # vocabulary

    def vocabulary(self) -> engine.Vocabulary:
        probe = self._read_probe()
        with self._lock:
            fresh = self.clock() - self._loaded_at < self.refresh_after
            if self._vocabulary is not None and probe == self._probe and fresh:
                return self._vocabulary
        vocabulary = self._read_vocabulary()
        with self._lock:
            self._vocabulary, self._probe, self._loaded_at = vocabulary, probe, self.clock()
            self._series.clear()  # the same probe that says the names changed covers facts
            self._holdings.clear()
        return vocabulary

    def _read_probe(self) -> object:
        """The knowledge base's version, which the database bumps in every transaction that
        writes entities, metrics, facts or documents (askapp/migrations/0007). On a database
        without those triggers: the tables' counts and latest `updated`."""
        from django.db import connections

        given = getattr(_GIVEN, "probe", None)
        if given is not None:
            _GIVEN.probe = None
            if given[0] == self.using:
                return given[1]
        connection = connections[self.using]
        with connection.cursor() as cursor:
            if connection.vendor in VERSIONED:
                cursor.execute(VERSION_SQL)
                row = cursor.fetchone()
                return row[0] if row else object()  # no version row: never the same twice
            cursor.execute(_COUNTING_PROBE)
            return tuple(cursor.fetchone())

    def _read_vocabulary(self) -> engine.Vocabulary:
        entities = tuple(
            e.to_engine(classification=term_classification(e))
            for e in Entity.objects.using(self.using).annotate(**naming_levels(Entity))
        )
        metrics = tuple(
            m.to_engine(classification=term_classification(m))
            for m in Metric.objects.using(self.using).annotate(**naming_levels(Metric))
        )
        periods = tuple(
            Fact.objects.using(self.using)
            .order_by("period")
            .values_list("period", flat=True)
            .distinct()
        )
        digest = hashlib.sha1(repr((entities, metrics, periods)).encode(), usedforsecurity=False)
        return engine.Vocabulary(
            entities=entities, metrics=metrics, periods=periods, version=digest.hexdigest()
        )

    # facts

    def find_facts(
        self, *, entity: str, metric: str, periods: Sequence[str] | None = None
    ) -> list[engine.Fact]:
        series = self._read_series(entity, metric)
        if periods is None:
            return list(series)
        by_period = {fact.period: fact for fact in series}
        return [by_period[p] for p in dict.fromkeys(periods) if p in by_period]

    def _read_series(self, entity: str, metric: str) -> list[engine.Fact]:
        key = (entity, metric)
        with self._lock:
            if key in self._series:
                self._series.move_to_end(key)
                return self._series[key]
        rows = (
            Fact.objects.using(self.using)
            .filter(entity__name=entity, metric__name=metric)
            .select_related("entity", "metric")
            .order_by("period")
        )
        series = [fact.to_engine() for fact in rows]
        with self._lock:
            self._series[key] = series
            while len(self._series) > SERIES_CACHED:
                self._series.popitem(last=False)
        return series

    def holdings(
        self, *, entity: str | None = None, metric: str | None = None
    ) -> list[engine.Holding]:
        """What is held for one entity, one metric or both: names, periods and
        classifications in one query, no values (the engine filters by clearance). Kept, as
        the series are, until the knowledge base's version changes."""
        key = (entity, metric)
        with self._lock:
            if key in self._holdings:
                self._holdings.move_to_end(key)
                return list(self._holdings[key])
        held = self._read_holdings(entity, metric)
        with self._lock:
            self._holdings[key] = held
            while len(self._holdings) > SERIES_CACHED:
                self._holdings.popitem(last=False)
        return list(held)

    def _read_holdings(self, entity: str | None, metric: str | None) -> tuple[engine.Holding, ...]:
        rows = Fact.objects.using(self.using)
        if entity is not None:
            rows = rows.filter(entity__name=entity)
        if metric is not None:
            rows = rows.filter(metric__name=metric)
        fields = ("entity__name", "metric__name", "period", "classification")
        return tuple(engine.Holding(*row) for row in rows.order_by().values_list(*fields))

    # passages

    def search_passages(
        self,
        query: str,
        *,
        limit: int,
        classifications: frozenset[str],
        entities: Sequence[str] = (),
    ) -> list[engine.Passage]:
        hits = search.chunk_search(
            query=query,
            limit=limit,
            classifications=classifications,
            entities=entities,
            using=self.using,
        )
        return [
            engine.Passage(
                id=f"chunk:{hit.chunk_id}",
                document_id=str(hit.document_id),
                title=hit.title,
                text=hit.text,
                classification=_known(hit.classification),
                source=hit.source,
                entity=hit.entity,
                period=hit.period or None,
                score=hit.score,
            )
            for hit in hits
        ]

    def document_passages(
        self, document_id: str, *, classifications: frozenset[str]
    ) -> list[engine.Passage]:
        """Every passage of one document, in order, if its classification is allowed."""
        try:
            pk = int(document_id)
        except (TypeError, ValueError):
            return []
        allowed = sorted(classifications & _KNOWN)
        chunks = (
            Chunk.objects.using(self.using)
            .filter(document_id=pk, document__classification__in=allowed)
            .select_related("document__entity")
            .order_by("ordinal")
        )
        return [passage(chunk) for chunk in chunks]


def _known(classification: str) -> str | None:
    return classification if classification in _KNOWN else None


def passage(chunk: Chunk, *, score: float = 0.0) -> engine.Passage:
    """A chunk as the engine sees it; an unknown classification becomes None (never shown)."""
    document: Document = chunk.document
    return engine.Passage(
        id=f"chunk:{chunk.pk}",
        document_id=str(document.pk),
        title=document.title,
        text=chunk.text,
        classification=_known(document.classification),
        source=document.source,
        entity=document.entity.name if document.entity else None,
        period=document.period or None,
        score=float(score),
    )
