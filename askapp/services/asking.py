"""The ask flow: rebuild the conversation's session, run the engine, store what it answered.

    prepared = ask_prepare(owner=..., question=..., conversation_id=..., history=...)
    for event in ask_events(prepared=prepared):   # meta, delta..., sources, then done
        ...
    stored = ask(prepared=prepared)               # the same, without the events

`ask_prepare` reads (the conversation and its last N turns, one query each) and builds a
ConversationSession from the stored turns, the way the engine's own session would have
remembered them. `ask_events` runs the engine with `history=session.history()` and
`session=session`, then writes the question and answer turns (and any client history) in one
transaction; a new conversation and its question are stored first, in a transaction of their
own, when the meta event will name the conversation or a remote model will hold the answer
(docs/adr/0044). When the engine fails, the question alone is stored with status error and
AskFailed is raised: no half-written answer is ever stored. See docs/adr/0020.
"""

from __future__ import annotations

import functools
import logging
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from askapp.engine_setup import the_engine, waits_on_a_model
from askapp.errors import AskFailed, NotFound
from askapp.models import Conversation, SessionTurn, Turn, session_from_turns
from askapp.owners import Owner
from askapp.selectors.conversations import conversation_with_recent_turns
from askapp.services.citations import new_answer_citations_record
from askapp.services.inserts import insert_new, update_columns
from askapp.store import DatabaseStore, probed
from askapp.writer import one_writer
from engine import (
    Answer,
    ConversationSession,
    Engine,
    EngineError,
    Event,
    Source,
    StoreError,
)

logger = logging.getLogger(__name__)

TITLE_LENGTH = 80
ROLES = (Turn.Role.USER, Turn.Role.ASSISTANT)


@dataclass(frozen=True, slots=True)
class Stored:
    """What an ask left in the database: the conversation and the answer turn."""

    conversation: Conversation
    question: Turn
    answer: Turn


@dataclass
class PreparedAsk:
    """Everything the engine call needs, read before it starts (no database during it)."""

    owner: Owner
    question: str
    conversation: Conversation  # unsaved when the ask starts a conversation
    is_new: bool
    client_history: list[Turn]  # unsaved client-supplied turns, stored before the question
    session: ConversationSession
    clearance: frozenset[str]
    engine: Engine = field(repr=False)
    # A new conversation's question, stored before the engine runs (status error, reason
    # INTERRUPTED) and settled when the answer or the failure is stored.
    pending: Turn | None = None
    # The knowledge base's version, when the request's first statement read it with the
    # user (askapp/auth.py): a non-streamed ask's question takes it as its probe.
    knowledge_version: object = None

    @property
    def history(self) -> list[tuple[str, str]]:
        return self.session.history()


def ask_prepare(
    *,
    owner: Owner,
    question: str,
    clearance: frozenset[str],
    conversation_id: uuid.UUID | None = None,
    history: Sequence[tuple[str, str]] | None = None,
    knowledge_version: object = None,
) -> PreparedAsk:
    """Read what the ask needs: the conversation (or a new one) and its recent turns."""
    window = settings.ASKAPP_HISTORY_TURNS
    client_history = [
        Turn(
            role=role if role in ROLES else Turn.Role.USER,
            text=text,
            origin=Turn.Origin.CLIENT_HISTORY,
        )
        for role, text in history or ()
    ]
    recent: Sequence[SessionTurn]
    if conversation_id is not None:
        stored = conversation_with_recent_turns(
            owner=owner, conversation_id=conversation_id, limit=window, clearance=clearance
        )
        conversation, scope, recent = stored.conversation, stored.scope, stored.turns
    else:
        conversation = Conversation(
            owner_id=owner.user_id, visitor="" if owner.user_id else owner.visitor
        )
        scope, recent = None, client_history[-window:] if window else []
    return PreparedAsk(
        owner=owner,
        question=question,
        conversation=conversation,
        is_new=conversation_id is None,
        client_history=client_history,
        # An exchange citing what the asker may no longer see is no history for the model.
        session=session_from_turns(
            recent, scope=scope, withheld={t.pk for t in recent if getattr(t, "withheld", False)}
        ),
        clearance=clearance,
        engine=the_engine(),
        knowledge_version=knowledge_version,
    )


