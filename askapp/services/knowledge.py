"""Writes to the knowledge base. Importers, the admin and tests all come through here.

A document is saved with its chunks cut afresh from its body; the database's full-text index
(askapp/search) follows the chunks on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from django.db import transaction

from askapp.models import Chunk, Document, Entity, Fact, Metric
from engine import split_into_chunks

FACT_KEY = ("entity", "metric", "period")
# A re-import leaves `source_document` alone: the CSV formats cannot name one.
FACT_VALUES = ("value", "unit", "classification", "source", "updated")

Term = TypeVar("Term", Entity, Metric)


def entity_upsert(*, name: str, aliases: Sequence[str] | None = None) -> tuple[Entity, bool]:
    """The entity called `name`, created if missing; `aliases`, when given, replace its own."""
    return _term_upsert(Entity, name=name, aliases=aliases)


def metric_upsert(*, name: str, aliases: Sequence[str] | None = None) -> tuple[Metric, bool]:
    """The metric called `name`, created if missing; `aliases`, when given, replace its own."""
    return _term_upsert(Metric, name=name, aliases=aliases)


def _term_upsert(
    model: type[Term], *, name: str, aliases: Sequence[str] | None
) -> tuple[Term, bool]:
    term, created = model.objects.get_or_create(
        name=name, defaults={"aliases": list(aliases or [])}
    )
    if not created and aliases is not None and term.aliases != list(aliases):
        term.aliases = list(aliases)
        term.save(update_fields=["aliases", "updated"])
    return term, created


def facts_upsert(*, facts: Sequence[Fact]) -> None:
    """Insert unsaved facts; a fact whose entity, metric and period exist replaces that row.

    One statement per call, so importers hand over batches. `facts` must not repeat a key.
    """
    Fact.objects.bulk_create(
        facts, update_conflicts=True, unique_fields=FACT_KEY, update_fields=FACT_VALUES
    )


def document_upsert(
    *,
    key: str,
    title: str,
    body: str,
    classification: str,
    entity: Entity | None = None,
    period: str = "",
    source: str = "",
) -> tuple[Document, bool]:
    """Create or update the document with this import `key`, and rebuild its chunks."""
    document = Document.objects.filter(key=key).first()
    created = document is None
    if document is None:
        document = Document(key=key)
    document.title = title
    document.body = body
    document.classification = classification
    document.entity = entity
    document.period = period
    document.source = source
    return document_save(document=document), created


@transaction.atomic
def document_save(*, document: Document) -> Document:
    """Save a document and cut its chunks afresh, so search always reads the current text."""
    document.save()
    document_chunks_rebuild(document=document)
    return document


# --- chunks ---------------------------------------------------------------------------------
# Cut by the engine's chunker (engine/chunks.py), which the evaluation's demo store uses too.


def document_chunks_rebuild(*, document: Document) -> list[Chunk]:
    """Replace a document's chunks with fresh ones cut from its body.

    Classification, entity and period stay on the Document only; search joins them at query
    time, so an edit of any of them (admin, service or raw ORM) is seen by the next search.
    """
    document.chunks.all().delete()
    return Chunk.objects.bulk_create(
        Chunk(document=document, ordinal=i, text=text)
        for i, text in enumerate(split_into_chunks(document.body))
    )
