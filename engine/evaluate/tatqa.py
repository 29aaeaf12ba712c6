"""TAT-QA and PACIFIC: report pages with one table and a few paragraphs.

Each context is one knowledge base: one entity ("Company"), its table read into facts by
engine/tables.py, its paragraphs as passages. TAT-QA asks each question on its own; PACIFIC
asks a dialogue's turns in order through one ConversationSession scoped to the entity, with
`history=session.history()`, as the chat page would.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from engine.answer import Engine
from engine.evaluate.scoring import Scored, score, scored
from engine.evaluate.split import part_of
from engine.names import opening_company_names
from engine.providers.mock import MockProvider
from engine.session import ConversationSession
from engine.store import InMemoryStore
from engine.tables import read_table, table_caption, table_date, table_scale, table_subject
from engine.text import words
from engine.types import PUBLIC, Fact, Passage, Term

ENTITY = "Company"


def context_store(context: Mapping[str, Any]) -> InMemoryStore:
    """One TAT-QA context as a knowledge store: one entity, the table as facts."""
    rows = context["table"]["table"]
    text = " ".join(p["text"] for p in context["paragraphs"])
    uid = context["table"]["uid"]
    passages = [
        Passage(
            id=f"passage:{p['uid']}",
            document_id=uid,
            title="Annual report excerpt",
            text=p["text"],
            classification=PUBLIC,
            entity=ENTITY,
        )
        for p in context["paragraphs"]
    ]
    return page_store(uid, rows, text, passages)


def page_store(
    page: str,
    rows: list[list[str]],
    text: str,
    passages: Iterable[Passage],
    *,
    before: str = "",
) -> InMemoryStore:
    """A report page as a knowledge store of one entity: its table's facts and its passages.
    `before` is the text printed just before the table, whose last sentence may name it."""
    caption = table_caption(before)
    subject = table_subject(before)
    facts = read_table(
        rows, scale=table_scale(rows, text), caption=caption, dated=table_date(before)
    )
    aliases: dict[str, set[str]] = defaultdict(set)
    for fact in facts:
        aliases[fact.metric].update(fact.aliases)
    label_words = frozenset(w for metric in aliases for w in words(metric))
    return InMemoryStore(
        entities=[Term(ENTITY, opening_company_names(text, label_words))],
        metrics=[Term(m, tuple(sorted(a)), subject=subject) for m, a in aliases.items()],
        facts=[
            Fact(f"fact:{page}:{i}", ENTITY, f.metric, f.period, f.value, f.unit, source=page)
            for i, f in enumerate(facts)
        ],
        passages=passages,
    )


def run_tatqa(contexts: Iterable[Mapping[str, Any]], *, limit: int | None = None) -> list[Scored]:
    provider = MockProvider()
    results: list[Scored] = []
    for context in contexts:
        engine = Engine(context_store(context), provider)
        part = part_of(context["table"]["uid"])
        for item in context["questions"]:
            answer = engine.answer(item["question"])
            kind = f"{item['answer_type']}/{item['answer_from']}"
            outcome = score(answer, item["answer"], item["answer_type"], scale=item["scale"])
            results.append(
                scored(kind, item["question"], outcome, item["answer"], answer, part=part)
            )
            if limit and len(results) >= limit:
                return results
    return results


def run_pacific(
    dialogues: Iterable[Mapping[str, Any]], *, limit: int | None = None
) -> list[Scored]:
    provider = MockProvider()
    results: list[Scored] = []
    for dialogue in dialogues:
        engine = Engine(context_store(dialogue), provider)
        part = part_of(dialogue["table"]["uid"])
        session = ConversationSession(scope=ENTITY)
        for turn in dialogue["questions"]:
            answer = engine.answer(turn["question"], session=session, history=session.history())
            clarify = turn["answer_type"] == "question"
            kind = (
                "clarify"
                if clarify
                else f"{turn['answer_type']}/" + ("follow-up" if turn.get("follow_up") else "first")
            )
            outcome = score(answer, turn["answer"], turn["answer_type"], scale=turn["scale"],
                            wants_clarify=clarify)  # fmt: skip
            results.append(
                scored(kind, turn["question"], outcome, turn["answer"], answer, part=part)
            )
            if limit and len(results) >= limit:
                return results
    return results
