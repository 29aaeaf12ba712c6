"""A report page's table as a one-company knowledge base, for engine tests that ask about it:
the table read into facts as the evaluation reads its pages (engine/tables.py), each line
named by its label and the aliases the reader gave it, and questions asked in order through
one conversation scoped to that company."""

from __future__ import annotations

from engine.answer import answer_question
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.tables import read_table, table_scale
from engine.types import Answer, Fact, Term


def table_page(owner: str, rows: list[list[str]], *, scale: str | None = None) -> InMemoryStore:
    """`scale`: the scale word the figures are written in; by default the one the table's
    headings state ("in $000s"), "" for none."""
    facts = read_table(rows, scale=table_scale(rows) if scale is None else scale)
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


def ask_on_page(store: InMemoryStore, owner: str, *questions: str) -> list[Answer]:
    """Each question in turn, in one conversation scoped to `owner`, with its own history."""
    session = ConversationSession(scope=owner)
    return [
        answer_question(q, store, MockProvider(), session=session, history=session.history())
        for q in questions
    ]
