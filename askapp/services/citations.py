"""The citation index: one Citation row per source of an answer turn.

The ask flow calls `turn_citations_record(turn=answer)` in the transaction that stores the
answer, so "which answers cite this fact or document" is a join in the admin, however many
answers there are. Recording again replaces the turn's rows, so it is safe to repeat.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction

from askapp.models import Citation, Document, Fact, Turn
from engine import Source


@dataclass(frozen=True, slots=True)
class Pointer:
    """Where a frozen source points: a fact's pk, or for a passage its document's pk."""

    source_id: str
    kind: str
    fact_id: int | None = None
    document_id: int | None = None
    classification: str = ""  # the source's, when it was cited


def source_pointer(source: Source | Mapping[str, Any]) -> Pointer | None:
    """Where a frozen source points (a fact "fact:12", or a passage "chunk:34" of document 7),
    read from the Source or from its stored form ({"id": "chunk:34", "document_id": "7"}).

    None for a source without an id. A document id is the pk as text; "document:7" (the
    in-memory store's form) is read too.
    """
    if not isinstance(source, Source):
        source = Source.from_dict(source)
    if not source.id:
        return None
    prefix, _, rest = source.id.partition(":")
    level = source.classification
    if source.kind == "fact" or prefix == "fact":
        return Pointer(source.id, Citation.Kind.FACT, fact_id=_pk(rest), classification=level)
    document = _pk(source.document_id or "")
    return Pointer(source.id, Citation.Kind.PASSAGE, document_id=document, classification=level)


def turn_citations_record(*, turn: Turn) -> list[Citation]:
    """Index the sources of one answer turn (replacing what was indexed for it before)."""
    return turns_citations_record(turns=[turn])


@transaction.atomic
def turns_citations_record(*, turns: Iterable[Turn]) -> list[Citation]:
    """Index the sources of many answer turns in a bounded number of queries."""
    turns = list(turns)
    Citation.objects.filter(turn__in=[turn.pk for turn in turns]).delete()
    return Citation.objects.bulk_create(_citations(turns))


def new_answer_citations_record(
    *, turn: Turn, sources: Iterable[Source | Mapping[str, Any]] | None = None
) -> None:
    """Index the sources of an answer just stored, inside the ask's own transaction, in one
    statement: it has no earlier index to replace (no savepoint, no delete), and the database
    itself drops a pointer to a fact or document deleted since the engine read it (a LEFT
    JOIN), instead of a query to look for them first and a read-back of the new ids.
    `sources`: the engine's own Sources the turn froze, when the caller has them (read as
    they are, not from their frozen form again); the turn's frozen sources otherwise."""
    frozen = (turn.sources or []) if sources is None else sources
    pointers = {p.source_id: p for p in map(source_pointer, frozen) if p}
    if not pointers:
        return
    turn_id = Turn._meta.pk.get_db_prep_value(turn.pk, connection)
    rows = ", ".join(["(%s, %s, %s, CAST(%s AS bigint), CAST(%s AS bigint), %s)"] * len(pointers))
    params: list[Any] = []
    for pointer in pointers.values():
        params += [turn_id, pointer.source_id[:100], pointer.kind]
        params += [pointer.fact_id, pointer.document_id, pointer.classification[:12]]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql().format(rows=rows), params)


@functools.cache
def _insert_sql() -> str:
    table = {model: model._meta.db_table for model in (Citation, Fact, Document)}
    return (
        f"INSERT INTO {table[Citation]} "
        "(turn_id, source_id, kind, fact_id, document_id, classification) "
        "SELECT v.column1, v.column2, v.column3, f.id, d.id, v.column6 FROM (VALUES {rows}) AS v "
        f"LEFT JOIN {table[Fact]} f ON f.id = v.column4 "
        f"LEFT JOIN {table[Document]} d ON d.id = v.column5"
    )


def _citations(turns: list[Turn]) -> list[Citation]:
    pointers = {
        turn.pk: [p for p in map(source_pointer, turn.sources or []) if p is not None]
        for turn in turns
    }
    every = [p for found in pointers.values() for p in found]
    facts = _existing(Fact, {p.fact_id for p in every if p.fact_id is not None})
    documents = _existing(Document, {p.document_id for p in every if p.document_id is not None})
    return [
        Citation(
            turn_id=turn_id,
            source_id=pointer.source_id[:100],
            kind=pointer.kind,
            fact_id=pointer.fact_id if pointer.fact_id in facts else None,
            document_id=pointer.document_id if pointer.document_id in documents else None,
            classification=pointer.classification[:12],
        )
        for turn_id, found in pointers.items()
        for pointer in {p.source_id: p for p in found}.values()
    ]


def _existing(model: type[Fact] | type[Document], pks: set[int]) -> set[int]:
    """The pks still in the table: a source may outlive its row (a deleted fact)."""
    if not pks:
        return set()
    return set(model.objects.filter(pk__in=pks).values_list("pk", flat=True))


def _pk(text: str) -> int | None:
    digits = text.rpartition(":")[2]
    return int(digits) if digits.isdigit() else None
