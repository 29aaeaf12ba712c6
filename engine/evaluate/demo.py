"""The shipped demo knowledge base (data/demo/) as an in-memory store, without a database.

Documents are cut into passages by the same chunker askapp uses when it saves a document
(engine/chunks.py), so an evaluation quotes the passages the running demo would quote.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from engine.chunks import split_into_chunks
from engine.store import InMemoryStore
from engine.types import PUBLIC, Fact, Passage, Term

DEMO = Path(__file__).resolve().parent.parent.parent / "data" / "demo"


@lru_cache(maxsize=4)
def demo_store(folder: Path = DEMO) -> InMemoryStore:
    return InMemoryStore(
        entities=_terms(folder / "entities.csv", "entity"),
        metrics=_terms(folder / "metrics.csv", "metric"),
        facts=_facts(folder / "facts.csv"),
        passages=_passages(folder),
    )


def _terms(path: Path, key: str) -> list[Term]:
    with path.open(encoding="utf-8") as handle:
        return [
            Term(row[key], tuple(a for a in row["aliases"].split("|") if a))
            for row in csv.DictReader(handle)
        ]


def _facts(path: Path) -> list[Fact]:
    with path.open(encoding="utf-8") as handle:
        return [
            Fact(
                id=f"fact:{number}",
                entity=row["entity"],
                metric=row["metric"],
                period=row["period"],
                value=Decimal(row["value"]),
                unit=row["unit"],
                classification=row.get("classification") or PUBLIC,
                source=row["source"],
            )
            for number, row in enumerate(csv.DictReader(handle), start=1)
        ]


def _documents(folder: Path) -> Iterator[tuple[dict[str, str], str]]:
    for line in (folder / "docs.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            yield item, item["text"]
    for path in sorted((folder / "documents").glob("*.md")):
        header, _, body = path.read_text(encoding="utf-8").partition("\n\n")
        fields = dict(line.split(":", 1) for line in header.splitlines() if ":" in line)
        yield {k.strip(): v.strip() for k, v in fields.items()}, body


def _passages(folder: Path) -> list[Passage]:
    passages = []
    for number, (meta, body) in enumerate(_documents(folder), start=1):
        for index, text in enumerate(split_into_chunks(body)):
            passages.append(
                Passage(
                    id=f"passage:{number}.{index}",
                    document_id=f"document:{number}",
                    title=meta["title"],
                    text=text,
                    classification=meta.get("classification", PUBLIC),
                    source=meta.get("source", ""),
                    entity=meta.get("entity") or None,
                    period=meta.get("period") or None,
                )
            )
    return passages
