"""The answer streams' write ahead, committed in groups: one writer thread per process stores
every new conversation's question that is waiting, in one transaction.

A stream that starts a conversation stores its question before the engine runs (ADR 0037), so
that its `meta` event names a conversation that exists. Stored one by one, a thousand streams
opened at once queued a thousand transactions on SQLite's one writer (askapp/writer.py), each
holding the lock while its thread waited its turn for the interpreter among hundreds of
others: the first event waited seconds on that queue (docs/adr/0045). Here the streams hand
their asks to one thread, which takes all that are waiting, writes them with one lock, one
transaction and a few multi-row INSERTs, and wakes each stream when its row is committed.
What is stored is exactly what `_store_question_first` stores, and a stream's first event
still comes after its question is committed.

If a group's transaction fails, each ask is written alone, so one bad ask fails only itself;
its error reaches its own stream, as it would have without the group.
"""

from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future

from django.db import connection

from askapp.services.asking import PreparedAsk, store_questions_first

logger = logging.getLogger(__name__)

MOST_A_GROUP = 500


class GroupWriter:
    """Stores new conversations' questions first, every waiting one in one transaction."""

    def __init__(self) -> None:
        self._waiting: queue.SimpleQueue[tuple[PreparedAsk, Future[None]]] = queue.SimpleQueue()
        self._start = threading.Lock()
        self._thread: threading.Thread | None = None

    def store(self, prepared: PreparedAsk) -> None:
        """Store `prepared`'s question (a new conversation's) and return once it is committed;
        raises what writing it raised. An ask that continues a conversation returns at once."""
        if not prepared.is_new or prepared.pending is not None:
            return
        done: Future[None] = Future()
        self._waiting.put((prepared, done))
        self._running()
        done.result()

    def _running(self) -> None:
        with self._start:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._serve, name="askapp-write-ahead", daemon=True
                )
                self._thread.start()

    def _serve(self) -> None:
        while True:
            group = [self._waiting.get()]
            while len(group) < MOST_A_GROUP:
                try:
                    group.append(self._waiting.get_nowait())
                except queue.Empty:
                    break
            try:
                self._write(group)
                if self._waiting.empty():
                    # A pooled connection goes back to the pool (PostgreSQL); a SQLite one is
                    # kept for CONN_MAX_AGE, as a web thread keeps its own.
                    connection.close_if_unusable_or_obsolete()
            except Exception as exc:  # never leave a stream waiting on a dead thread
                logger.exception("the write-ahead thread failed")
                for _, done in group:
                    if not done.done():
                        done.set_exception(exc)

    @staticmethod
    def _write(group: list[tuple[PreparedAsk, Future[None]]]) -> None:
        try:
            store_questions_first([prepared for prepared, _ in group])
        except Exception:
            if len(group) > 1:
                logger.warning("a group write ahead failed; writing its asks one by one")
            for prepared, done in group:
                try:
                    store_questions_first([prepared])
                except Exception as exc:
                    done.set_exception(exc)
                else:
                    done.set_result(None)
            return
        for _, done in group:
            done.set_result(None)


_WRITER = GroupWriter()


def store_question_first(prepared: PreparedAsk) -> None:
    """The process's group writer stores `prepared`'s question (see GroupWriter.store)."""
    _WRITER.store(prepared)
