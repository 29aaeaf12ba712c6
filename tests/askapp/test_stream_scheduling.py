"""How answer streams share a server process (docs/adr/0045): the questions of streams that
start together are stored first in one transaction, exactly as one stream alone stores its
own; and stream threads run a few at a time, first events first, never holding their turn
while a model thinks."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from typing import Any

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from askapp import lanes as lanes_module
from askapp.database import ConnectionReleasingProvider
from askapp.lanes import Lanes
from askapp.models import Conversation, Turn
from askapp.owners import Owner
from askapp.permissions import PUBLIC_ONLY
from askapp.services import asking
from askapp.services.asking import PreparedAsk, ask, ask_prepare
from askapp.services.writeahead import GroupWriter
from project.handler import _ending_at_first

QUESTIONS = (
    "How did the company's margins move last year?",
    "What did the filing say about supply constraints?",
    "Which segment grew fastest in the most recent year?",
)


def _prepared(question: str, history: Sequence[tuple[str, str]] = ()) -> PreparedAsk:
    return ask_prepare(
        owner=Owner(visitor="a-visitor"),
        question=question,
        clearance=PUBLIC_ONLY,
        history=list(history) or None,
    )


def _stored(conversation: Conversation) -> tuple[Any, ...]:
    stored = Conversation.objects.get(pk=conversation.pk)
    turns = Turn.objects.filter(conversation=stored).order_by("position")
    fields = ("role", "text", "position", "status", "reason", "origin", "provider", "model")
    return (
        stored.title,
        stored.last_position,
        stored.visitor,
        [tuple(getattr(turn, name) for name in fields) for turn in turns],
    )


def _group(*prepared: PreparedAsk) -> list[Future[None]]:
    group = [(one, Future[None]()) for one in prepared]
    GroupWriter._write(group)
    return [done for _, done in group]


@pytest.mark.django_db
def test_questions_stored_first_together_are_stored_as_one_stream_stores_its_own() -> None:
    history = [("user", "An earlier question, from the client."), ("assistant", "Its answer.")]
    together = [_prepared(QUESTIONS[0], history), _prepared(QUESTIONS[1])]
    alone = [_prepared(QUESTIONS[0], history), _prepared(QUESTIONS[1])]

    for done in _group(*together):
        assert done.result() is None
    for prepared in alone:
        asking._store_question_first(prepared)

    for grouped, single in zip(together, alone, strict=True):
        assert _stored(grouped.conversation) == _stored(single.conversation)
        assert grouped.pending is not None and not grouped.is_new
    title, last, _, turns = _stored(together[0].conversation)
    assert (title, last) == (QUESTIONS[0], 3)
    assert [turn[:3] for turn in turns] == [
        ("user", history[0][1], 1),
        ("assistant", history[1][1], 2),
        ("user", QUESTIONS[0], 3),
    ]
    assert turns[-1][3:5] == (Turn.Status.ERROR, asking.INTERRUPTED)


@pytest.mark.django_db
def test_an_answer_after_a_group_write_settles_its_question_and_follows_it() -> None:
    prepared = _prepared(QUESTIONS[2])
    _group(prepared)[0].result()

    stored = ask(prepared=prepared)

    turns = list(Turn.objects.filter(conversation=stored.conversation).order_by("position"))
    assert [(turn.role, turn.position) for turn in turns] == [("user", 1), ("assistant", 2)]
    assert turns[0].pk == stored.question.pk
    assert turns[0].status != Turn.Status.ERROR and turns[0].reason != asking.INTERRUPTED
    assert Conversation.objects.get(pk=stored.conversation.pk).last_position == 2


@pytest.mark.django_db
def test_a_group_of_questions_is_two_inserts() -> None:
    group = [_prepared(question) for question in QUESTIONS]
    with CaptureQueriesContext(connection) as queries:
        _group(*group)
    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) == 2  # the conversations, then their questions


@pytest.mark.django_db(transaction=True)
def test_an_ask_whose_write_fails_fails_alone_in_its_group() -> None:
    taken = _prepared("A conversation that already exists.")
    asking._store_question_first(taken)
    clash = _prepared(QUESTIONS[1])
    clash.conversation.pk = taken.conversation.pk  # its INSERT breaks the primary key
    first, second = _prepared(QUESTIONS[0]), _prepared(QUESTIONS[2])

    results = _group(first, clash, second)

    assert results[0].result() is None and results[2].result() is None
    with pytest.raises(IntegrityError):
        results[1].result()
    assert _stored(first.conversation)[3][0][1] == QUESTIONS[0]
    assert _stored(second.conversation)[3][0][1] == QUESTIONS[2]


# --- lanes ------------------------------------------------------------------------------------


def _waiting(lanes: Lanes, count: int) -> None:
    deadline = time.monotonic() + 5
    while len(lanes._first) + len(lanes._resumed) + len(lanes._later) < count:
        assert time.monotonic() < deadline, "the threads never queued"
        time.sleep(0.001)


def test_a_stream_working_towards_its_first_event_goes_before_later_work() -> None:
    lanes = Lanes(1)
    lanes.enter()
    order: list[str] = []

    def run(name: str, first: bool) -> None:
        lanes.enter(first=first)
        order.append(name)
        lanes.leave()

    threads = []
    for name, first in (("later 1", False), ("later 2", False), ("first 1", True),
                        ("first 2", True)):  # fmt: skip
        threads.append(thread := threading.Thread(target=run, args=(name, first)))
        thread.start()
        _waiting(lanes, len(threads))
    lanes.leave()
    for thread in threads:
        thread.join(5)

    assert order == ["first 1", "first 2", "later 1", "later 2"]


def _runs(
    lanes: Lanes, name: str, order: list[str], hold: threading.Event | None = None, **kind: bool
) -> threading.Thread:
    """A thread that takes a slot of `lanes` (as `kind` says), notes `name`, keeps the slot
    until `hold` is set (if given), and leaves."""

    def run() -> None:
        lanes.enter(**kind)
        order.append(name)
        if hold is not None:
            hold.wait(5)
        lanes.leave()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _until(condition: Any) -> None:
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.001)


def test_later_work_waits_while_a_request_is_under_way_and_other_work_does_not() -> None:
    lanes = Lanes(2)
    order: list[str] = []
    request = lanes.urgent()  # a request the handler has accepted and not yet answered

    later = _runs(lanes, "later", order)
    _waiting(lanes, 1)
    for name, kind in (("first", {"first": True}), ("resumed", {"resumed": True})):
        _runs(lanes, name, order, **kind).join(5)
    assert order == ["first", "resumed"]  # both went in beside the request; later did not

    request.end()
    request.end()  # ending it again changes nothing
    later.join(5)
    assert order == ["first", "resumed", "later"]
    assert lanes._urgent == 0 and lanes._free == 2


def test_later_work_that_waited_its_patience_goes_in_one_thread_at_a_time() -> None:
    now = [0.0]
    lanes = Lanes(3, patience=1.0, clock=lambda: now[0])
    order: list[str] = []
    busy = lanes.urgent()  # urgent work that never stops: later work must not starve
    hold = threading.Event()

    threads = [_runs(lanes, "later 1", order, hold)]
    _waiting(lanes, 1)
    threads.append(_runs(lanes, "later 2", order, hold))
    _waiting(lanes, 2)
    lanes.urgent().end()  # urgent work ends before anyone waited long enough
    assert order == []

    now[0] = 1.5
    lanes.urgent().end()  # the next occasion: the oldest goes in, and only it
    _until(lambda: order == ["later 1"])
    lanes.urgent().end()
    assert order == ["later 1"] and lanes._free == 2  # free slots, yet one later at a time
    hold.set()  # later 1 leaves: later 2 has waited long enough, and no later work runs
    for thread in threads:
        thread.join(5)
    assert order == ["later 1", "later 2"]
    busy.end()
    assert lanes._free == 3 and lanes._later_running == 0


class _Thinking:
    """A model that holds its answer until released, noting when it was called."""

    name, model = "thinking", "thinking-1"

    def __init__(self) -> None:
        self.called = threading.Event()
        self.answer = threading.Event()

    def complete(self, messages: Sequence[Any], **_: Any) -> Any:
        self.called.set()
        self.answer.wait(5)
        return "done"

    def stream(self, messages: Sequence[Any]) -> Iterator[str]:
        self.called.set()
        self.answer.wait(5)
        yield "piece"


@pytest.mark.parametrize("call", ["stream", "complete"])
def test_a_stream_waiting_on_the_model_holds_no_slot(
    call: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lanes = Lanes(1)
    monkeypatch.setattr(lanes_module, "_LANES", lanes)
    model = _Thinking()
    provider = ConnectionReleasingProvider(model)
    held_after: list[bool] = []

    def stream_thread() -> None:
        lanes.enter(first=True)
        if call == "stream":
            list(provider.stream([]))
        else:
            provider.complete([])
        held_after.append(lanes.holding())  # it has its slot back for what follows
        lanes.leave()

    streaming = threading.Thread(target=stream_thread)
    streaming.start()
    assert model.called.wait(5)
    other = threading.Event()

    def another_stream() -> None:
        lanes.enter(first=True)
        other.set()
        lanes.leave()

    threading.Thread(target=another_stream, daemon=True).start()
    got_in = other.wait(2)
    model.answer.set()
    streaming.join(5)

    assert got_in, "another stream could not run while this one waited on the model"
    assert held_after == [True]


def test_a_stream_that_waits_for_its_turn_first_gives_its_database_connection_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lanes = Lanes(1)
    given_back: list[str] = []

    def release() -> None:
        given_back.append(threading.current_thread().name)

    # What release_connection does is askapp/database.py's (and test_database.py's) business;
    # on the tests' in-memory SQLite, closing is a no-op, so the call itself is what is seen.
    monkeypatch.setattr("askapp.database.release_connection", release)
    lanes.enter()  # a free slot: nothing to wait for, the connection is kept
    waiter = threading.Thread(target=lambda: (lanes.enter(), lanes.leave()), name="waiter")
    waiter.start()
    _waiting(lanes, 1)
    lanes.leave()
    waiter.join(5)

    # Held by a thousand waiting streams, a PostgreSQL pool ran dry and new streams got 503.
    assert given_back == ["waiter"]


def test_a_streamed_response_stays_urgent_until_its_first_piece_is_ready() -> None:
    lanes = Lanes(1)
    urgent = lanes.urgent()
    seen: list[int] = []

    async def body() -> Any:
        seen.append(lanes._urgent)  # making the first piece: still urgent
        yield b"meta"
        seen.append(lanes._urgent)  # later pieces: not
        yield b"done"

    async def read() -> list[bytes]:
        return [piece async for piece in _ending_at_first(body(), urgent)]

    assert asyncio.run(read()) == [b"meta", b"done"]
    assert seen == [1, 0] and lanes._urgent == 0
