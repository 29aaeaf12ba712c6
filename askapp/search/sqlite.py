"""Ranking on SQLite: FTS5's bm25, with coordination levels from rarest terms to commonest."""

from __future__ import annotations

from django.db import connections

from askapp.search.hits import Filters, below


def _fts5_phrase(term: str) -> str:
    # Terms hold only letters and digits; quoting makes each one a plain FTS5 string.
    return '"' + term.replace('"', '""') + '"'


def sqlite_ranked(
    terms: list[str], limit: int, filters: Filters, using: str
) -> list[tuple[int, float]]:
    """Coordination levels: every term first, then dropping the commonest term at a time.

    Terms are ordered rarest first by document frequency, so the words dropped are the ones
    that say least; if even the rarest word alone finds too few, any word will do. A level's
    hits rank below every hit of the stricter level before it. At most FTS5_LEVELS + 1
    queries run, and each ranks at most FTS5_CANDIDATES matches.
    """
    frequency = {term: _document_frequency(term, using) for term in terms}
    present = sorted((t for t in terms if frequency[t]), key=lambda t: (frequency[t], t))
    ranked: list[tuple[int, float]] = []
    expressions = [" AND ".join(map(_fts5_phrase, present[:n])) for n in _levels(len(present))]
    if len(present) > 1:
        expressions.append(" OR ".join(map(_fts5_phrase, present)))
    for expression in expressions:
        found = _fts5_query(expression, limit + len(ranked), filters, using)
        ranked = below(ranked, found)
        if len(ranked) >= limit:
            break
    return ranked[:limit]


FTS5_LEVELS = 4


def _levels(count: int) -> list[int]:
    """How many of the rarest terms each query requires: all, all but one, ..., then one."""
    sizes = list(range(count, 0, -1))
    return sizes if len(sizes) <= FTS5_LEVELS else [*sizes[: FTS5_LEVELS - 1], 1]


def _fts5_query(
    expression: str, limit: int, filters: Filters, using: str
) -> list[tuple[int, float]]:
    """bm25-ranked hits of one MATCH expression, over at most FTS5_CANDIDATES matches.

    bm25 costs microseconds per matching row, so when an expression matches more rows than
    that, only the newest FTS5_CANDIDATES of them (highest rowids) are ranked.
    """
    where, params = filters.sql()
    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rowid FROM askapp_chunk_fts WHERE askapp_chunk_fts MATCH %s "
            "ORDER BY rowid DESC LIMIT 1 OFFSET %s",
            [expression, FTS5_CANDIDATES - 1],
        )
        floor = cursor.fetchone()
        # CROSS JOIN keeps the FTS5 table as the outer loop whatever the planner guesses.
        cursor.execute(
            "SELECT askapp_chunk_fts.rowid, bm25(askapp_chunk_fts) AS rank FROM askapp_chunk_fts "
            "CROSS JOIN askapp_chunk AS c ON c.id = askapp_chunk_fts.rowid "
            "CROSS JOIN askapp_document AS d ON d.id = c.document_id "
            f"WHERE askapp_chunk_fts MATCH %s AND askapp_chunk_fts.rowid >= %s AND {where} "
            "ORDER BY rank, askapp_chunk_fts.rowid LIMIT %s",
            [expression, floor[0] if floor else 0, *params, limit],
        )
        # bm25() is lower-is-better; callers get higher-is-better.
        return [(pk, -rank) for pk, rank in cursor.fetchall()]


FTS5_CANDIDATES = 5_000
_FREQUENCY_CAP = 20_000


def _document_frequency(term: str, using: str) -> int:
    """How many chunks hold `term` as FTS5 tokenises it, counted up to _FREQUENCY_CAP.

    Only the order in which terms are dropped depends on it; counting is cheap next to bm25
    (a posting costs nanoseconds to count, a match microseconds to rank), and an uncached
    count can never hide a word that has just been added.
    """
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM (SELECT 1 FROM askapp_chunk_fts "
            "WHERE askapp_chunk_fts MATCH %s LIMIT %s)",
            [_fts5_phrase(term), _FREQUENCY_CAP],
        )
        return cursor.fetchone()[0]
