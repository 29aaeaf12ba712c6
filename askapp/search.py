"""Chunking documents into passages and searching them (full-text index per database)."""

from __future__ import annotations

import re

from askapp.models import Chunk, Document

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
CHUNK_WORDS = 120


def split_into_chunks(text: str, *, max_words: int = CHUNK_WORDS) -> list[str]:
    """Paragraphs, packed together up to about `max_words` words each."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for paragraph in (p.strip() for p in _PARAGRAPH_BREAK.split(text)):
        if not paragraph:
            continue
        words = len(paragraph.split())
        if current and size + words > max_words:
            chunks.append("\n\n".join(current))
            current, size = [], 0
        current.append(paragraph)
        size += words
    if current:
        chunks.append("\n\n".join(current))
    return chunks


def document_chunks_rebuild(*, document: Document) -> list[Chunk]:
    """Replace a document's chunks with fresh ones cut from its body."""
    document.chunks.all().delete()
    return Chunk.objects.bulk_create(
        Chunk(document=document, ordinal=i, text=text)
        for i, text in enumerate(split_into_chunks(document.body))
    )
