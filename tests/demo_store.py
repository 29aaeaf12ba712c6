"""The shipped demo knowledge base as an in-memory store, for engine tests (no database)."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from engine.store import InMemoryStore
from engine.types import Fact, Passage, Term

DEMO = Path(__file__).resolve().parent.parent / "data" / "demo"


def _terms(path: Path, key: str) -> list[Term]:
    with path.open(encoding="utf-8") as handle:
        return [
            Term(row[key], tuple(a for a in row["aliases"].split("|") if a))
            for row in csv.DictReader(handle)
        ]


def _facts() -> list[Fact]:
    with (DEMO / "facts.csv").open(encoding="utf-8") as handle:
        return [
            Fact(
                id=f"fact:{number}",
                entity=row["entity"],
                metric=row["metric"],
                period=row["period"],
                value=Decimal(row["value"]),
                unit=row["unit"],
                classification=row.get("classification") or "PUBLIC",
                source=row["source"],
            )
            for number, row in enumerate(csv.DictReader(handle), start=1)
        ]


def _markdown(path: Path) -> tuple[dict[str, str], str]:
    header, _, body = path.read_text(encoding="utf-8").partition("\n\n")
    fields = dict(line.split(":", 1) for line in header.splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in fields.items()}, body


def _passages() -> list[Passage]:
    passages: list[Passage] = []
    documents = []
    for line in (DEMO / "docs.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        documents.append((item, item["text"]))
    for path in sorted((DEMO / "documents").glob("*.md")):
        documents.append(_markdown(path))
    for number, (meta, body) in enumerate(documents, start=1):
        for index, paragraph in enumerate(p.strip() for p in body.split("\n\n")):
            if paragraph:
                passages.append(
                    Passage(
                        id=f"passage:{number}.{index}",
                        document_id=f"document:{number}",
                        title=meta["title"],
                        text=paragraph,
                        classification=meta.get("classification", "PUBLIC"),
                        source=meta.get("source", ""),
                        entity=meta.get("entity") or None,
                        period=meta.get("period") or None,
                    )
                )
    return passages


@lru_cache(maxsize=1)
def demo_store() -> InMemoryStore:
    return InMemoryStore(
        entities=_terms(DEMO / "entities.csv", "entity"),
        metrics=_terms(DEMO / "metrics.csv", "metric"),
        facts=_facts(),
        passages=_passages(),
    )