def ask_events(
    *,
    prepared: PreparedAsk,
    clock: Callable[[], float] = time.monotonic,
    store_first: bool = True,
    probe: object = None,
) -> Iterator[Event]:
    """The engine's meta, delta and sources events as they come, then `done` with Stored.

    A new conversation and its question are stored before the engine runs (`store_first`):
    the meta event names the conversation. `probe`: the knowledge base's version this
    request already read, which the question then does not read again. Raises AskFailed
    (after storing the question with status error) when the engine fails; the events already
    yielded then belong to an answer that was never stored.
    """
    started = clock()
    answer: Answer | None = None
    failed = False
    if prepared.is_new and store_first:
        _store_question_first(prepared)
    try:
        for event in _probed(
            prepared.engine,
            probe,
            prepared.question,
            history=prepared.history,
            session=prepared.session,
            clearance=prepared.clearance,
        ):
            if event.kind == "error":
                failed = True  # what follows (sources, done) belongs to no answer
            elif event.kind == "done":
                answer = event.data
            elif not failed:
                yield event
    except Exception as exc:
        logger.exception("the engine failed on a question")
        failure = StoreError if isinstance(exc, DatabaseError) else type(exc)
        _fail(prepared, None, failure=failure, message=None, latency_ms=_ms(clock() - started))
    latency_ms = _ms(clock() - started)
    if answer is None or failed or answer.status == "error":
        failure = (answer.failure if answer else None) or EngineError
        message = answer.text if answer else None
        _fail(prepared, answer, failure=failure, message=message, latency_ms=latency_ms)
    assert answer is not None
    yield Event("done", _store_answer(prepared, answer, latency_ms=latency_ms))


def ask(*, prepared: PreparedAsk) -> Stored:
    """Ask and store, without the events. No event names a new conversation before its
    answer here, so its question is stored first only when the engine waits on a remote
    model, seconds in which the process may die; an in-process provider answers within the
    request's own milliseconds, and the conversation, the question and the answer are then
    written in one transaction (docs/adr/0044)."""
    store_first = waits_on_a_model(prepared.engine)
    # The question runs at once, in this request's thread: the version the request's first
    # statement read is as fresh as a probe of its own (a stream may wait for its turn).
    events = ask_events(prepared=prepared, store_first=store_first,
                        probe=prepared.knowledge_version)  # fmt: skip
    for event in events:
        if event.kind == "done":
            stored: Stored = event.data
            return stored
    raise AssertionError("ask_events ends with done or raises")


def _probed(engine: Engine, probe: object, question: str, **asked: Any) -> Iterator[Event]:
    """The engine's events, its store's first probe taking `probe` (askapp/store.py)."""
    store = engine.store
    if probe is None or not isinstance(store, DatabaseStore):
        yield from engine.stream(question, **asked)
        return
    events = engine.stream(question, **asked)
    with probed(probe, using=store.using):
        first = next(events, None)  # the question's probe is read before its first event
    if first is None:
        return
    yield first
    yield from events


# --- writing --------------------------------------------------------------------------------


def _store_answer(prepared: PreparedAsk, answer: Answer, *, latency_ms: int) -> Stored:
    frozen = {
        "status": answer.status,
        "refused": answer.refused,
        "intent": dict(answer.intent),
        "carried": [c.to_dict() for c in answer.carried],
        "reason": answer.reason or "",
        "provider": answer.provider,
        "model": answer.model,
        "latency_ms": latency_ms,
    }
    question = _question(prepared, frozen)
    reply = Turn(
        role=Turn.Role.ASSISTANT,
        text=answer.text,
        figures=[f.to_dict() for f in answer.figures],
        sources=[s.to_dict() for s in answer.sources],
        choices=[choice.to_dict() for choice in answer.choices],
        answers=question,
        **frozen,
    )
    turns = [reply] if prepared.pending else [question, reply]
    conversation = _write(prepared, turns, cited_by=reply, cited=answer.sources, settle=frozen)
    return Stored(conversation=conversation, question=question, answer=reply)


INTERRUPTED = "Interrupted"


def _question(prepared: PreparedAsk, fields: dict[str, Any]) -> Turn:
    """The question turn with these fields: the one stored first, or a new one."""
    question = prepared.pending or Turn(role=Turn.Role.USER, text=prepared.question)
    for name, value in fields.items():
        setattr(question, name, value)
    return question


def _store_question_first(prepared: PreparedAsk) -> None:
    """A new conversation exists, with its question, before the engine runs: the stream's
    meta event names it, and if the process dies mid-answer the conversation stays readable
    with the question marked failed (status error, reason Interrupted) rather than lost."""
    question = _interrupted_question(prepared)
    _write(prepared, [question])
    prepared.pending = question


def _interrupted_question(prepared: PreparedAsk) -> Turn:
    provider = prepared.engine.provider
    return Turn(
        role=Turn.Role.USER,
        text=prepared.question,
        status=Turn.Status.ERROR,
        reason=INTERRUPTED,
        provider=provider.name,
        model=provider.model,
    )


ROWS_A_STATEMENT = 100  # well under SQLite's limit on a statement's parameters


