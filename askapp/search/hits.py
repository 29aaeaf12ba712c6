"""What a search may see (the classification allow-list, entity narrowing) and how ranked chunk
ids become hits: every backend ranks ids, and the hits are read, and filtered again, in SQL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connections

from askapp.models import Classification

KNOWN_CLASSIFICATIONS = frozenset(Classification.values)


@dataclass(frozen=True, slots=True)
class Filters:
    classifications: tuple[str, ...]
    entity_ids: tuple[int, ...] | None  # None: no narrowing

    def sql(self, document: str = "d") -> tuple[str, list[Any]]:
        """A WHERE fragment over the document table aliased `document`, and its parameters."""
        marks = ", ".join("%s" for _ in self.classifications)
        sql = f"{document}.classification IN ({marks})"
        params: list[Any] = list(self.classifications)
        if self.entity_ids is not None:
            ids = ", ".join("%s" for _ in self.entity_ids) or "NULL"
            sql += f" AND ({document}.entity_id IS NULL OR {document}.entity_id IN ({ids}))"
            params += self.entity_ids
        return sql, params


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One ranked chunk with what a citation needs from its document; higher score is better."""

    chunk_id: int
    document_id: int
    ordinal: int
    text: str
    title: str
    classification: str
    source: str
    entity: str | None
    period: str
    score: float


def fetch(
    ranked: list[tuple[int, float]], limit: int, filters: Filters, using: str
) -> list[SearchHit]:
    """The hits themselves, re-filtered in SQL: the allow-list holds whatever ranked them."""
    if not ranked:
        return []
    score_of = dict(ranked)
    where, params = filters.sql()
    marks = ", ".join("%s" for _ in score_of)
    connection = connections[using]
    # SQLite without statistics would start from the classification index and visit every
    # document; CROSS JOIN pins the join order so it starts from the few ids ranked.
    join = "CROSS JOIN" if connection.vendor == "sqlite" else "JOIN"
    sql = (
        "SELECT c.id, c.document_id, c.ordinal, c.text, d.title, d.classification, d.source, "
        f"e.name, d.period FROM askapp_chunk AS c {join} askapp_document AS d "
        "ON d.id = c.document_id LEFT JOIN askapp_entity AS e ON e.id = d.entity_id "
        f"WHERE c.id IN ({marks}) AND {where}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*score_of, *params])
        hits = [SearchHit(*row, score=score_of[row[0]]) for row in cursor.fetchall()]
    hits.sort(key=lambda hit: (-hit.score, hit.chunk_id))
    return hits[:limit]


def below(
    strict: list[tuple[int, float]], loose: list[tuple[int, float]]
) -> list[tuple[int, float]]:
    """Strict hits, then the loose ones not among them, shifted to score below every strict one."""
    seen = {pk for pk, _ in strict}
    rest = [(pk, score) for pk, score in loose if pk not in seen]
    if not strict or not rest:
        return strict + rest
    shift = min(0.0, min(s for _, s in strict) - max(s for _, s in rest) - 1e-6)
    return strict + [(pk, score + shift) for pk, score in rest]
