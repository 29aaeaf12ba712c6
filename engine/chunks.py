"""Cutting a document's text into the passages full-text search ranks and answers quote.

One function, used by askapp when it saves a document and by the evaluation when it builds
the demo knowledge base in memory, so both quote the same passages.
"""

from __future__ import annotations

import re

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
