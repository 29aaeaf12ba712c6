"""Ranking on PostgreSQL: the chunk's generated tsvector (GIN index), ranked by ts_rank."""

from __future__ import annotations

from django.db import connections

from askapp.search.hits import Filters, below


def postgres_ranked(
    terms: list[str], limit: int, filters: Filters, using: str
) -> list[tuple[int, float]]:
    """All terms first (plainto_tsquery ANDs them), then any term, ranked by ts_rank."""
    every = "plainto_tsquery('english', %s)"
    ranked = _postgres_query(every, [" ".join(terms)], limit, filters, using)
    if len(ranked) < limit and len(terms) > 1:
        any_of = " || ".join("plainto_tsquery('english', %s)" for _ in terms)
        loose = _postgres_query(f"({any_of})", list(terms), limit, filters, using)
        ranked = below(ranked, loose)
    return ranked[:limit]


def _postgres_query(
    tsquery: str, query_params: list[str], limit: int, filters: Filters, using: str
) -> list[tuple[int, float]]:
    where, params = filters.sql()
    sql = (
        "SELECT c.id, ts_rank(c.search_vector, t.query) AS rank FROM askapp_chunk AS c "
        f"JOIN askapp_document AS d ON d.id = c.document_id, (SELECT {tsquery} AS query) AS t "
        f"WHERE c.search_vector @@ t.query AND {where} ORDER BY rank DESC, c.id LIMIT %s"
    )
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [*query_params, *params, limit])
        return [(pk, float(rank)) for pk, rank in cursor.fetchall()]