def store_questions_first(batch: Sequence[PreparedAsk]) -> None:
    """What `ask_events` does first for a new conversation, for many asks in one transaction
    (the answer streams' group commit, askapp/services/writeahead.py): each new conversation
    with its client history and its question (status error, reason Interrupted), at the
    positions `_write` would give them. Asks that continue a conversation are left alone;
    afterwards each new one is as `_store_question_first` leaves it."""
    new = [prepared for prepared in batch if prepared.is_new and prepared.pending is None]
    conversations: list[Conversation] = []
    turns: list[Turn] = []
    questions: list[Turn] = []
    for prepared in new:
        question = _interrupted_question(prepared)
        rows = [*prepared.client_history, question]
        conversation = prepared.conversation
        conversation.title = _title(prepared.question)
        conversation.last_position = len(rows)
        for position, turn in enumerate(rows, start=1):
            turn.conversation = conversation
            turn.position = position
        conversations.append(conversation)
        turns += rows
        questions.append(question)
    if not new:
        return
    with one_writer(), transaction.atomic(savepoint=False):
        for start in range(0, len(conversations), ROWS_A_STATEMENT):
            insert_new(conversations[start : start + ROWS_A_STATEMENT])
        for start in range(0, len(turns), ROWS_A_STATEMENT):
            insert_new(turns[start : start + ROWS_A_STATEMENT])
    for prepared, question in zip(new, questions, strict=True):
        prepared.is_new = False
        prepared.client_history = []
        prepared.pending = question


def _fail(
    prepared: PreparedAsk,
    answer: Answer | None,
    *,
    failure: type[Exception],
    message: str | None,
    latency_ms: int,
) -> NoReturn:
    """Store the question alone, with status error, and raise AskFailed."""
    provider = prepared.engine.provider
    failed = {
        "status": Turn.Status.ERROR,
        "intent": dict(answer.intent) if answer else {},
        "carried": [c.to_dict() for c in answer.carried] if answer else [],
        "reason": failure.__name__[:200],
        "provider": provider.name,
        "model": provider.model,
        "latency_ms": latency_ms,
    }
    question = _question(prepared, failed)
    turns = [] if prepared.pending else [question]
    conversation = _write(prepared, turns, settle=failed)
    raise AskFailed(
        message or "The answer could not be completed.",
        failure=failure,
        conversation=conversation,
        turn=question,
    )


def _write(
    prepared: PreparedAsk,
    turns: list[Turn],
    *,
    cited_by: Turn | None = None,
    cited: Sequence[Source] = (),
    settle: dict[str, Any] | None = None,
) -> Conversation:
    """One transaction: the conversation (new, or its positions taken under its row lock),
    any client history, then `turns`, at consecutive positions, and the citation index of
    the answer `cited_by` (its sources `cited`, as the engine gave them); with `settle`, the
    question stored first takes those fields."""
    conversation = prepared.conversation
    turns = [*prepared.client_history, *turns]
    title = _title(prepared.question)
    # No savepoint: nothing inside is rolled back on its own, and an ask is never nested in
    # another transaction that would need one.
    with one_writer(), transaction.atomic(savepoint=False):
        if settle is not None and prepared.pending is not None:
            update_columns(prepared.pending, settle)  # _question set them on it
        if not turns:
            return conversation
        if prepared.is_new:
            conversation.title = title
            conversation.last_position = len(turns)
            insert_new([conversation])
            first = 1
        else:
            last = _take_positions(conversation.pk, count=len(turns), title=title)
            first = last - len(turns) + 1
        for offset, turn in enumerate(turns):
            turn.conversation = conversation
            turn.position = first + offset
        insert_new(turns)
        if cited_by is not None and cited_by.sources:
            new_answer_citations_record(turn=cited_by, sources=cited or None)
    prepared.is_new = False
    prepared.client_history = []
    return conversation


def _take_positions(conversation_id: uuid.UUID, *, count: int, title: str) -> int:
    """Reserve `count` positions after the conversation's last one; return the new last.

    One UPDATE ... RETURNING: on PostgreSQL it takes the conversation's row lock (as
    SELECT ... FOR UPDATE would) until the transaction commits, so a concurrent ask waits
    and then reads the bumped counter; on SQLite the IMMEDIATE transaction already holds the
    database's write lock. It also marks the conversation active and titles an untitled one.
    """
    meta = Conversation._meta
    params = [
        count,
        meta.get_field("updated").get_db_prep_value(timezone.now(), connection),
        title,
        meta.pk.get_db_prep_value(conversation_id, connection),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_take_positions_sql(connection.vendor), params)
        row = cursor.fetchone()
    if row is None:
        raise NotFound(
            "The conversation was deleted while the question was being answered.",
            code="conversation_not_found",
            field="conversation",
        )
    return int(row[0])


@functools.cache
def _take_positions_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"UPDATE {quote(Conversation._meta.db_table)} SET {quote('last_position')} = "
        f"{quote('last_position')} + %s, {quote('updated')} = %s, {quote('title')} = "
        f"CASE WHEN {quote('title')} = '' THEN %s ELSE {quote('title')} END "
        f"WHERE {quote('id')} = %s RETURNING {quote('last_position')}"
    )


def _title(question: str) -> str:
    """The first words of the first question, cut at a word boundary."""
    text = " ".join(question.split())
    if len(text) <= TITLE_LENGTH:
        return text
    cut = text[: TITLE_LENGTH - 1].rsplit(" ", 1)[0]
    return f"{cut}…"


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
