"""A report page's table as a one-company knowledge base, for engine tests that ask about it:
the table read into facts as the evaluation reads its pages (engine/tables.py), each line
named by its label and the aliases the reader gave it."""

from __future__ import annotations

from engine.store import InMemoryStore
from engine.tables import read_table, table_scale
from engine.types import Fact, Term


def table_page(owner: str, rows: list[list[str]], *, scaled: bool = True) -> InMemoryStore:
    """`scaled`: the scale the table's headings state ("in $000s") applies to its figures."""
    facts = read_table(rows, scale=table_scale(rows)) if scaled else read_table(rows)
    aliases: dict[str, set[str]] = {}
    for fact in facts:
        aliases.setdefault(fact.metric, set()).update(fact.aliases)
    return InMemoryStore(
        entities=[Term(owner)],
        metrics=[Term(name, tuple(sorted(names))) for name, names in aliases.items()],
        facts=[
            Fact(f"fact:{i}", owner, f.metric, f.period, f.value, f.unit)
            for i, f in enumerate(facts)
        ],
    )
