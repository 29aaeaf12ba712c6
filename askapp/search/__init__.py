"""Ranked full-text search over document chunks: the one entry point, chunk_search.

The database keeps its own full-text index in step on every write path (migration 0002):
SQLite FTS5 behind triggers, PostgreSQL a generated tsvector with a GIN index. On a SQLite
file database an embedded tantivy index accelerates ranking at scale (FTS5's bm25 scans the
whole posting list of every query term, which is too slow for common words at a million
chunks); it catches up from a trigger-fed change log before it answers, and every hit is
re-read and filtered in SQL, so a stale accelerator can miss a fresh passage but can never
return a deleted one or one the caller may not see. See docs/adr/0018.

    chunk_search()            ranked chunks, classification allow-list in SQL
    search_index_sync()       bring the accelerator up to date now (after a bulk import, say)

The parts: terms.py (a question's search terms), hits.py (the allow-list and how ranked ids
become hits), sqlite.py (FTS5), postgres.py (tsvector), accelerator.py (tantivy). Cutting
documents into chunks is a write: askapp/services/knowledge.py.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import connections

from askapp.models import Entity
from askapp.search.accelerator import (
    AcceleratorUnavailable,
    SearchAccelerator,
    accelerator_for,
    search_index_sync,
)
from askapp.search.hits import KNOWN_CLASSIFICATIONS, Filters, SearchHit, fetch
from askapp.search.postgres import postgres_ranked
from askapp.search.sqlite import sqlite_ranked
from askapp.search.terms import query_terms

logger = logging.getLogger(__name__)

__all__ = [
    "SearchAccelerator",
    "SearchHit",
    "chunk_search",
    "query_terms",
    "search_index_sync",
]


def chunk_search(
    *,
    query: str,
    limit: int,
    classifications: frozenset[str],
    entities: Sequence[str] = (),
    using: str = "default",
) -> list[SearchHit]:
    """Chunks ranked by relevance to `query`, best first.

    Only chunks whose document has a classification in `classifications` come back (an
    allow-list applied in SQL; unknown classifications never pass). `entities` (canonical
    names) narrows to documents about those entities or about none. Any text is a safe
    query; a query with no searchable word returns [].
    """
    terms = query_terms(query)
    allowed = tuple(sorted(classifications & KNOWN_CLASSIFICATIONS))
    if not terms or not allowed or limit <= 0:
        return []
    filters = Filters(allowed, _entity_ids(entities, using) if entities else None)
    accelerator = accelerator_for(using)
    if accelerator is not None:
        hits = _accelerated(accelerator, terms, limit, filters, using)
        if hits is not None:
            return hits
    return fetch(_database_ranked(terms, limit, filters, using), limit, filters, using)


def _entity_ids(names: Sequence[str], using: str) -> tuple[int, ...]:
    return tuple(
        Entity.objects.using(using).filter(name__in=list(names)).values_list("pk", flat=True)
    )


def _database_ranked(
    terms: list[str], limit: int, filters: Filters, using: str
) -> list[tuple[int, float]]:
    if connections[using].vendor == "postgresql":
        return postgres_ranked(terms, limit, filters, using)
    return sqlite_ranked(terms, limit, filters, using)


def _accelerated(
    accelerator: SearchAccelerator, terms: list[str], limit: int, filters: Filters, using: str
) -> list[SearchHit] | None:
    """Hits ranked by the accelerator, or None when it cannot answer (FTS5 answers then).

    The first try asks tantivy for the best chunks by text alone, which it answers fastest
    (filters would disable its block-max WAND pruning), and leaves the allow-list to SQL.
    Only if too few of those survive SQL does a second try filter inside tantivy too.
    Entity narrowing filters inside tantivy from the start: it makes the search cheaper.
    """
    try:
        for filtered in (filters.entity_ids is not None, True):
            ranked = accelerator.search(terms, limit, filters, filtered=filtered)
            if ranked is None:
                return None
            hits = fetch(ranked, limit, filters, using)
            if filtered or len(hits) >= limit or len(ranked) < accelerator.page(limit):
                return hits
    except AcceleratorUnavailable:
        logger.warning("search accelerator unavailable; using FTS5", exc_info=True)
    return None
